#!/usr/bin/env bash
# The install scripts' cold path, as a fresh machine meets it, for what is cheap to rebuild: the node image built from
# scratch into an empty cache (about 10 s; the kube binaries, minutes to build, are linked from the warm cache), and the
# stdout protocol every caller relies on (one line: the installed directory). Run by dev/test-all.sh; a first-run-only
# failure of that kind (jlink's warning on stdout made the path two lines) cannot land again.
# Usage: dev/test-install-scripts.sh WARM_KUBE_BIN   (the directory dev/install-kubelet-node.sh printed)
set -euo pipefail
cd "$(dirname "$0")/.."
. dev/lib/installed-dir.sh
warm=${1:?usage: dev/test-install-scripts.sh WARM_KUBE_BIN}
fail() { echo "test-install-scripts: $*" >&2; exit 1; }

# installed_dir itself refuses what is not one existing directory, naming the script
for bad in 'echo WARNING: Using incubator modules; echo /' 'echo' 'echo /nonexistent-dir' 'echo relative' 'echo /; exit 3'; do
  if msg=$(installed_dir bash -c "$bad" 2>&1 >/dev/null); then
    fail "installed_dir accepted the output of: $bad"
  fi
  case "$msg" in *bash*) ;; *) fail "installed_dir's refusal does not name the script: $msg" ;; esac
done

cold=$(mktemp -d)
trap 'rm -rf "$cold"' EXIT
mkdir -p "$cold/kube-1.20.2/bin"
for b in kube-apiserver kubelet kube-scheduler kube-controller-manager kube-proxy; do
  if [ -x "$warm/$b" ]; then ln -s "$(readlink -f "$warm/$b")" "$cold/kube-1.20.2/bin/$b"; fi
done
start=$(date +%s)
for script in dev/install-kube-apiserver.sh dev/install-kubelet-node.sh; do
  out=$(COLOCATION_CACHE=$cold "$script" 2>"$cold/stderr") || { cat "$cold/stderr" >&2; fail "$script failed"; }
  if [ "$out" != "$cold/kube-1.20.2/bin" ]; then
    tail -n 20 "$cold/stderr" >&2
    fail "$script printed on stdout $(printf '%q' "$out") where only $cold/kube-1.20.2/bin was expected"
  fi
done
images=$(find "$cold/node-image" -name node-base.tar | wc -l)
[ "$images" -eq 1 ] || fail "the node image was not built into the empty cache ($images found)"
[ -e "$cold/kube-1.20.2/bin/node-base.tar" ] || fail "node-base.tar is not in the printed directory"
tar -tf "$cold/kube-1.20.2/bin/node-base.tar" | grep -x "./index.json" >/dev/null || fail "node-base.tar is not an OCI layout"
echo "test-install-scripts: passed (node image built cold in $(( $(date +%s) - start )) s; stdout protocol held)"
