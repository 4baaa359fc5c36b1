#!/usr/bin/env bash
# What an eviction costs a Spark job on Kubernetes: SparkOnKubernetesBenchmark runs the word count with Spark 4.2.0's
# executor pods on a real kubelet three times (without an eviction, with one executor pod evicted through the
# Eviction API, without again) and prints the times side by side. Root, with the real node installed
# (dev/install-kubelet-node.sh, run here); about 3 minutes on 2 cores. Usage: dev/bench-spark-on-kubernetes.sh
set -euo pipefail
cd "$(dirname "$0")/.."
. dev/lib/installed-dir.sh
COLOCATION_KUBE_BIN=$(installed_dir dev/install-kubelet-node.sh)
export COLOCATION_KUBE_BIN
mvn -B -q verify -pl test-support -am -Dtest=SparkOnKubernetesBenchmark -Dsurefire.failIfNoSpecifiedTests=false \
  >/dev/null 2>&1 || { echo "benchmark failed; see test-support/target/surefire-reports/" >&2; exit 1; }
cat test-support/target/spark-on-kubernetes-benchmark.txt
