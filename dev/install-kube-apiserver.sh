#!/usr/bin/env bash
# Builds kube-apiserver v1.20.2 from Debian bookworm's `kubernetes` source package and caches it
# outside the repository, so tests can run a real API server on a machine with no container engine
# and no access to binary downloads. Also installs etcd (Debian's etcd-server). A second run takes
# seconds: it only checks the cache.
#
#   dev/install-kube-apiserver.sh                       # prints the directory holding kube-apiserver, etcd, kubectl
#   dev/install-kube-apiserver.sh --with-kube-scheduler # also builds kube-scheduler (the k8s-scheduler benchmark)
#   dev/install-kube-apiserver.sh --with-kubelet        # also builds kubelet (a real node on the test host)
#   dev/install-kube-apiserver.sh --with-control-plane  # also builds kube-controller-manager, kube-scheduler and
#                                                       # kube-proxy (the end-to-end suite's cluster)
#
# Cache: ${COLOCATION_CACHE:-$HOME/.cache/colocation}/kube-1.20.2/bin
#
# Stdout holds that directory's path and nothing else: every other line, this script's and the tools' it runs,
# goes to stderr by construction (fd 3 keeps the caller's stdout for the path alone).
set -euo pipefail
exec 3>&1 1>&2
. "$(dirname "$(readlink -f "$0")")/lib/apt-install.sh"

KUBE_VERSION=1.20.2
CACHE=${COLOCATION_CACHE:-$HOME/.cache/colocation}
BIN_DIR=$CACHE/kube-$KUBE_VERSION/bin
log() { echo "[install-kube-apiserver] $*" >&2; }

# Binaries to build from the source tree: kube-apiserver always, the others on request (one make builds them all).
wanted=(kube-apiserver)
for arg in "$@"; do
  case "$arg" in
    --with-kube-scheduler) wanted+=(kube-scheduler) ;;
    --with-kubelet) wanted+=(kubelet) ;;
    --with-control-plane) wanted+=(kube-controller-manager kube-scheduler kube-proxy) ;;
    *) log "unknown argument: $arg (known: --with-kube-scheduler, --with-kubelet, --with-control-plane)"; exit 2 ;;
  esac
done
missing=()
for b in "${wanted[@]}"; do [ -x "$BIN_DIR/$b" ] || missing+=("$b"); done

need_apt=()
command -v etcd >/dev/null || need_apt+=(etcd-server)
if [ ${#missing[@]} -gt 0 ]; then
  command -v go >/dev/null || need_apt+=(golang-go)
  [ -d /usr/share/gocode/src/github.com/modern-go/reflect2 ] || need_apt+=(golang-github-modern-go-reflect2-dev)
  [ -d /usr/share/gocode/src/github.com/json-iterator/go ] || need_apt+=(golang-github-json-iterator-go-dev)
  command -v make >/dev/null || need_apt+=(make)
  command -v rsync >/dev/null || need_apt+=(rsync)
fi
apt_install install-kube-apiserver "${need_apt[@]}"
# Debian starts etcd as a service on install; the tests start their own on free ports.
if command -v systemctl >/dev/null && systemctl is-active --quiet etcd 2>/dev/null; then
  systemctl stop etcd || true
fi

if [ ${#missing[@]} -gt 0 ]; then
  work=$CACHE/kube-$KUBE_VERSION/build
  rm -rf "$work"; mkdir -p "$work/apt/lists/partial" "$work/apt/sources"
  # A private deb-src list: the system's apt sources stay untouched.
  cat > "$work/apt/sources/debian-src.sources" <<SRC
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb-src
URIs: http://deb.debian.org/debian-security
Suites: bookworm-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
  aptopts=(-o Dir::Etc::SourceList=/dev/null -o "Dir::Etc::SourceParts=$work/apt/sources"
           -o "Dir::State::Lists=$work/apt/lists")
  log "fetching Debian's kubernetes source package"
  apt-get "${aptopts[@]}" update -qq
  (cd "$work" && apt-get "${aptopts[@]}" source --download-only kubernetes)
  orig=$(ls "$work"/kubernetes_*.orig.tar.* | head -n1)
  mkdir -p "$work/src"
  tar -xf "$orig" -C "$work/src" --strip-components=1
  # reflect2 1.0.1 (vendored) segfaults under Go >= 1.18; use Debian's 1.0.2 and json-iterator 1.1.12.
  for pkg in github.com/modern-go/reflect2 github.com/json-iterator/go; do
    rm -rf "$work/src/vendor/$pkg"
    mkdir -p "$work/src/vendor/$pkg"
    rsync -a --exclude '*_test.go' --exclude 'testdata' "/usr/share/gocode/src/$pkg/" "$work/src/vendor/$pkg/"
  done
  targets=$(printf 'cmd/%s ' "${missing[@]}")
  log "building ${missing[*]} (about 4 minutes per binary on 2 cores)"
  (cd "$work/src" && GOPROXY=off GOFLAGS= CGO_ENABLED=0 KUBE_GIT_VERSION=v$KUBE_VERSION \
     make WHAT="${targets% }")
  mkdir -p "$BIN_DIR"
  for b in "${missing[@]}"; do
    built=$(find "$work/src/_output" -type f -name "$b" -perm -u+x | head -n1)
    [ -n "$built" ] || { log "build produced no $b"; exit 1; }
    cp "$built" "$BIN_DIR/$b.tmp" && mv "$BIN_DIR/$b.tmp" "$BIN_DIR/$b"
  done
  rm -rf "$work"
fi
ln -sf "$(command -v etcd)" "$BIN_DIR/etcd"
if command -v kubectl >/dev/null; then ln -sf "$(command -v kubectl)" "$BIN_DIR/kubectl"; fi
"$BIN_DIR/kube-apiserver" --version
for b in kube-scheduler kubelet kube-controller-manager kube-proxy; do
  if [ -x "$BIN_DIR/$b" ]; then "$BIN_DIR/$b" --version; fi
done
echo "$BIN_DIR" >&3
