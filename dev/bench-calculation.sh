#!/usr/bin/env bash
# JMH: time to recompute Batch and Mid for a 10,000-node cluster with 60 pods per node.
# Extra arguments go to JMH (for example -f 2 -wi 5).
set -euo pipefail
cd "$(dirname "$0")/.."
mvn -B -q -DskipTests install -pl batch-resource-broker/broker-benchmarks -am
mvn -B -q -pl batch-resource-broker/broker-benchmarks exec:exec@jmh -Djmh.args="ClusterRecomputeBenchmark $*"
