#!/usr/bin/env bash
# Writes conf/kubernetes (the kustomize kit) anew from the Helm chart: charts/colocation's CRDs and the chart rendered
# with its defaults, release colocation, namespace koordinator-system, for Kubernetes 1.20.2 on (helm v3.21 through
# helm-java; the charts module's KustomizeKitTest, which CI runs, fails whenever the two drift).
set -euo pipefail
cd "$(dirname "$0")/.."
mvn -B -q test -pl charts -am -Dtest=KustomizeKitTest -Dsurefire.failIfNoSpecifiedTests=false -Dkit.write=true
git status --short conf/kubernetes
