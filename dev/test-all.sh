#!/usr/bin/env bash
# Installs every prerequisite of the test suite (etcd, kube-apiserver and kubelet built from Debian's source
# package, containerd/runc/CNI and the node image for a real node, all cached in ${COLOCATION_CACHE:-~/.cache/colocation}; chromium for the
# console's browser test, jq for the simulation's check) and runs all tests with Maven. Safe to re-run: the second run
# skips the build. Without arguments it then runs the end-to-end install on a real node (dev/test-e2e.sh: the images,
# the Helm chart and the kustomize kit on a real kubelet with its control plane), the Hadoop-side suites against Hadoop 3.3.6 and 3.5.0
# (dev/test-hadoop-3.3.sh, dev/test-hadoop-3.5.sh), the sandbox scenario on the built distribution (dev/test-sandbox.sh)
# and a short simulation against its baseline (dev/test-simulate.sh);
# extra arguments go to Maven only (for example -pl local-clusters).
set -euo pipefail
cd "$(dirname "$0")/.."
. dev/lib/installed-dir.sh
. dev/lib/apt-install.sh
COLOCATION_KUBE_BIN=$(installed_dir dev/install-kubelet-node.sh --with-control-plane)
export COLOCATION_KUBE_BIN
# The install scripts' cold path (the node image from scratch into an empty cache) and their stdout protocol.
dev/test-install-scripts.sh "$COLOCATION_KUBE_BIN"
# The console's test opens the page in a real (headless) browser; dev/test-simulate.sh reads the summaries with jq.
need_apt=()
command -v chromium >/dev/null || need_apt+=(chromium)
command -v jq >/dev/null || need_apt+=(jq)
apt_install test-all "${need_apt[@]}"
# Two module builds at a time (-T 2): once the shared modules are built, the plugin, the copilot, the broker, the
# scheduler and the koordlet do not depend on each other, and their tests mostly wait on servers they start (ports
# and work directories are each test's own; real cgroups and the real node are the koordlet's alone).
if [ "$#" -gt 0 ]; then
  exec mvn -B -T 2 verify "$@"
fi
mvn -B -T 2 verify
dev/test-e2e.sh
dev/test-hadoop-3.3.sh
dev/test-hadoop-3.5.sh
dev/test-sandbox.sh
exec dev/test-simulate.sh
