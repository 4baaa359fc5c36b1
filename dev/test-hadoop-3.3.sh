#!/usr/bin/env bash
# The Hadoop-side suites (the RM scheduler plugin and the NodeManager copilot) against Hadoop 3.3.6: that version's
# MiniYARNCluster, MapReduce and the ZooKeeper its ResourceManager ships (profile hadoop-3.3). Run by
# dev/test-all.sh after the default (3.4.2) suite; extra arguments go to Maven.
set -euo pipefail
cd "$(dirname "$0")/.."
# Only the plugin's and the copilot's own tests, the two modules side by side (-T 2): the modules they build on (-am)
# are rebuilt against this Hadoop, and their own tests ran in the default pass (the MiniYARNCluster they wrap is
# started by every test here).
exec mvn -B -T 2 -Phadoop-3.3 verify -pl yarn-scheduler-plugin/plugin,yarn-copilot-nm/aux-service -am \
  -Dtest='io/colocation/yarn/plugin/**/*Test,io/colocation/copilot/**/*Test' -Dsurefire.failIfNoSpecifiedTests=false "$@"
