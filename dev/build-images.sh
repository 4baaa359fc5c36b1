#!/usr/bin/env bash
# The product's OCI images, built offline (no registry, no daemon) from the distribution, as OCI image archives:
#   colocation            the broker, the k8s-scheduler and the koordlet: bin/colocation as entrypoint, a jlink'd Java 17,
#                         the distribution without the sandbox's and the simulator's jars; user 65532 (the koordlet's pod
#                         runs it as root, for the cgroups)
#   colocation-nodemanager a YARN NodeManager (Hadoop 3.4.2's jars from Maven Central) carrying the copilot, started
#                         without Hadoop's shell scripts, yarn-site.xml from /etc/hadoop (a ConfigMap); user yarn (10001)
# Each is target/images/<name>-<version>.oci.tar, tagged <version> (the project's), with OCI labels (source, version,
# licenses, revision), and reproducible: the same inputs give the same digest (file times are the commit's,
# SOURCE_DATE_EPOCH overrides). Push one with skopeo (see the README):
#   skopeo copy oci-archive:target/images/colocation-0.1.0-SNAPSHOT.oci.tar docker://registry.example.com/colocation:0.1.0-SNAPSHOT
#
#   dev/build-images.sh            # builds the distribution first when it is missing; prints target/images on stdout
#   dev/build-images.sh --check    # builds each image twice and fails unless the digests match
#
# Stdout holds only the images' directory (as dev/install-*.sh): the rest goes to stderr.
set -euo pipefail
exec 3>&1 1>&2
self=$(readlink -f "$0")
cd "$(dirname "$self")/.."
. dev/lib/apt-install.sh
. dev/lib/rootfs.sh
log() { echo "[build-images] $*" >&2; }
check=false
for arg in "$@"; do
  case "$arg" in
    --check) check=true ;;
    *) log "unknown argument: $arg (known: --check)"; exit 2 ;;
  esac
done

DIST=dist/target/colocation
MR_LIB=local-clusters/mapreduce-classpath/target/lib-3.4.2
if [ ! -x "$DIST/bin/colocation" ] || [ ! -d "$MR_LIB" ]; then
  log "building the distribution (mvn -DskipTests package)"
  mvn -B -q -DskipTests package -pl dist,local-clusters/mapreduce-classpath -am
fi
VERSION=$(tr -d '[:space:]' < "$DIST/VERSION")
EPOCH=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || echo 0)}
REVISION=$(git rev-parse HEAD 2>/dev/null || echo unknown)
SOURCE=${IMAGE_SOURCE:-https://github.com/colocation/yarn-kubernetes-colocation}
LICENSES=${IMAGE_LICENSES:-Apache-2.0}

need_apt=()
command -v umoci >/dev/null || need_apt+=(umoci)
JDK=/usr/lib/jvm/java-17-openjdk-amd64
[ -d "$JDK/jmods" ] || need_apt+=(openjdk-17-jdk-headless)
apt_install build-images "${need_apt[@]}"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Static busybox and bash from Debian (downloaded, not installed): the launcher is a bash script, and YARN's
# container launch scripts are too.
(cd "$work" && { apt-get download busybox-static bash-static || { apt-get update -qq && apt-get download busybox-static bash-static; }; }) \
  || { log "apt-get download busybox-static bash-static failed"; exit 1; }
for deb in "$work"/busybox-static_*.deb "$work"/bash-static_*.deb; do dpkg-deb -x "$deb" "$work/static"; done
# The modules the parts use (jdk.httpserver: the copilot's HTTP server, in the NodeManager).
"$JDK/bin/jlink" --add-modules java.se,jdk.unsupported,jdk.crypto.ec,jdk.zipfs,jdk.management,jdk.security.auth,jdk.security.jgss,jdk.naming.dns,jdk.httpserver \
  --strip-debug --no-man-pages --no-header-files --compress=2 --output "$work/java"

# A root file system both images share: busybox's commands, bash, the Java runtime and the libraries it loads.
base() {
  local root=$1
  mkdir -p "$root/bin" "$root/usr/bin" "$root/opt" "$root/etc" "$root/tmp"
  chmod 1777 "$root/tmp"
  rootfs_busybox "$root" "$work/static/bin/busybox"
  ln -sf /bin/busybox "$root/usr/bin/env"
  cp "$work/static/bin/bash-static" "$root/bin/bash"
  rootfs_java "$root" "$work/java"
  printf 'root:x:0:0:root:/root:/bin/sh\nnonroot:x:65532:65532:nonroot:/home/nonroot:/bin/sh\nyarn:x:10001:10001:yarn:/home/yarn:/bin/sh\n' > "$root/etc/passwd"
  printf 'root:x:0:\nnonroot:x:65532:\nyarn:x:10001:\n' > "$root/etc/group"
  mkdir -p "$root/home/nonroot" "$root/home/yarn" "$root/root"
  chown 65532:65532 "$root/home/nonroot"
  chown 10001:10001 "$root/home/yarn"
}

# Packs a root file system into an OCI image archive; the rest of the arguments are `umoci config` options.
pack() {
  local name=$1 root=$2 out=$3
  shift 3
  local layout=$work/layout-$name
  find "$root" -exec touch -h -d "@$EPOCH" {} +
  umoci init --layout "$layout"
  umoci new --image "$layout:$VERSION"
  umoci unpack --image "$layout:$VERSION" "$work/bundle-$name" >/dev/null
  rm -rf "$work/bundle-$name/rootfs"
  mv "$root" "$work/bundle-$name/rootfs"
  local created
  created=$(date -u -d "@$EPOCH" +%Y-%m-%dT%H:%M:%SZ)
  umoci repack --history.created "$created" --history.created_by "dev/build-images.sh" --image "$layout:$VERSION" "$work/bundle-$name"
  umoci config --no-history --image "$layout:$VERSION" --created "$created" --author "colocation" \
    --config.env PATH=/opt/java/bin:/bin:/usr/bin --config.env JAVA_HOME=/opt/java \
    --config.label "org.opencontainers.image.source=$SOURCE" --config.label "org.opencontainers.image.version=$VERSION" \
    --config.label "org.opencontainers.image.licenses=$LICENSES" --config.label "org.opencontainers.image.revision=$REVISION" \
    --config.label "org.opencontainers.image.title=$name" --config.label "org.opencontainers.image.created=$created" "$@"
  umoci gc --layout "$layout"
  rm -rf "$work/bundle-$name"
  # an archive of the layout whose bytes depend on its content alone
  (cd "$layout" && find . -exec touch -h -d "@$EPOCH" {} + && tar --sort=name --mtime="@$EPOCH" --owner=0 --group=0 --numeric-owner \
    --format=gnu -cf "$out.tmp" .)
  mv "$out.tmp" "$out"
  rm -rf "$layout"
}

build() {
  local out_dir=$1
  mkdir -p "$out_dir"
  # colocation: the control plane and the node agent
  local root=$work/root-colocation
  base "$root"
  mkdir -p "$root/opt/colocation/lib"
  cp -a "$DIST/bin" "$DIST/conf" "$DIST/VERSION" "$root/opt/colocation/"
  find "$DIST/lib" -maxdepth 1 -type f -name '*.jar' -exec cp {} "$root/opt/colocation/lib/" \;
  pack colocation "$root" "$out_dir/colocation-$VERSION.oci.tar" \
    --config.user 65532:65532 --config.workingdir /opt/colocation --config.entrypoint /opt/colocation/bin/colocation --config.cmd help

  # colocation-nodemanager: Hadoop 3.4.2's NodeManager with the copilot
  root=$work/root-nodemanager
  base "$root"
  mkdir -p "$root/opt/hadoop/lib" "$root/etc/hadoop" "$root/var/lib/hadoop-yarn"
  cp "$MR_LIB"/*.jar "$root/opt/hadoop/lib/"
  cp "$DIST"/hadoop/*.jar "$root/opt/hadoop/lib/"
  chown 10001:10001 "$root/var/lib/hadoop-yarn"
  # Hadoop 3.4 on Java 17 needs packages of java.base opened (Guice's cglib in the NodeManager's web app and in
  # MapReduce's application master): in JDK_JAVA_OPTIONS, so the containers it launches (its environment) have them too.
  local opens=""
  for pkg in java.lang java.lang.reflect java.io java.net java.nio java.util java.util.concurrent sun.nio.ch; do
    opens+="${opens:+ }--add-opens=java.base/$pkg=ALL-UNNAMED"
  done
  pack colocation-nodemanager "$root" "$out_dir/colocation-nodemanager-$VERSION.oci.tar" \
    --config.env "JDK_JAVA_OPTIONS=$opens" \
    --config.user 10001:10001 --config.workingdir /var/lib/hadoop-yarn \
    --config.entrypoint /opt/java/bin/java --config.entrypoint -cp --config.entrypoint '/etc/hadoop:/opt/hadoop/lib/*' \
    --config.entrypoint org.apache.hadoop.yarn.server.nodemanager.NodeManager
}

out=$PWD/target/images
rm -rf "$out"
build "$out"
digest() { tar -xOf "$1" ./index.json | sha256sum | cut -c1-64; }
if $check; then
  build "$work/again"
  for image in "$out"/*.oci.tar; do
    if [ "$(digest "$image")" != "$(digest "$work/again/$(basename "$image")")" ]; then
      log "$(basename "$image") is not reproducible: a second build gave another digest"
      exit 1
    fi
  done
  log "reproducible: a second build gave the same digests"
fi
for image in "$out"/*.oci.tar; do
  log "$(basename "$image"): $(du -m "$image" | cut -f1) MiB, index $(digest "$image" | cut -c1-12)"
done
readlink -f "$out" >&3
