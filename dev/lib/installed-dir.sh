# Sourced by the dev/ scripts that run an install script (dev/install-*.sh) for the directory it installed into.
# The install scripts' stdout protocol: one line, the absolute path of an existing directory, and nothing else (all
# their progress, and whatever the tools they run print, goes to stderr).
#
#   COLOCATION_KUBE_BIN=$(installed_dir dev/install-kubelet-node.sh)
installed_dir() {
  local out status=0
  out=$("$@") || status=$?
  if [ "$status" -ne 0 ]; then
    echo "$1 failed (exit status $status); its messages are above" >&2
    return 1
  fi
  if [ -z "$out" ] || [ "$(printf '%s\n' "$out" | wc -l)" -ne 1 ] || [ "${out#/}" = "$out" ] || [ ! -d "$out" ]; then
    echo "$1 printed on stdout what is not one existing directory (its stdout must hold only the installed" \
      "directory's absolute path):" >&2
    printf '%s\n' "$out" | head -n 20 | sed 's/^/  | /' >&2
    return 1
  fi
  printf '%s\n' "$out"
}
