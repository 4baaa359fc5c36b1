#!/usr/bin/env bash
# What a reclaim costs a Spark job on YARN: SparkOnYarnBenchmark runs SparkOnYarnTest's word count three times on one
# MiniYARNCluster with the plugin (without a reclaim, with one executor preempted by a grant shrink, without again)
# and prints the times side by side. About 4 minutes on 2 cores. Usage: dev/bench-spark-on-yarn.sh
set -euo pipefail
cd "$(dirname "$0")/.."
mvn -B -q verify -pl yarn-scheduler-plugin/plugin -am -Dtest=SparkOnYarnBenchmark -Dsurefire.failIfNoSpecifiedTests=false \
  >/dev/null 2>&1 || { echo "benchmark failed; see yarn-scheduler-plugin/plugin/target/surefire-reports/" >&2; exit 1; }
cat yarn-scheduler-plugin/plugin/target/spark-on-yarn-benchmark.txt
