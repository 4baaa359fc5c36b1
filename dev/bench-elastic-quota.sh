#!/usr/bin/env bash
# What the k8s-scheduler's ElasticQuota plugin costs, in one JVM on in-memory snapshots (no API server): NODES nodes,
# QUOTAS quotas in a 3-level tree (10 orgs, 9 departments each, the rest teams) and PENDING pending pods charged to the
# teams. The same pods go through the default profile and the same profile with ElasticQuota at PreFilter and Reserve,
# two of each (made A B B A, each on a snapshot of its own), runs rotated round by round; prints the thread's CPU ms per
# scheduling cycle of each, their ratio beside what two identical profiles differ by, the plugin's own calls per cycle,
# and the CPU ms from one quota's min change, and from one pod's arrival, to the plugin's next PreFilter answer (both
# update the tree along what changed). About a minute.
#
#   dev/bench-elastic-quota.sh [NODES] [QUOTAS] [PENDING]      (default 10000 1000 20000; an idle machine)
set -euo pipefail
cd "$(dirname "$0")/.."
nodes=${1:-10000}
quotas=${2:-1000}
pending=${3:-20000}
mvn -B -q -Dstyle.color=never install -DskipTests -pl k8s-scheduler -am >/dev/null 2>&1 \
  || { echo "build failed: run mvn install -DskipTests -pl k8s-scheduler -am to see why" >&2; exit 1; }
mvn -B -q -Dstyle.color=never test -pl k8s-scheduler -Dtest=ElasticQuotaCostBenchmark -Dsurefire.failIfNoSpecifiedTests=false \
  -Dbench.nodes="$nodes" -Dbench.quotas="$quotas" -Dbench.pending="$pending" -Dbench.cycles=5000 -Dbench.rounds=10 >/dev/null 2>&1 \
  || { echo "benchmark failed; see k8s-scheduler/target/surefire-reports/" >&2; exit 1; }
grep -E "^(ElasticQuota's cost|  round|CPU ms per|the plugin's own|one quota's|one pod)" \
  k8s-scheduler/target/surefire-reports/io.colocation.scheduler.bench.ElasticQuotaCostBenchmark-output.txt
