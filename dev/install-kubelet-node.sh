#!/usr/bin/env bash
# Everything a real Kubernetes node on this host needs (local-clusters' KubeletNode): kubelet v1.20.2 built from the
# same Debian source tree and cache as kube-apiserver (dev/install-kube-apiserver.sh --with-kubelet), containerd, runc,
# the CNI plugins and umoci from Debian's packages, and the node image colocation.local/node-base:1 (a static pause and
# the test workload local-clusters/node-image/burner.c, compiled here and packed with umoci: no registry), cached under
# ~/.cache/colocation/node-image/<hash of its inputs> and rebuilt only when they change. A second run takes seconds.
#
#   dev/install-kubelet-node.sh     # prints the directory holding kube-apiserver, etcd, kubelet and node-base.tar
set -euo pipefail
self=$(readlink -f "$0")
cd "$(dirname "$self")/.."
CACHE=${COLOCATION_CACHE:-$HOME/.cache/colocation}
log() { echo "[install-kubelet-node] $*" >&2; }

BIN_DIR=$(dev/install-kube-apiserver.sh --with-kubelet)

need_apt=()
command -v containerd >/dev/null || need_apt+=(containerd)
command -v runc >/dev/null || need_apt+=(runc)
command -v umoci >/dev/null || need_apt+=(umoci)
[ -x /usr/lib/cni/bridge ] || need_apt+=(containernetworking-plugins)
command -v gcc >/dev/null || need_apt+=(gcc)
[ -n "$(find /usr/lib -name libc.a -path '*linux-gnu*' -print -quit 2>/dev/null)" ] || need_apt+=(libc6-dev)
if [ ${#need_apt[@]} -gt 0 ]; then
  log "installing from apt: ${need_apt[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >&2
  apt-get install -y -qq --no-install-recommends "${need_apt[@]}" >&2
fi
# Debian may start containerd as a service on install; KubeletNode runs its own, on its own socket and directories.
if command -v systemctl >/dev/null && systemctl is-active --quiet containerd 2>/dev/null; then
  systemctl stop containerd >&2 || true
fi

src=local-clusters/node-image
hash=$(cat "$src"/*.c "$self" | sha256sum | cut -c1-16)
image_dir=$CACHE/node-image/$hash
if [ ! -f "$image_dir/node-base.tar" ]; then
  log "building the node image colocation.local/node-base:1 ($hash)"
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
  gcc -static -O2 -Wall -o "$work/pause" "$src/pause.c"
  gcc -static -O1 -Wall -pthread -o "$work/burner" "$src/burner.c"
  umoci init --layout "$work/oci"
  umoci new --image "$work/oci:1"
  umoci unpack --image "$work/oci:1" "$work/bundle" >/dev/null
  cp "$work/pause" "$work/burner" "$work/bundle/rootfs/"
  umoci repack --image "$work/oci:1" "$work/bundle"
  umoci config --image "$work/oci:1" --config.entrypoint /pause
  mkdir -p "$image_dir"
  tar -C "$work/oci" -cf "$image_dir/node-base.tar.tmp" .
  mv "$image_dir/node-base.tar.tmp" "$image_dir/node-base.tar"
fi
ln -sf "$image_dir/node-base.tar" "$BIN_DIR/node-base.tar"
echo "$BIN_DIR"
