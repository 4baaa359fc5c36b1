#!/usr/bin/env bash
# The fast engine's wall time against a reference revision, side by side on this machine: both distributions are
# built, then `colocation simulate --engine fast` runs alternately with each (same nodes, hours, policy and seed), and
# the medians of the rounds are printed with their ratio, in all and per part of the engine (hosts, broker,
# scheduler, YARN). A machine's speed drifts by a fifth from hour to hour here; a ratio measured in one script does not.
# Usage: dev/bench-fast-engine.sh [REF] [NODES] [HOURS] [ROUNDS] [POLICY]   (default HEAD~1 1000 3 3 partitioned)
set -euo pipefail
cd "$(dirname "$0")/.."
ref=${1:-HEAD~1}
nodes=${2:-1000}
hours=${3:-3}
rounds=${4:-3}
policy=${5:-partitioned}
git rev-parse --verify -q "$ref^{commit}" >/dev/null || { echo "bench-fast-engine: $ref is not a revision of this repository" >&2; exit 2; }
for n in "$nodes" "$hours" "$rounds"; do
  [[ $n =~ ^[0-9]+$ && $n -gt 0 ]] || { echo "bench-fast-engine: NODES, HOURS and ROUNDS are positive integers, got '$n'" >&2; exit 2; }
done
work=$(mktemp -d)
trap 'git worktree remove --force "$work/ref" >/dev/null 2>&1 || true; rm -rf "$work"' EXIT

build() { # $1: source tree, $2: where the distribution goes
  (cd "$1" && { mvn -B -q -o -DskipTests package -pl dist -am >/dev/null 2>&1 || mvn -B -q -DskipTests package -pl dist -am >/dev/null; })
  cp -r "$1/dist/target/colocation" "$2"
}
echo "building $ref ($(git rev-parse --short "$ref")) and this tree ($(git rev-parse --short HEAD)$(git diff --quiet HEAD || echo ', with changes'))"
git worktree add -q --detach "$work/ref" "$ref"
build "$work/ref" "$work/reference"
build . "$work/candidate"

run() { # $1: reference|candidate, $2: round
  local out="$work/$1-$2"
  "$work/$1/bin/colocation" simulate --engine fast --nodes "$nodes" --hours "$hours" --policy "$policy" --seed 1 \
    --report "$out" >"$out.log" 2>&1 || { echo "the $1 run failed; its output:" >&2; tail -20 "$out.log" >&2; exit 1; }
}
for r in $(seq 1 "$rounds"); do
  for side in reference candidate; do
    run "$side" "$r"
    echo "round $r $side: $(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["wallSeconds"])' "$work/$side-$r/summary.json") s"
  done
done

python3 - "$work" "$rounds" "$ref" "$nodes" "$hours" "$policy" <<'EOF'
import json, statistics, sys
work, rounds, ref, nodes, hours, policy = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5], sys.argv[6]
def load(side):
    return [json.load(open(f"{work}/{side}-{r}/summary.json")) for r in range(1, rounds + 1)]
runs = {side: load(side) for side in ("reference", "candidate")}
def median(side, key):
    values = [s["wallSeconds"] if key == "all" else s["simulation"].get("wallMillis." + key, 0) / 1000 for s in runs[side]]
    return statistics.median(values)
cpu = {side: statistics.median(s["cpu"]["meanPercent"] for s in runs[side]) for side in runs}
print(f"\nfast engine, {nodes} nodes x {hours} h, {policy}, seed 1, medians of {rounds} rounds (wall seconds)")
print(f"{'part':<14}{'reference ' + ref:>24}{'this tree':>14}{'ratio':>9}")
for key in ("all", "hosts", "broker", "scheduler", "yarn", "yarn-masters", "sample"):
    a, b = median("reference", key), median("candidate", key)
    print(f"{key:<14}{a:>24.1f}{b:>14.1f}{(b / a if a else float('nan')):>9.2f}")
print(f"cluster CPU: reference {cpu['reference']:.2f} %, this tree {cpu['candidate']:.2f} %")
EOF
