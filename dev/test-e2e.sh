#!/usr/bin/env bash
# The end-to-end suite (charts module, ChartOnRealNodeE2E): the product's images (dev/build-images.sh) on a real
# cluster of one real node on this host (kube-apiserver, etcd, kubelet, kube-controller-manager, kube-scheduler and
# kube-proxy v1.20.2 built from Debian's source; containerd), with ZooKeeper and a ResourceManager on the host; the
# Helm chart installed, checked, upgraded and uninstalled, and the kustomize kit applied. Needs root (the node) and the
# node to itself: dev/test-all.sh runs it after the module suites. Logs of every pod: charts/target/e2e-logs on failure.
set -euo pipefail
cd "$(dirname "$0")/.."
. dev/lib/installed-dir.sh
. dev/lib/apt-install.sh
COLOCATION_KUBE_BIN=$(installed_dir dev/install-kubelet-node.sh --with-control-plane)
export COLOCATION_KUBE_BIN
# kube-proxy programs the host's iptables
command -v iptables >/dev/null || apt_install test-e2e iptables
images=$(installed_dir dev/build-images.sh)
start=$(date +%s)
mvn -B -pl charts -am test -Dtest=ChartOnRealNodeE2E -Dsurefire.failIfNoSpecifiedTests=false -De2e.images="$images" "$@"
echo "[test-e2e] passed in $(( $(date +%s) - start )) s"
