#!/usr/bin/env bash
# Container allocations per second: stock CapacityScheduler vs CapacityScheduler with the plugin active,
# side by side in one JVM. Arguments: --nodes N --apps N --rounds N --repeats N (defaults 200 50 5 9).
set -euo pipefail
cd "$(dirname "$0")/.."
mvn -B -q -DskipTests install -pl yarn-scheduler-plugin/plugin-benchmarks -am
mvn -B -q -pl yarn-scheduler-plugin/plugin-benchmarks exec:exec@bench -Dbench.args="$*"
