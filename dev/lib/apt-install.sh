# Sourced by the dev/ scripts that install what they need from apt.
#
#   apt_install TAG PACKAGE...    installs the packages (none given: nothing), quietly, everything on stderr
apt_install() {
  local tag=$1
  shift
  [ "$#" -gt 0 ] || return 0
  echo "[$tag] installing from apt: $*" >&2
  apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" >&2
}
