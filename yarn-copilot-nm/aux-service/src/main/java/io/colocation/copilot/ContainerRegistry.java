package io.colocation.copilot;

import java.util.Collections;
import java.util.Iterator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Every YARN container on this NodeManager: registered from the aux-service callbacks, brought up to
 * date from the executor's pid and exit-code files and {@code /proc} on each {@link #refresh()}, and
 * written to the recovery file (when the NodeManager runs with recovery) on every change of state, so
 * a restarted NodeManager's copilot knows the containers that survived it.
 */
final class ContainerRegistry {
    private static final Logger LOG = LoggerFactory.getLogger(ContainerRegistry.class);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Map<String, TrackedContainer> containers = new LinkedHashMap<>();
    private final ContainerFiles files;
    private final Path proc;
    private final long finishedRetentionMs;
    private final Clock clock;
    private final NodeManagerExitCodes recordedExitCodes;
    private final Map<String, Path> pidFiles = new java.util.HashMap<>();
    private ExitCodeWatcher exitCodes;
    private Path recoveryFile;

    ContainerRegistry(ContainerFiles files, Path proc, long finishedRetentionMs, Clock clock, NodeManagerExitCodes recordedExitCodes) {
        this.files = files;
        this.proc = proc;
        this.finishedRetentionMs = finishedRetentionMs;
        this.clock = clock;
        this.recordedExitCodes = recordedExitCodes;
    }

    /** Exit codes are caught as the executor writes them from now on. */
    synchronized void watchExitCodes(ExitCodeWatcher watcher) {
        this.exitCodes = watcher;
    }

    synchronized void recordExitCode(String containerId, int exitCode) {
        TrackedContainer c = containers.get(containerId);
        if (c != null && c.exitStatus == null) {
            c.exitStatus = exitCode;
            LOG.info("container {} exited with {}", containerId, exitCode);
            persist();
        }
    }

    synchronized void add(TrackedContainer container) {
        containers.put(container.containerId, container);
        LOG.info("tracking container {} of {} ({}; {} vcores, {} MiB)", container.containerId, container.applicationId,
                container.applicationMaster ? "ApplicationMaster" : "task", container.vcores, container.memoryMB);
        persist();
    }

    synchronized void markDone(String containerId) {
        TrackedContainer c = containers.get(containerId);
        if (c == null) {
            return;
        }
        String from = "the executor's exit-code file";
        if (c.exitStatus == null) {
            // the NodeManager's own record first: by now the exit-code file may be cleaned up
            Optional<Integer> recorded = recordedExitCodes.recorded(containerId);
            if (recorded.isPresent()) {
                c.exitStatus = recorded.get();
                from = "the NodeManager's record";
            } else {
                c.exitStatus = exitCode(c).orElse(null);
            }
        }
        c.state = TrackedContainer.State.DONE;
        c.finishedAt = clock.millis();
        c.pids = Collections.emptyList();
        if (c.exitStatus == null) {
            LOG.info("container {} done (exit status unknown: neither the NodeManager's record nor the exit-code file had it)", containerId);
        } else {
            LOG.info("container {} done (exit status {}, from {})", containerId, c.exitStatus, from);
        }
        persist();
    }

    /** Reads pid files, exit codes and /proc; forgets finished containers after the retention time. */
    void refresh() {
        ProcessTable table = ProcessTable.read(proc);
        synchronized (this) {
            boolean changed = false;
            long now = clock.millis();
            Iterator<TrackedContainer> it = containers.values().iterator();
            while (it.hasNext()) {
                TrackedContainer c = it.next();
                if (c.state == TrackedContainer.State.DONE) {
                    if (now - c.finishedAt > finishedRetentionMs) {
                        it.remove();
                        pidFiles.remove(c.containerId);
                        if (exitCodes != null) {
                            exitCodes.forget(c.containerId);
                        }
                        changed = true;
                    }
                    continue;
                }
                // Also for containers recovered with their pid: the exit code appears next to the pid file.
                if (!pidFiles.containsKey(c.containerId)) {
                    Path pidFile = files.pidFile(c.applicationId, c.containerId).orElse(null);
                    if (pidFile != null) {
                        pidFiles.put(c.containerId, pidFile);
                        if (exitCodes != null) {
                            exitCodes.watch(c.containerId, pidFile);
                        }
                    }
                }
                if (c.pid == null) {
                    Path pidFile = pidFiles.get(c.containerId);
                    if (pidFile != null) {
                        c.pid = ContainerFiles.readInt(pidFile).orElse(null);
                        changed |= c.pid != null;
                    }
                }
                if (c.pid == null) {
                    continue;
                }
                List<Integer> tree = table.treeOf(c.pid);
                if (!tree.isEmpty()) {
                    c.pids = tree;
                    if (c.state != TrackedContainer.State.RUNNING) {
                        c.state = TrackedContainer.State.RUNNING;
                        changed = true;
                    }
                } else if (c.state != TrackedContainer.State.EXITED) {
                    c.state = TrackedContainer.State.EXITED;
                    c.pids = Collections.emptyList();
                    if (c.exitStatus == null) {
                        c.exitStatus = exitCode(c).orElse(null);
                    }
                    changed = true;
                } else if (c.exitStatus == null) {
                    c.exitStatus = exitCode(c).orElse(null);
                    changed |= c.exitStatus != null;
                }
            }
            if (changed) {
                persist();
            }
        }
    }

    private Optional<Integer> exitCode(TrackedContainer c) {
        Path pidFile = pidFiles.get(c.containerId);
        return pidFile == null ? Optional.empty() : ContainerFiles.readInt(ExitCodeWatcher.exitCodeFile(pidFile));
    }

    synchronized Optional<TrackedContainer> get(String containerId) {
        return Optional.ofNullable(containers.get(containerId));
    }

    synchronized List<TrackedContainer> all() {
        return new ArrayList<>(containers.values());
    }

    synchronized int size() {
        return containers.size();
    }

    /** Restores the registry from {@code file} (if present) and keeps it there from now on. */
    synchronized void recoverFrom(Path file) throws IOException {
        this.recoveryFile = file;
        if (!Files.exists(file)) {
            return;
        }
        JsonNode root = JSON.readTree(file.toFile());
        for (JsonNode n : root) {
            TrackedContainer c = new TrackedContainer(n.path("containerId").asText(), n.path("applicationId").asText(),
                    n.path("user").asText(), n.path("vcores").asInt(), n.path("memoryMB").asLong(),
                    n.path("applicationMaster").asBoolean(), n.path("startTime").asLong());
            c.state = TrackedContainer.State.valueOf(n.path("state").asText("NEW"));
            c.pid = n.hasNonNull("pid") ? n.get("pid").asInt() : null;
            c.exitStatus = n.hasNonNull("exitStatus") ? n.get("exitStatus").asInt() : null;
            c.finishedAt = n.path("finishedAt").asLong();
            containers.putIfAbsent(c.containerId, c);
        }
        LOG.info("recovered {} containers from {}", containers.size(), file);
    }

    /** Writes the registry atomically; a failure is logged, never thrown into the NodeManager. */
    private void persist() {
        if (recoveryFile == null) {
            return;
        }
        ArrayNode array = JSON.createArrayNode();
        for (TrackedContainer c : containers.values()) {
            ObjectNode n = array.addObject();
            n.put("containerId", c.containerId);
            n.put("applicationId", c.applicationId);
            n.put("user", c.user);
            n.put("vcores", c.vcores);
            n.put("memoryMB", c.memoryMB);
            n.put("applicationMaster", c.applicationMaster);
            n.put("startTime", c.startTime);
            n.put("state", c.state.name());
            n.put("pid", c.pid);
            n.put("exitStatus", c.exitStatus);
            n.put("finishedAt", c.finishedAt);
        }
        try {
            Files.createDirectories(recoveryFile.getParent());
            Path tmp = recoveryFile.resolveSibling(recoveryFile.getFileName() + ".tmp");
            JSON.writeValue(tmp.toFile(), array);
            try {
                Files.move(tmp, recoveryFile, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, recoveryFile, StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException e) {
            LOG.warn("cannot write the copilot recovery file {}: {}", recoveryFile, e.toString());
        }
    }
}
