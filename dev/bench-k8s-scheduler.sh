#!/usr/bin/env bash
# This scheduler against kube-scheduler v1.20.2 (built from the same Debian source tree as the test kube-apiserver),
# side by side in one run: for each cluster size, each scheduler gets a fresh etcd + kube-apiserver with the same
# Node objects (batch resources, no kubelets) and NodeMetrics, runs as its own process with the same client QPS and
# burst, and places the same batch pods (8 writers create them while it runs, after a warm-up of 1,000 pods); prints
# pods/s bound (first creation to last binding), p50/p99 creation-to-binding, the ratio to kube-scheduler, the
# scheduler process's CPU time and its CPU per measured pod (each round also gives the API server's and the
# writers'). Each configuration runs ROUNDS times, interleaved; the table shows medians, the ratio to kube-scheduler
# and LoadAware's pods/s and CPU per pod to the same scheduler's without it. In the last round, at the largest size,
# PENDING pods no node fits are added to each koord-scheduler run and its heap after a full GC is printed (0: not).
# About 17 minutes a round at 5,000 and 10,000 nodes.
#
#   dev/bench-k8s-scheduler.sh [NODES,NODES] [PODS] [QPS] [ROUNDS] [PENDING]
#                                            (default 5000,10000 5000 1000 3 20000; an idle machine)
set -euo pipefail
cd "$(dirname "$0")/.."
nodes=${1:-5000,10000}
pods=${2:-5000}
qps=${3:-1000}
rounds=${4:-3}
pending=${5:-20000}
. dev/lib/installed-dir.sh
COLOCATION_KUBE_BIN=$(installed_dir dev/install-kube-apiserver.sh --with-kube-scheduler)
export COLOCATION_KUBE_BIN
mvn -B -q -Dstyle.color=never install -DskipTests -pl dist -am >/dev/null 2>&1 \
  || { echo "build failed: run mvn install -DskipTests -pl dist -am to see why" >&2; exit 1; }
mvn -B -q -Dstyle.color=never test -pl k8s-scheduler -Dtest=SchedulerThroughputBenchmark -Dsurefire.failIfNoSpecifiedTests=false \
  -Dbench.nodes="$nodes" -Dbench.pods="$pods" -Dbench.qps="$qps" -Dbench.rounds="$rounds" -Dbench.pending="$pending" >/dev/null 2>&1 \
  || { echo "benchmark failed; see k8s-scheduler/target/surefire-reports/ and k8s-scheduler/target/bench-k8s-scheduler/" >&2; exit 1; }
sed -n '/^k8s-scheduler vs kube-scheduler/,$p' \
  k8s-scheduler/target/surefire-reports/io.colocation.scheduler.bench.SchedulerThroughputBenchmark-output.txt
