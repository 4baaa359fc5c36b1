#!/usr/bin/env bash
# The koordlet's CPU and RSS on a realistic host (100 pods, 50 YARN containers, v1 and v2 cgroup trees on disk,
# 1 s loops, reporting to a real kube-apiserver), run through the distribution's launcher and its default JVM
# options. Usage: dev/bench-koordlet-footprint.sh [minutes]   (default 10; run on an otherwise idle machine)
set -euo pipefail
cd "$(dirname "$0")/.."
minutes=${1:-10}
. dev/lib/installed-dir.sh
COLOCATION_KUBE_BIN=$(installed_dir dev/install-kube-apiserver.sh)
export COLOCATION_KUBE_BIN
mvn -B -q -o -DskipTests package -pl dist -am 2>/dev/null || mvn -B -q -DskipTests package -pl dist -am
mvn -B -q test -pl koordlet -am -Dtest=KoordletFootprintBenchmark -Dsurefire.failIfNoSpecifiedTests=false \
  -Dfootprint.minutes="$minutes" >/dev/null 2>&1 || { echo "benchmark failed; see koordlet/target/surefire-reports/" >&2; exit 1; }
grep -A5 "koordlet footprint" koordlet/target/surefire-reports/io.colocation.koordlet.KoordletFootprintBenchmark-output.txt
