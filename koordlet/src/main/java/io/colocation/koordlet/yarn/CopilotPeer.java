package io.colocation.koordlet.yarn;

import io.colocation.copilot.api.PluginInfo;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;

/**
 * Decides whether the process answering on the copilot's loopback port is a NodeManager this agent may trust with its
 * token and whose processes it may move. The port is unprivileged: while no NodeManager holds it, any local user can
 * answer there. So the copilot's own claim ({@code /information}: its pid and token file) is checked against the kernel:
 * every socket listening on the port is owned by an allowed user (root, or the NodeManager's user), the claimed process
 * holds one of them and runs as that user, and the token is read through that process's own file system view
 * ({@code /proc/<pid>/root}) from a regular file owned by that user. Only then is the token sent.
 */
final class CopilotPeer {
    static final long ROOT = 0;
    private static final int MAX_TOKEN_BYTES = 4096;

    /** A verified peer: the NodeManager's pid and start time, its uid, the socket it listens on, and the token to send. */
    record Verified(long pid, long startTime, long uid, long inode, String token, String tokenSource) {
    }

    private final HostProcesses processes;
    private final Set<Long> allowedUids;

    CopilotPeer(HostProcesses processes, Set<Long> allowedUids) {
        this.processes = processes;
        this.allowedUids = allowedUids;
    }

    /** Root, and each user named (a uid, or a name looked up in {@code passwd}; a name not found there is skipped). */
    static Set<Long> allowedUids(List<String> users, Path passwd) {
        Set<Long> out = new LinkedHashSet<>();
        out.add(ROOT);
        for (String u : users == null ? List.<String>of() : users) {
            String user = u.trim();
            if (user.matches("\\d{1,10}")) {
                out.add(Long.parseLong(user));
                continue;
            }
            try {
                for (String line : Files.readAllLines(passwd)) {
                    String[] f = line.split(":");
                    if (f.length > 2 && f[0].equals(user) && f[2].matches("\\d{1,10}")) {
                        out.add(Long.parseLong(f[2]));
                    }
                }
            } catch (IOException e) {
                // no passwd here (a minimal container image): only uids given as numbers count
            }
        }
        return out;
    }

    Set<Long> allowedUids() {
        return allowedUids;
    }

    Verified verify(int port, PluginInfo info, String configuredTokenFile) throws CopilotClient.PeerRefused, IOException {
        if (info.pid() == null || info.pid() <= 1) {
            throw new CopilotClient.PeerRefused("/information names no NodeManager pid (not this project's copilot?)");
        }
        long pid = info.pid();
        List<HostProcesses.Listener> listeners = processes.listeners(port).stream()
                .filter(HostProcesses.Listener::acceptsLoopback).toList();
        if (listeners.isEmpty()) {
            throw new CopilotClient.PeerRefused("no socket listens on loopback port " + port + " in this network namespace");
        }
        for (HostProcesses.Listener l : listeners) {
            if (!allowedUids.contains(l.uid())) {
                throw new CopilotClient.PeerRefused("port " + port + " is held by uid " + l.uid() + ", not an allowed NodeManager"
                        + " user (uids " + allowedUids + ": root and yarn.nodeManagerUsers)");
            }
        }
        HostProcesses.Listener held = listeners.stream().filter(l -> processes.holdsSocket(pid, l.inode())).findFirst()
                .orElseThrow(() -> new CopilotClient.PeerRefused("process " + pid + " named by /information does not hold the"
                        + " socket listening on port " + port));
        OptionalLong uid = processes.uid(pid);
        OptionalLong started = processes.startTime(pid);
        if (uid.isEmpty() || started.isEmpty() || uid.getAsLong() != held.uid()) {
            throw new CopilotClient.PeerRefused("process " + pid + " is gone or runs as another user than its socket");
        }
        String tokenPath = configuredTokenFile.isEmpty() ? info.tokenFile() : configuredTokenFile;
        String token = null;
        if (tokenPath != null && !tokenPath.isBlank()) {
            if (!tokenPath.startsWith("/")) {
                throw new CopilotClient.PeerRefused("token file '" + tokenPath + "' is not an absolute path");
            }
            token = readToken(processes.fileOf(pid, tokenPath), tokenPath, held.uid());
        }
        return new Verified(pid, started.getAsLong(), held.uid(), held.inode(), token, tokenPath);
    }

    /** Whether the verified process still runs (same start time) and still holds its listening socket. */
    boolean stillServing(Verified v) {
        OptionalLong started = processes.startTime(v.pid());
        return started.isPresent() && started.getAsLong() == v.startTime() && processes.holdsSocket(v.pid(), v.inode());
    }

    private static String readToken(Path file, String shown, long ownerUid) throws CopilotClient.PeerRefused {
        try {
            if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
                throw new CopilotClient.PeerRefused("token file " + shown + " is not a regular file");
            }
            long uid = ((Number) Files.getAttribute(file, "unix:uid", LinkOption.NOFOLLOW_LINKS)).longValue();
            if (uid != ownerUid && uid != ROOT) {
                throw new CopilotClient.PeerRefused("token file " + shown + " belongs to uid " + uid + ", not the NodeManager's");
            }
            if (Files.size(file) > MAX_TOKEN_BYTES) {
                throw new CopilotClient.PeerRefused("token file " + shown + " is larger than " + MAX_TOKEN_BYTES + " bytes");
            }
            String token = new String(Files.readAllBytes(file), StandardCharsets.UTF_8).trim();
            if (token.isEmpty() || !token.chars().allMatch(c -> c > 32 && c < 127)) {
                throw new CopilotClient.PeerRefused("token file " + shown + " is empty or not printable");
            }
            return token;
        } catch (IOException e) {
            throw new CopilotClient.PeerRefused("token file " + shown + " cannot be read: " + e.getMessage());
        }
    }
}
