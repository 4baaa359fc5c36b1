#!/usr/bin/env bash
# Everything a real Kubernetes node on this host needs (local-clusters' KubeletNode): kubelet v1.20.2 built from the
# same Debian source tree and cache as kube-apiserver (dev/install-kube-apiserver.sh --with-kubelet), containerd, runc,
# the CNI plugins and umoci from Debian's packages, and the node image colocation.local/node-base:3, packed with umoci
# from files of this host (no registry): a static pause and the test workload local-clusters/node-image/burner.c
# compiled here, Debian's static busybox as /bin/sh and the usual commands, and a Java 17 runtime at /opt/java made by
# jlink from this host's JDK (java.se and the jdk modules Hadoop and Spark use, Spark 4 asking for jdk.incubator.vector; about 50 MB) with the shared libraries
# it loads. The image is cached under ~/.cache/colocation/node-image/<hash of its inputs> and rebuilt only when they
# (the sources, this script, the JDK's release) change. A second run takes seconds.
#
#   dev/install-kubelet-node.sh     # prints the directory holding kube-apiserver, etcd, kubelet and node-base.tar
#   dev/install-kubelet-node.sh --with-control-plane   # and kube-controller-manager, kube-scheduler, kube-proxy
#                                                      # (the end-to-end suite's cluster; one build for all)
#
# Stdout holds that directory's path and nothing else: every other line, this script's and the tools' it runs (jlink
# prints its incubator-module warning on stdout), goes to stderr by construction (fd 3 keeps the caller's stdout).
set -euo pipefail
exec 3>&1 1>&2
self=$(readlink -f "$0")
cd "$(dirname "$self")/.."
. dev/lib/installed-dir.sh
. dev/lib/apt-install.sh
. dev/lib/rootfs.sh
CACHE=${COLOCATION_CACHE:-$HOME/.cache/colocation}
log() { echo "[install-kubelet-node] $*" >&2; }

for arg in "$@"; do
  case "$arg" in
    --with-control-plane) ;;
    *) log "unknown argument: $arg (known: --with-control-plane)"; exit 2 ;;
  esac
done
BIN_DIR=$(installed_dir dev/install-kube-apiserver.sh --with-kubelet "$@")

need_apt=()
command -v containerd >/dev/null || need_apt+=(containerd)
command -v runc >/dev/null || need_apt+=(runc)
command -v umoci >/dev/null || need_apt+=(umoci)
[ -x /usr/lib/cni/bridge ] || need_apt+=(containernetworking-plugins)
command -v gcc >/dev/null || need_apt+=(gcc)
[ -n "$(find /usr/lib -name libc.a -path '*linux-gnu*' -print -quit 2>/dev/null)" ] || need_apt+=(libc6-dev)
# jlink needs the JDK's jmods, which Debian ships in openjdk-17-jdk-headless
JDK=/usr/lib/jvm/java-17-openjdk-amd64
[ -d "$JDK/jmods" ] || need_apt+=(openjdk-17-jdk-headless)
apt_install install-kubelet-node "${need_apt[@]}"
# Debian may start containerd as a service on install; KubeletNode runs its own, on its own socket and directories.
if command -v systemctl >/dev/null && systemctl is-active --quiet containerd 2>/dev/null; then
  systemctl stop containerd || true
fi

src=local-clusters/node-image
hash=$(cat "$src"/*.c "$self" dev/lib/rootfs.sh "$JDK/release" | sha256sum | cut -c1-16)
image_dir=$CACHE/node-image/$hash
if [ ! -f "$image_dir/node-base.tar" ]; then
  log "building the node image colocation.local/node-base:3 ($hash)"
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
  gcc -static -O2 -Wall -o "$work/pause" "$src/pause.c"
  gcc -static -O1 -Wall -pthread -o "$work/burner" "$src/burner.c"
  # apt's package lists may be missing or stale on a machine that needed no package above
  (cd "$work" && { apt-get download busybox-static || { apt-get update -qq && apt-get download busybox-static; }; }) \
    || { log "apt-get download busybox-static failed"; exit 1; }
  dpkg-deb -x "$work"/busybox-static_*.deb "$work/busybox"
  "$JDK/bin/jlink" --add-modules java.se,jdk.unsupported,jdk.crypto.ec,jdk.zipfs,jdk.management,jdk.security.auth,jdk.security.jgss,jdk.naming.dns,jdk.incubator.vector \
    --strip-debug --no-man-pages --no-header-files --compress=2 --output "$work/java"
  umoci init --layout "$work/oci"
  umoci new --image "$work/oci:3"
  umoci unpack --image "$work/oci:3" "$work/bundle"
  root=$work/bundle/rootfs
  mkdir -p "$root/bin" "$root/opt" "$root/etc" "$root/root" "$root/tmp"
  chmod 1777 "$root/tmp"
  cp "$work/pause" "$work/burner" "$root/"
  rootfs_busybox "$root" "$work/busybox/bin/busybox"
  rootfs_java "$root" "$work/java"
  # and the C/C++ runtime the native codecs of Spark's executors link (zstd-jni: libpthread; snappy-java: libm;
  # others libstdc++), which a plain JVM does not load
  for lib in libpthread.so.0 libm.so.6 libdl.so.2 librt.so.1 libstdc++.so.6 libgcc_s.so.1; do
    path=$(readlink -f "/lib/x86_64-linux-gnu/$lib")
    mkdir -p "$root/lib/x86_64-linux-gnu"
    cp -L "$path" "$root/lib/x86_64-linux-gnu/$lib"
  done
  printf 'root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/nonexistent:/bin/false\n' > "$root/etc/passwd"
  printf 'root:x:0:\nnogroup:x:65534:\n' > "$root/etc/group"
  umoci repack --image "$work/oci:3" "$work/bundle"
  umoci config --image "$work/oci:3" --config.entrypoint /pause --config.env PATH=/opt/java/bin:/bin --config.env JAVA_HOME=/opt/java
  mkdir -p "$image_dir"
  tar -C "$work/oci" -cf "$image_dir/node-base.tar.tmp" .
  mv "$image_dir/node-base.tar.tmp" "$image_dir/node-base.tar"
fi
ln -sf "$image_dir/node-base.tar" "$BIN_DIR/node-base.tar"
echo "$BIN_DIR" >&3
