package io.colocation.localclusters.kube;

import io.colocation.localclusters.process.Processes;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a {@link KubeletNode} leaves on the host besides its kubelet and containerd: containerd's shims, the mounts under
 * its work directory (the kubelet's root-dir bind mount, the sandboxes' shm and netns, the containers' overlays), its CNI
 * bridge and the bridge's masquerade rules, the kubelet's {@code kubepods} cgroups, and the work directory itself.
 *
 * <p>A node's close removes its own. A node killed before its close (a build timed out, a session ended) leaves them, and
 * the next node's start removes them ({@link #removeDeadNodes}) once {@link #liveKubelet} finds no kubelet on the host:
 * its netns mounts keep the old pods' veths up and its kubepods tree would otherwise refuse every later node.
 */
final class NodeTraces {
    private static final Logger LOG = LoggerFactory.getLogger(NodeTraces.class);
    private static final Path CGROUP = Path.of("/sys/fs/cgroup");
    /** The work directory of a mount made by a node: its containerd's state and root, or the kubelet's root-dir. */
    private static final Pattern NODE_MOUNT = Pattern.compile("^(/.+?)/(?:containerd/(?:state|root)|kubelet/root)(?:/.*)?$");
    private static final Pattern BRIDGE = Pattern.compile("coloc[0-9a-f]{4}");
    /** A rule of a CNI masquerade chain, whose comment names its network: {@code -A CNI-<id> ... "name: \"<bridge>\" ...}. */
    private static final Pattern CNI_RULE = Pattern.compile("^-A (CNI-[0-9a-f]+) .*name: \\\\\"([^\\\\\"]+)\\\\\"");
    private static final String CNI_CONF = "cni/conf/10-colocation.conflist";

    private final Path workDir;
    private final String bridge;

    NodeTraces(Path workDir, String bridge) {
        this.workDir = workDir;
        this.bridge = bridge;
    }

    static Path socket(Path workDir) {
        return workDir.resolve("containerd/containerd.sock");
    }

    static Path cniConf(Path workDir) {
        return workDir.resolve(CNI_CONF);
    }

    /** Removes this node's traces from the host, its work directory last. */
    void remove() {
        killShims(socket(workDir));
        unmountUnder(workDir);
        removeBridge(bridge);
        removeKubepods();
        deleteTree(workDir);
    }

    /**
     * Why the host's kubepods cgroups belong to a live kubelet (empty: there are none, or only a dead node's): a kubelet
     * process runs, or a process sits in a kubepods cgroup.
     */
    static Optional<String> liveKubelet() {
        Optional<ProcessHandle> kubelet = ProcessHandle.allProcesses()
                .filter(p -> p.info().command().map(c -> Path.of(c).getFileName().toString().equals("kubelet")).orElse(false))
                .findFirst();
        if (kubelet.isPresent()) {
            return Optional.of("a kubelet runs on this host (pid " + kubelet.get().pid() + ")");
        }
        for (Path kubepods : kubepodsTrees()) {
            long held = processesIn(kubepods);
            if (held > 0) {
                return Optional.of(held + " processes sit in " + kubepods + " (another kubelet's pods)");
            }
        }
        return Optional.empty();
    }

    /**
     * Removes what nodes killed before their close left on the host, and says what that was (empty: nothing). Only when
     * {@link #liveKubelet} is empty: then every kubepods cgroup, every node work directory still mounted and every
     * {@code colocN} bridge belongs to a node whose processes are gone.
     */
    static List<String> removeDeadNodes() {
        Optional<String> live = liveKubelet();
        if (live.isPresent()) {
            throw new IllegalStateException("a live kubelet's traces are not removed: " + live.get());
        }
        List<String> removed = new ArrayList<>();
        for (Path dir : mountedWorkDirs()) {
            Optional<String> bridge = bridgeOf(dir);
            new NodeTraces(dir, bridge.orElse(null)).remove();
            removed.add("the node in " + dir + bridge.map(b -> " (bridge " + b + ")").orElse(""));
        }
        for (String bridge : bridges()) {
            removeBridge(bridge);
            removed.add("bridge " + bridge);
        }
        // chains whose bridge is gone (the pods' teardown removed POSTROUTING's jump but not the chain), and the empty
        // ones it left (iptables refuses to delete a chain still jumped to)
        removeMasquerade(name -> BRIDGE.matcher(name).matches());
        List<String> nat = Processes.output(List.of("iptables-save", "-t", "nat"), 30);
        nat.stream().filter(l -> l.startsWith(":CNI-")).map(l -> l.substring(1, l.indexOf(' ')))
                .filter(chain -> nat.stream().noneMatch(l -> l.startsWith("-A " + chain + " ")))
                .forEach(chain -> Processes.run(List.of("iptables", "-t", "nat", "-X", chain), 10));
        List<Path> trees = kubepodsTrees();
        if (!trees.isEmpty()) {
            removeKubepods();
            removed.add("cgroups " + trees);
        }
        return removed;
    }

    /** containerd's shims outlive it; a node's are those started with its socket. */
    private static void killShims(Path socket) {
        ProcessHandle.allProcesses()
                .filter(p -> p.info().commandLine().map(c -> c.contains("containerd-shim") && c.contains(socket.toString())).orElse(false))
                .forEach(p -> {
                    p.destroyForcibly();
                    p.onExit().orTimeout(5, TimeUnit.SECONDS).exceptionally(t -> null).join();
                });
    }

    /** The mounts at or under {@code dir}, deepest first. */
    private static void unmountUnder(Path dir) {
        try {
            String root = dir.toRealPath().toString();
            List<String> mounts = mountPoints().stream().filter(m -> m.equals(root) || m.startsWith(root + "/"))
                    .sorted(Comparator.reverseOrder()).toList();
            for (String m : mounts) {
                Processes.run(List.of("umount", "-l", m), 10);
            }
        } catch (IOException e) {
            LOG.warn("could not read the mounts under {}: {}", dir, e.toString());
        }
    }

    /** A bridge and its masquerade rules. */
    private static void removeBridge(String bridge) {
        if (bridge != null) {
            Processes.run(List.of("ip", "link", "delete", bridge), 10);
            removeMasquerade(bridge::equals);
        }
    }

    /**
     * The pods' masquerade chains (ipMasq: pods reach the host's network, its DNS among it) of the bridges named, and
     * POSTROUTING's jumps to them, that a pod's network teardown did not remove (a pod whose kubelet was killed): the
     * bridge plugin names each chain's network, that is its bridge, in the chain's rules' comments.
     */
    private static void removeMasquerade(Predicate<String> bridges) {
        List<String> nat = Processes.output(List.of("iptables-save", "-t", "nat"), 30);
        Set<String> chains = new LinkedHashSet<>();
        for (String rule : nat) {
            Matcher m = CNI_RULE.matcher(rule);
            if (m.find() && bridges.test(m.group(2))) {
                chains.add(m.group(1));
            }
        }
        for (String rule : nat) {
            if (rule.startsWith("-A POSTROUTING ") && chains.stream().anyMatch(c -> rule.endsWith(" -j " + c))) {
                Processes.run(List.of("sh", "-c", "iptables -t nat " + rule.replaceFirst("^-A", "-D")), 10);
            }
        }
        for (String chain : chains) {
            Processes.run(List.of("iptables", "-t", "nat", "-F", chain), 10);
            Processes.run(List.of("iptables", "-t", "nat", "-X", chain), 10);
        }
    }

    /** The kubelet's kubepods cgroups in every hierarchy, deepest first. */
    private static void removeKubepods() {
        for (Path kubepods : kubepodsTrees()) {
            deleteTree(kubepods);
        }
    }

    /** In each v1 hierarchy, or at the root of a v2 mount. */
    private static List<Path> kubepodsTrees() {
        List<Path> trees = new ArrayList<>();
        try (Stream<Path> hierarchies = Files.list(CGROUP)) {
            for (Path h : Stream.concat(Stream.of(CGROUP), hierarchies.filter(Files::isDirectory)).toList()) {
                for (String name : List.of("kubepods", "kubepods.slice")) {
                    if (Files.isDirectory(h.resolve(name))) {
                        trees.add(h.resolve(name));
                    }
                }
            }
        } catch (IOException e) {
            LOG.warn("could not list {}: {}", CGROUP, e.toString());
        }
        return trees;
    }

    private static long processesIn(Path tree) {
        try (Stream<Path> files = Files.walk(tree)) {
            return files.filter(f -> f.getFileName().toString().equals("cgroup.procs")).mapToLong(f -> {
                try {
                    return Files.readAllLines(f).stream().filter(l -> !l.isBlank()).count();
                } catch (IOException e) {
                    return 0;
                }
            }).sum();
        } catch (IOException e) {
            return 0;
        }
    }

    /** Work directories of nodes with mounts on the host: those whose containerd config names the node image. */
    private static Set<Path> mountedWorkDirs() {
        Set<Path> dirs = new LinkedHashSet<>();
        for (String m : mountPoints()) {
            Matcher matcher = NODE_MOUNT.matcher(m);
            if (matcher.matches()) {
                Path dir = Path.of(matcher.group(1));
                try {
                    if (Files.readString(dir.resolve("containerd/config.toml")).contains(KubeletNode.IMAGE)) {
                        dirs.add(dir);
                    }
                } catch (IOException e) {
                    // not a node's work directory
                }
            }
        }
        return dirs;
    }

    private static Optional<String> bridgeOf(Path workDir) {
        try {
            Matcher m = BRIDGE.matcher(Files.readString(cniConf(workDir)));
            return m.find() ? Optional.of(m.group()) : Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    private static List<String> bridges() {
        return Processes.output(List.of("ip", "-o", "link", "show", "type", "bridge"), 10).stream()
                .map(l -> l.split(":\\s*", 3))
                .filter(f -> f.length >= 2 && BRIDGE.matcher(f[1]).matches())
                .map(f -> f[1]).toList();
    }

    private static List<String> mountPoints() {
        try {
            return Files.readAllLines(Path.of("/proc/self/mounts")).stream().map(l -> l.split(" ")[1]).toList();
        } catch (IOException e) {
            LOG.warn("could not read /proc/self/mounts: {}", e.toString());
            return List.of();
        }
    }

    private static void deleteTree(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            LOG.warn("could not delete {}: {}", dir, e.toString());
        }
    }
}
