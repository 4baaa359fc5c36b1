#!/usr/bin/env bash
# The broker's recompute-and-publish cycle for 1,000 simulated nodes on a real kube-apiserver + etcd and a
# real ZooKeeper (YARN plugin side simulated): time from a NodeMetric change to both sides published,
# p50/p99. Extra arguments: --nodes=N --changes=M --sync-interval-ms=T (the broker's sync.intervalMs).
set -euo pipefail
cd "$(dirname "$0")/.."
. dev/lib/installed-dir.sh
COLOCATION_KUBE_BIN=$(installed_dir dev/install-kube-apiserver.sh)
export COLOCATION_KUBE_BIN
mvn -B -q -DskipTests install -pl batch-resource-broker/broker-benchmarks -am
args="${*:---nodes=1000}"
log=$(mktemp)
if ! mvn -B -q -pl batch-resource-broker/broker-benchmarks exec:exec@publish-cycle -Dscenario.args="$args" >"$log" 2>&1; then
  tail -40 "$log" >&2
  exit 1
fi
grep -E "^(setup|first publication|NodeMetric change|pass that|full pass|slow change|  \+)" "$log"
rm -f "$log"
