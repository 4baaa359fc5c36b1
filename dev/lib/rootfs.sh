# Sourced by the scripts that build a container root file system (dev/build-images.sh, dev/install-kubelet-node.sh).
#
#   rootfs_busybox ROOT BUSYBOX    BUSYBOX (a static binary) as ROOT/bin/busybox, a link for each of its commands
#   rootfs_java ROOT JAVA          JAVA (a jlink'd runtime) as ROOT/opt/java, with the shared libraries it loads at
#                                  the paths this host's loader found them (X11 and sound ones are left out: headless)
rootfs_busybox() {
  local root=$1 busybox=$2 applet
  mkdir -p "$root/bin"
  cp "$busybox" "$root/bin/busybox"
  for applet in $("$root/bin/busybox" --list); do
    [ -e "$root/bin/$applet" ] || ln -s busybox "$root/bin/$applet"
  done
}

rootfs_java() {
  local root=$1 java=$2 lib
  mkdir -p "$root/opt"
  cp -a "$java" "$root/opt/java"
  find "$root/opt/java" -type f \( -name '*.so' -o -path '*/bin/*' -o -name jspawnhelper \) -exec ldd {} \; 2>/dev/null \
    | awk '/=> \// {print $3} /^[[:space:]]+\/lib64\// {print $1}' | sort -u | while read -r lib; do
      mkdir -p "$root$(dirname "$lib")"
      cp -L "$lib" "$root$lib"
    done
}
