#!/usr/bin/env bash
# The README's first command: installs what the sandbox needs on a fresh machine (etcd + kube-apiserver, built and
# cached by dev/install-kube-apiserver.sh; as root also the real node's kubelet, containerd and image, by
# dev/install-kubelet-node.sh), builds the distribution, and runs `colocation sandbox` with its defaults.
# Arguments are passed to the sandbox (for example --nodes 4 --keep-running, or --no-real-node).
set -euo pipefail
cd "$(dirname "$0")/.."
. dev/lib/installed-dir.sh
if [ "$(id -u)" -eq 0 ]; then
  COLOCATION_KUBE_BIN=$(installed_dir dev/install-kubelet-node.sh)
else
  COLOCATION_KUBE_BIN=$(installed_dir dev/install-kube-apiserver.sh)
fi
export COLOCATION_KUBE_BIN
mvn -B -q -DskipTests package
exec dist/target/colocation/bin/colocation sandbox "$@"
