#!/usr/bin/env bash
# The sandbox scenario as CI runs it: the distribution's `colocation sandbox` with 2 nodes and a short scenario must
# exit 0 (its invariants held: no overcommit under partitioned, the MapReduce job succeeded, Batch used by both sides,
# at least one preemption, every batch pod ran, the idle team's pods placed once they came (its quota's min back), the Spark applications on YARN and, on the real node, on Kubernetes
# succeeded with an executor pod evicted, the first node a real kubelet where the host allows it) and leave
# nothing behind (no process, work directory, cgroup or port of its own).
# Usage: dev/test-sandbox.sh   (after the build; COLOCATION_KUBE_BIN set or the kube binaries cached)
set -euo pipefail
cd "$(dirname "$0")/.."
summary=$(mktemp --suffix=.json)
before=$(find /tmp -maxdepth 1 -name 'colocation-sandbox-*' | wc -l)
# the real node's kubelet (or, without it, the sandbox) makes kubepods on this host's cgroups; both remove it
kubepods_before=$(find /sys/fs/cgroup -maxdepth 2 -name kubepods 2>/dev/null | wc -l)
status=0
dist/target/colocation/bin/colocation sandbox --nodes 2 --duration 100s --summary-json "$summary" || status=$?
cat "$summary" 2>/dev/null || true
real_node=$(grep -o '"realNode" : "sandbox-node-1 ' "$summary" 2>/dev/null || true)
rm -f "$summary"
if [ "$status" -ne 0 ]; then
  echo "test-sandbox: colocation sandbox exited with $status" >&2
  exit 1
fi
# as root with the real node installed (dev/test-all.sh does it), the first node must have been a real kubelet
if [ "$(id -u)" -eq 0 ] && [ -e "${COLOCATION_KUBE_BIN:-/nonexistent}/node-base.tar" ] && [ -z "$real_node" ]; then
  echo "test-sandbox: this host can run a real node, but sandbox-node-1 was simulated" >&2
  exit 1
fi
sleep 2
left=$(pgrep -f 'colocation-sandbox-|io.colocation.sandbox.SandboxCommand' || true)
if [ -n "$left" ]; then
  echo "test-sandbox: processes left behind: $left" >&2
  ps -o pid,args -p "$(echo "$left" | paste -sd,)" >&2 || true
  exit 1
fi
after=$(find /tmp -maxdepth 1 -name 'colocation-sandbox-*' | wc -l)
if [ "$after" -gt "$before" ]; then
  echo "test-sandbox: a work directory was left in /tmp" >&2
  exit 1
fi
if [ "$(find /sys/fs/cgroup -maxdepth 2 -name kubepods 2>/dev/null | wc -l)" -gt "$kubepods_before" ]; then
  echo "test-sandbox: a kubepods cgroup was left behind" >&2
  exit 1
fi
echo "test-sandbox: passed, nothing left behind"
