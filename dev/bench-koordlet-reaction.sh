#!/usr/bin/env bash
# How fast the BE tier gives way on this machine's real cgroups (root): BE burners on every CPU, then 20 online
# load steps; the time until the BE tier's CPU rate falls below 20 % of what it was, with the 1 s CPU suppress loop
# alone and with the BE cgroup also marked cpu.idle; and the time from memory over the eviction threshold to the BE
# process evicted. Usage: dev/bench-koordlet-reaction.sh [steps]   (default 20; run on an otherwise idle machine)
set -euo pipefail
cd "$(dirname "$0")/.."
steps=${1:-20}
mvn -B -q test -pl koordlet -am -Dtest=BeReactionBenchmark -Dsurefire.failIfNoSpecifiedTests=false \
  -Dreaction.steps="$steps" >/dev/null 2>&1 || { echo "benchmark failed; see koordlet/target/surefire-reports/" >&2; exit 1; }
grep -A5 "BE tier reaction" koordlet/target/surefire-reports/io.colocation.koordlet.qos.agent.BeReactionBenchmark-output.txt
