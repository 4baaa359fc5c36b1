#!/usr/bin/env bash
# The standard comparison of docs/simulator.md: the same seed and trace under colocation off (online only, the
# baseline), shared (one ledger, Koordinator's way) and partitioned (the broker's split), one `colocation simulate` run
# each, then the three summaries side by side. Reports go to bench-colocation/<policy>/ (summary.json, report.txt,
# samples.csv, cpu.svg).
# Usage: dev/bench-colocation.sh [--nodes N] [--hours H] [--speed X] [--trace T] [--seed S]
#        (defaults: 1000 nodes, 24 h, speed 12, alibaba2018, seed 1; after the build). Speed 12 is what 1,000 nodes
#        fit on 2 cores without saturating them (docs/simulator.md, "What gives out first"): about 2 hours of wall
#        time a policy, 6 in all; with more cores raise it (the control plane costs ~0.13 mcore per node and unit of
#        speed), on a saturated machine the figures measure the machine, not colocation.
set -euo pipefail
cd "$(dirname "$0")/.."
nodes=1000 hours=24 speed=12 trace=alibaba2018 seed=1
while [ "$#" -gt 0 ]; do
  case "$1" in
    --nodes) nodes=$2; shift 2 ;;
    --hours) hours=$2; shift 2 ;;
    --speed) speed=$2; shift 2 ;;
    --trace) trace=$2; shift 2 ;;
    --seed) seed=$2; shift 2 ;;
    *) echo "usage: dev/bench-colocation.sh [--nodes N] [--hours H] [--speed X] [--trace T] [--seed S]" >&2; exit 2 ;;
  esac
done
if [ -z "${COLOCATION_KUBE_BIN:-}" ]; then
  . dev/lib/installed-dir.sh
  COLOCATION_KUBE_BIN=$(installed_dir dev/install-kube-apiserver.sh)
  export COLOCATION_KUBE_BIN
fi
[ -x dist/target/colocation/bin/colocation ] || mvn -B -q -DskipTests install
out=bench-colocation
for policy in off shared partitioned; do
  rm -rf "${out:?}/$policy" && mkdir -p "$out/$policy"
  echo "[bench-colocation] $policy: $nodes nodes, $hours h at speed $speed, $trace, seed $seed" >&2
  dist/target/colocation/bin/colocation simulate --nodes "$nodes" --hours "$hours" --speed "$speed" --trace "$trace" \
    --seed "$seed" --policy "$policy" --report "$out/$policy" --quiet
done
printf '%-12s %8s %8s %8s %10s %10s %10s %12s %14s %12s\n' policy cpu% p95% online% batchCores k8sCores yarnCores \
  overcommit evict+preempt/k wall-s
for policy in off shared partitioned; do
  jq -r --arg p "$policy" '[$p, .cpu.meanPercent, .cpu.p95Percent, .cpu.onlineMeanPercent, .batch.reclaimedMeanCores,
      .batch.kubernetesUsedMeanCores, .batch.yarnUsedMeanCores, .overcommitSamples,
      .perThousandBatchTasks.evictionsAndPreemptions, .wallSeconds] | @tsv' "$out/$policy/summary.json" |
    awk -F'\t' '{printf "%-12s %8s %8s %8s %10s %10s %10s %12s %14s %12s\n", $1,$2,$3,$4,$5,$6,$7,$8,$9,$10}'
done
