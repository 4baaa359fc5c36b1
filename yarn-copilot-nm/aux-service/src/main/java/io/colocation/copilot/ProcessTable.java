package io.colocation.copilot;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * A snapshot of the host's processes from {@code /proc/<pid>/stat}: parent and session of each. A
 * container's processes are its root process, every descendant, and every process left in the root's
 * session (a child that double-forked away from its parent stays in the session the NodeManager's
 * executor created with setsid).
 */
final class ProcessTable {
    /** Parent, session and start time (clock ticks after boot: with the pid, a process's identity). */
    private static final class Stat {
        private final int ppid;
        private final int session;
        private final long startTime;

        Stat(int ppid, int session, long startTime) {
            this.ppid = ppid;
            this.session = session;
            this.startTime = startTime;
        }
    }

    private final Map<Integer, Stat> stats;

    private ProcessTable(Map<Integer, Stat> stats) {
        this.stats = stats;
    }

    static ProcessTable read(Path proc) {
        Map<Integer, Stat> stats = new HashMap<>();
        try (DirectoryStream<Path> dirs = Files.newDirectoryStream(proc, p -> p.getFileName().toString().chars().allMatch(Character::isDigit))) {
            for (Path dir : dirs) {
                Stat stat = parse(dir.resolve("stat"));
                if (stat != null) {
                    stats.put(Integer.parseInt(dir.getFileName().toString()), stat);
                }
            }
        } catch (IOException e) {
            // no /proc (not Linux) or unreadable: an empty table, nothing is attributed to containers
        }
        return new ProcessTable(stats);
    }

    /**
     * {@code pid (comm) state ppid pgrp session ... starttime(22nd) ...}; comm may hold spaces and
     * parentheses. A zombie has ended: null, as a process that is gone.
     */
    private static Stat parse(Path statFile) {
        try {
            String line = new String(Files.readAllBytes(statFile), StandardCharsets.UTF_8);
            int close = line.lastIndexOf(')');
            if (close < 0) {
                return null;
            }
            String[] fields = line.substring(close + 2).trim().split("\\s+");
            if ("Z".equals(fields[0]) || "X".equals(fields[0])) {
                return null;
            }
            return new Stat(Integer.parseInt(fields[1]), Integer.parseInt(fields[3]), Long.parseLong(fields[19]));
        } catch (IOException | RuntimeException e) {
            return null; // the process ended while we read, or the line is not what we expect
        }
    }

    /** The start time of a running {@code pid} under {@code proc}, -1 when it is not running. */
    static long startTime(Path proc, int pid) {
        Stat stat = parse(proc.resolve(Integer.toString(pid)).resolve("stat"));
        return stat == null ? -1 : stat.startTime;
    }

    /** The parent of a running {@code pid} under {@code proc}, 0 when it is not running (or is init). */
    static int parentOf(Path proc, int pid) {
        Stat stat = parse(proc.resolve(Integer.toString(pid)).resolve("stat"));
        return stat == null ? 0 : stat.ppid;
    }

    boolean isAlive(int pid) {
        return stats.containsKey(pid);
    }

    /** The start time of {@code pid} in this snapshot, -1 when it was not running. */
    long startTime(int pid) {
        Stat stat = stats.get(pid);
        return stat == null ? -1 : stat.startTime;
    }

    /** The container tree of {@code root}, root first; empty if root is not running. */
    List<Integer> treeOf(int root) {
        if (!stats.containsKey(root)) {
            return Collections.emptyList();
        }
        Map<Integer, List<Integer>> children = new HashMap<>();
        TreeSet<Integer> members = new TreeSet<>();
        stats.forEach((pid, stat) -> {
            children.computeIfAbsent(stat.ppid, k -> new ArrayList<>()).add(pid);
            if (stat.session == root) {
                members.add(pid);
            }
        });
        members.add(root);
        Deque<Integer> queue = new ArrayDeque<>(members);
        while (!queue.isEmpty()) {
            for (int child : children.getOrDefault(queue.poll(), Collections.<Integer>emptyList())) {
                if (members.add(child)) {
                    queue.add(child);
                }
            }
        }
        members.remove(root);
        List<Integer> out = new ArrayList<>(members.size() + 1);
        out.add(root);
        out.addAll(members);
        return out;
    }
}
