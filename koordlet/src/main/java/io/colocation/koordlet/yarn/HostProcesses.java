package io.colocation.koordlet.yarn;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;

/**
 * What the host's {@code /proc} says about processes and the sockets they listen on, read as the kernel writes it: the
 * only evidence a root agent accepts about who answers on a local port and whose processes it may move.
 */
public final class HostProcesses {
    /** A TCP socket in LISTEN state: its local port, whether it accepts connections to 127.0.0.1, owner and inode. */
    public record Listener(int port, boolean acceptsLoopback, long uid, long inode) {
    }

    private static final int MAX_DEPTH = 256;

    private final Path procRoot;

    public HostProcesses(Path procRoot) {
        this.procRoot = procRoot;
    }

    /** Every listening TCP socket on {@code port} in this network namespace ({@code net/tcp} and {@code net/tcp6}). */
    public List<Listener> listeners(int port) throws IOException {
        List<Listener> out = new ArrayList<>();
        for (String file : List.of("tcp", "tcp6")) {
            Path table = procRoot.resolve("net").resolve(file);
            if (!Files.exists(table)) {
                continue;
            }
            for (String line : Files.readAllLines(table)) {
                Listener l = parseListener(line);
                if (l != null && l.port() == port) {
                    out.add(l);
                }
            }
        }
        return out;
    }

    /**
     * A line of {@code /proc/net/tcp[6]} when it is a LISTEN socket ({@code st} 0A), else null. The local address is hex,
     * 32-bit words in host (little-endian) order: {@code 0100007F:1F91} is 127.0.0.1:8081.
     */
    static Listener parseListener(String line) {
        String[] f = line.trim().split("\\s+");
        if (f.length < 10 || !f[0].endsWith(":") || !"0A".equals(f[3])) {
            return null;
        }
        int colon = f[1].indexOf(':');
        if (colon < 0) {
            return null;
        }
        try {
            String address = f[1].substring(0, colon);
            int port = Integer.parseInt(f[1].substring(colon + 1), 16);
            return new Listener(port, acceptsLoopback(address), Long.parseLong(f[7]), Long.parseLong(f[9]));
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /** 0.0.0.0, 127.x.x.x, :: (dual stack), ::1, or ::ffff:127.x.x.x. */
    private static boolean acceptsLoopback(String hex) {
        if (hex.length() == 8) {
            return hex.equals("00000000") || hex.endsWith("7F");
        }
        if (hex.length() == 32) {
            return hex.equals("0".repeat(32)) || hex.equals("00000000000000000000000001000000")
                    || hex.startsWith("0000000000000000FFFF0000") && hex.endsWith("7F");
        }
        return false;
    }

    /** Whether process {@code pid} holds the socket {@code inode} among its open files. */
    public boolean holdsSocket(long pid, long inode) {
        String target = "socket:[" + inode + "]";
        try (DirectoryStream<Path> fds = Files.newDirectoryStream(procRoot.resolve(Long.toString(pid)).resolve("fd"))) {
            for (Path fd : fds) {
                try {
                    if (Files.readSymbolicLink(fd).toString().equals(target)) {
                        return true;
                    }
                } catch (IOException e) {
                    // closed meanwhile
                }
            }
        } catch (IOException e) {
            return false;
        }
        return false;
    }

    /** The real user id of a process (the {@code Uid:} line of its status), empty when it is gone. */
    public OptionalLong uid(long pid) {
        try {
            for (String line : Files.readAllLines(procRoot.resolve(Long.toString(pid)).resolve("status"))) {
                if (line.startsWith("Uid:")) {
                    return OptionalLong.of(Long.parseLong(line.substring(4).trim().split("\\s+")[0]));
                }
            }
        } catch (IOException | RuntimeException e) {
            return OptionalLong.empty();
        }
        return OptionalLong.empty();
    }

    /** The parent process id (the field after the command name in {@code stat}), empty when the process is gone. */
    public OptionalLong parent(long pid) {
        try {
            String stat = Files.readString(procRoot.resolve(Long.toString(pid)).resolve("stat"));
            // the command name is in parentheses and may hold spaces and parentheses itself
            String[] rest = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return OptionalLong.of(Long.parseLong(rest[1]));
        } catch (IOException | RuntimeException e) {
            return OptionalLong.empty();
        }
    }

    /** The process's start time in clock ticks since boot (field 22 of {@code stat}): a pid with another is another process. */
    public OptionalLong startTime(long pid) {
        try {
            String stat = Files.readString(procRoot.resolve(Long.toString(pid)).resolve("stat"));
            String[] rest = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return OptionalLong.of(Long.parseLong(rest[19]));
        } catch (IOException | RuntimeException e) {
            return OptionalLong.empty();
        }
    }

    /** Whether {@code pid} is {@code ancestor} or its parent chain reaches it. */
    public boolean descendsFrom(long pid, long ancestor) {
        long p = pid;
        for (int depth = 0; depth < MAX_DEPTH && p > 1; depth++) {
            if (p == ancestor) {
                return true;
            }
            OptionalLong parent = parent(p);
            if (parent.isEmpty()) {
                return false;
            }
            p = parent.getAsLong();
        }
        return p == ancestor;
    }

    /** A file as the process sees it ({@code /proc/<pid>/root/<path>}: its mount namespace, wherever this agent runs). */
    public Path fileOf(long pid, String absolutePath) {
        return procRoot.resolve(Long.toString(pid)).resolve("root").resolve(absolutePath.replaceFirst("^/+", ""));
    }
}
