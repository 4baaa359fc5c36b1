#!/usr/bin/env bash
# The README's first command: installs what the sandbox needs on a fresh machine (etcd + kube-apiserver, built and
# cached by dev/install-kube-apiserver.sh), builds the distribution, and runs `colocation sandbox` with its defaults.
# Arguments are passed to the sandbox (for example --nodes 4 --keep-running).
set -euo pipefail
cd "$(dirname "$0")/.."
COLOCATION_KUBE_BIN=$(dev/install-kube-apiserver.sh)
export COLOCATION_KUBE_BIN
mvn -B -q -DskipTests package
exec dist/target/colocation/bin/colocation sandbox "$@"
