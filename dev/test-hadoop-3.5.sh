#!/usr/bin/env bash
# The Hadoop-side suites (the RM scheduler plugin and the NodeManager copilot) against Hadoop 3.5.0: that version's
# MiniYARNCluster, MapReduce and the ZooKeeper its ResourceManager ships (profile hadoop-3.5). Run by
# dev/test-all.sh after the default (3.4.2) suite; extra arguments go to Maven. Spark on YARN (tag spark) runs on
# 3.4.2 and 3.3.6 only: Spark 3.5 brings its own Hadoop 3.3 client.
set -euo pipefail
cd "$(dirname "$0")/.."
exec mvn -B -Phadoop-3.5 verify -pl yarn-scheduler-plugin/plugin,yarn-copilot-nm/aux-service -am -DexcludedGroups=spark "$@"
