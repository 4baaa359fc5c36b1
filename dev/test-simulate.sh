#!/usr/bin/env bash
# The simulator as CI runs it: the distribution's `colocation simulate` with 20 nodes through 2 simulated hours, once
# with colocation off (the baseline) and once partitioned at speed 60, same seed. With colocation off nothing but the
# seeded trace moves the online load, so the baseline is the same at any speed (21.6 % at 120 and at 480): it runs at
# 480, 30 s instead of 75 s of the suite. The partitioned run's speed is what the real engine's figure depends on: its
# every wall-clock delay (the JVMs' warm-up, a heartbeat, a scheduling attempt) lasts speed times as many simulated
# seconds, so a slower host moves it (at 120 a CI host gave 49.7 % where this one gives 53.4 %; at 60 this one gives
# 55.7 %, closer to what the real engine converges to). It must exit 0 both times, write the
# report and the picture, hold the invariants (0 overcommit samples under partitioned, no YARN shrink on its way to the
# ResourceManager's scheduler for 30 wall seconds or more, Batch used by Kubernetes and by YARN, cluster CPU above the
# baseline) and leave nothing behind (no process, no work directory, nothing in the directory
# it was started from). The partitioned run reads its slo-controller-config from a file of its own (--slo-config, a
# copy of the shipped one), as a user's run would. Then the same partitioned run on the fast engine (--engine fast: the
# decision code on a virtual clock), the short version of docs/simulator.md's comparison of the two engines: the same
# invariants, and cluster CPU within 4 points of the real engine's (54.3 % on the fast engine; at 200 nodes × 6 h the
# engines are 0.5 apart); when it does not hold, both summaries are printed.
# Usage: dev/test-simulate.sh   (after the build; COLOCATION_KUBE_BIN set or the kube binaries cached)
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$(pwd)/dist/target/colocation/bin/colocation
reports=$(mktemp -d)
trap 'rm -rf "$reports"' EXIT
mkdir "$reports/cwd"
before=$(find /tmp -maxdepth 1 -name 'colocation-simulate-*' -type d | wc -l)
slo=$reports/my-slo-controller-config.yaml
cp dist/target/colocation/conf/kubernetes/slo-controller-config.yaml "$slo"
for policy in off partitioned; do
  mkdir "$reports/$policy"
  speed=60
  own=(--slo-config "$slo")
  [ "$policy" = off ] && speed=480 && own=()
  status=0
  (cd "$reports/cwd" && SIMULATE_JVM_OPTS="-Xmx1500m -XX:+UseParallelGC" "$bin" simulate --nodes 20 --hours 2 --speed "$speed" \
    --seed 7 --policy "$policy" "${own[@]}" --report "$reports/$policy" --quiet) || status=$?
  if [ "$status" -ne 0 ]; then
    echo "test-simulate: colocation simulate --policy $policy exited with $status" >&2
    exit 1
  fi
  for f in summary.json report.txt samples.csv cpu.svg; do
    [ -s "$reports/$policy/$f" ] || { echo "test-simulate: $policy wrote no $f" >&2; exit 1; }
  done
done
off=$reports/off/summary.json
on=$reports/partitioned/summary.json
check() { # description, jq expression that must be true [, another summary to print when it does not]
  if [ "$(jq -r "$2" "$on")" != "true" ]; then
    echo "test-simulate: $1 does not hold: $2" >&2
    jq . "$on" >&2
    [ -n "${3:-}" ] && { echo "test-simulate: and $3:" >&2; jq . "$3" >&2; }
    exit 1
  fi
}
check "the run read --slo-config" ".simulation.sloConfigSource == \"$slo\" and .thresholds.cpuReclaimThresholdPercent == 75"
check "0 overcommit samples" '.overcommitSamples == 0 and .samples > 0'
check "every published YARN shrink applied within 30 wall seconds" '.yarnShrinkPendingLongestMillis < 30000'
check "Kubernetes used Batch" '.batch.kubernetesUsedMeanCores > 0 and .tasks.kubernetes.completed > 0'
check "YARN used Batch" '.batch.yarnUsedMeanCores > 0 and .tasks.yarn.completed > 0'
baseline=$(jq -r '.cpu.meanPercent' "$off")
check "cluster CPU above the off baseline ($baseline %)" ".cpu.meanPercent > $baseline"
real=$(jq -r '.cpu.meanPercent' "$on")
mkdir "$reports/fast"
(cd "$reports/cwd" && SIMULATE_JVM_OPTS="-Xmx1500m -XX:+UseParallelGC" "$bin" simulate --engine fast --nodes 20 --hours 2 \
  --seed 7 --policy partitioned --slo-config "$slo" --report "$reports/fast" --quiet) || {
  echo "test-simulate: colocation simulate --engine fast exited with $?" >&2
  exit 1
}
on=$reports/fast/summary.json
check "the fast engine ran" '.engine == "fast" and .simulation.delays.brokerPassSeconds > 0'
check "0 overcommit samples on the fast engine" '.overcommitSamples == 0 and .samples > 0'
check "Kubernetes and YARN used Batch on the fast engine" '.batch.kubernetesUsedMeanCores > 0 and .batch.yarnUsedMeanCores > 0'
check "the fast engine's cluster CPU within 4 points of the real engine's ($real %)" \
  "(.cpu.meanPercent - $real) | fabs <= 4" "$reports/partitioned/summary.json"
sleep 2
left=$(pgrep -f 'colocation-simulate-|io.colocation.simulator.SimulateCommand' || true)
if [ -n "$left" ]; then
  echo "test-simulate: processes left behind: $left" >&2
  ps -o pid,args -p "$(echo "$left" | paste -sd,)" >&2 || true
  exit 1
fi
if [ "$(find /tmp -maxdepth 1 -name 'colocation-simulate-*' -type d | wc -l)" -gt "$before" ]; then
  echo "test-simulate: a work directory was left in /tmp" >&2
  exit 1
fi
if [ -n "$(ls -A "$reports/cwd")" ]; then
  echo "test-simulate: files left in the directory it ran from: $(ls -A "$reports/cwd")" >&2
  exit 1
fi
echo "test-simulate: passed (off $baseline % CPU, partitioned $real %, on the fast engine $(jq -r '.cpu.meanPercent' "$on") %)," \
  "nothing left behind"
