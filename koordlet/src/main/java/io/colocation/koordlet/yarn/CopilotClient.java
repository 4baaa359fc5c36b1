package io.colocation.koordlet.yarn;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.colocation.copilot.api.ContainerInfo;
import io.colocation.copilot.api.CopilotApi;
import io.colocation.copilot.api.PluginInfo;
import io.colocation.copilot.api.YarnContainerIds;
import io.colocation.helpers.log.DistinctWarnings;
import io.colocation.koordlet.collect.CollectTargets.YarnTarget;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Asks the NodeManager's copilot (yarn-copilot-nm) for the host's YARN containers and kills them on request, trusting
 * nothing it did not verify: before its token leaves this process, the peer on the copilot's port is checked to be the
 * NodeManager ({@link CopilotPeer}); in every answer, a container id that is not YARN's, a cgroup that is not the
 * container's, and a process that is not the NodeManager's descendant are refused, named once and counted. Answers
 * are bounded in size while they stream and in total time ({@link BoundedHttp}). A copilot that is down, slow or
 * answers something that is not its container list is warned about once; the list is then unknown (empty optional),
 * so YARN usage is reported missing rather than 0.
 */
public final class CopilotClient {
    private static final Logger LOG = LoggerFactory.getLogger(CopilotClient.class);
    private static final ObjectMapper JSON = new ObjectMapper().disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
    static final int MAX_BODY = 8 * 1024 * 1024;
    /** Far more than a NodeManager runs at once (its memory and vcores bound it to a few hundred): a host's maximum here. */
    static final int MAX_RUNNING_CONTAINERS = 4096;
    /** Processes of one container: a YARN task's JVM and what it forks. */
    static final int MAX_PIDS_PER_CONTAINER = 4096;
    private static final int MAX_SMALL_BODY = 64 * 1024;
    public static final Duration LIST_DEADLINE = Duration.ofSeconds(3);
    static final Duration KILL_DEADLINE = Duration.ofSeconds(5);

    /** Why something the copilot said was refused; the counters' label. */
    public enum Refusal {
        /** the peer on the port is not a NodeManager process of an allowed user */
        PEER("peer"),
        /** a container id that is not of YARN's form */
        CONTAINER_ID("container-id"),
        /** a cgroup directory that is not {@code <parent>/<container id>} */
        CGROUP_DIR("cgroup-dir"),
        /** a process that does not descend from the NodeManager */
        PID("pid");

        private final String label;

        Refusal(String label) {
            this.label = label;
        }

        public String label() {
            return label;
        }
    }

    private final URI base;
    private final URI containers;
    private final URI kill;
    private final URI information;
    private final String configuredTokenFile;
    private final CopilotPeer peers;
    private final HostProcesses processes;
    private final BoundedHttp http;
    private final DistinctWarnings warnings = new DistinctWarnings(LOG);
    private final Map<Refusal, AtomicLong> refusals = new ConcurrentHashMap<>();
    /** The last refusal of each kind, for {@link #problems()}. */
    private final Map<Refusal, String> lastRefusal = new ConcurrentHashMap<>();
    /** What was named in the log already (bounded: forgotten all at once when full). */
    private final java.util.Set<String> named = ConcurrentHashMap.newKeySet();
    private volatile CopilotPeer.Verified peer;

    /**
     * @param tokenFile the token file when an admin set one; empty: the file the copilot names in {@code /information}
     * @param allowedUsers who may run the NodeManager (names or uids); root is always allowed
     */
    CopilotClient(URI base, String tokenFile, HostProcesses processes, List<String> allowedUsers, Path passwd) {
        this.base = base;
        this.containers = base.resolve(CopilotApi.CONTAINERS);
        this.kill = base.resolve(CopilotApi.KILL_CONTAINER);
        this.information = base.resolve(CopilotApi.INFORMATION);
        this.configuredTokenFile = tokenFile == null ? "" : tokenFile.trim();
        this.processes = processes;
        this.peers = new CopilotPeer(processes, CopilotPeer.allowedUids(allowedUsers, passwd));
        this.http = new BoundedHttp(HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build());
    }

    /** A client for the copilot at {@code baseUrl}, which must be a loopback {@code http} URL. */
    public static CopilotClient create(String baseUrl, String tokenFile, Path procRoot, List<String> nodeManagerUsers)
            throws IOException {
        URI uri;
        try {
            uri = URI.create(baseUrl.replaceAll("/+$", "") + "/");
        } catch (IllegalArgumentException e) {
            throw new IOException("yarn.copilotUrl '" + baseUrl + "' is not a URL: " + e.getMessage(), e);
        }
        if (!"http".equals(uri.getScheme()) || uri.getPort() <= 0 || !isLoopback(uri.getHost())) {
            throw new IOException("yarn.copilotUrl '" + baseUrl + "' must be http://127.0.0.1:PORT (or [::1], localhost): the"
                    + " copilot is a local service whose peer this agent verifies through /proc");
        }
        return new CopilotClient(uri, tokenFile, new HostProcesses(procRoot), nodeManagerUsers, Path.of("/etc/passwd"));
    }

    private static boolean isLoopback(String host) {
        return host != null && (host.equals("localhost") || host.equals("[::1]") || host.equals("::1") || host.matches("127(\\.\\d{1,3}){3}"));
    }

    public String describe() {
        return containers.toString();
    }

    /** What cannot be read now, and the last thing refused of each kind, by subject. */
    public Map<String, String> problems() {
        Map<String, String> out = new TreeMap<>(warnings.current());
        lastRefusal.forEach((k, v) -> out.put("copilot refused (" + k.label() + ")", v));
        return out;
    }

    /** Refusals since the start, by {@link Refusal#label()}. */
    public Map<String, Long> refusals() {
        Map<String, Long> out = new TreeMap<>();
        refusals.forEach((k, v) -> out.put(k.label(), v.get()));
        return out;
    }

    /** Whether {@code pid} descends from the verified NodeManager now (checked again right before a move). */
    public boolean ownedByNodeManager(int pid) {
        CopilotPeer.Verified p = peer;
        if (p != null && processes.descendsFrom(pid, p.pid())) {
            return true;
        }
        refuse(Refusal.PID, "process " + pid, p == null ? "no verified NodeManager" : "does not descend from the NodeManager (pid "
                + p.pid() + ")");
        return false;
    }

    /** Running containers with their cgroup directory and processes; empty when the copilot cannot be asked. */
    public Optional<List<YarnTarget>> runningContainers(String cgroupParent) {
        String subject = "copilot " + containers;
        try {
            CopilotPeer.Verified p = verifiedPeer();
            BoundedHttp.Streamed<List<YarnTarget>> answer = http.stream(request(containers, p).GET().build(), MAX_BODY, LIST_DEADLINE,
                    body -> readRunning(body, cgroupParent, p.pid()));
            if (answer.status() != 200) {
                if (answer.status() == 401) {
                    peer = null; // a new token after a NodeManager restart: read it again
                }
                warnings.warn(subject, "answered HTTP " + answer.status());
                return Optional.empty();
            }
            warnings.resolved(subject);
            return Optional.of(answer.value());
        } catch (PeerRefused e) {
            warnings.warn(subject, "refused: " + e.getMessage());
            return Optional.empty();
        } catch (io.colocation.helpers.io.LimitedInputStream.TooLarge e) {
            warnings.warn(subject, e.getMessage() + "; not a container list");
            return Optional.empty();
        } catch (InvalidAnswer e) {
            warnings.warn(subject, "answered something that is not its container list: " + e.getMessage());
            return Optional.empty();
        } catch (IOException e) {
            peer = null;
            warnings.warn(subject, "cannot be asked: " + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage())
                    + " (is the NodeManager with the yarn_copilot aux service running on this host?)");
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }

    /** Asks the copilot to kill the container now (SIGTERM, then SIGKILL after its grace period); returns why not. */
    public Optional<String> killContainer(String containerID, String reason) {
        if (!YarnContainerIds.isValid(containerID)) {
            refuse(Refusal.CONTAINER_ID, "kill " + containerID, "not a YARN container id");
            return Optional.of("'" + containerID + "' is not a YARN container id; nothing asked");
        }
        try {
            CopilotPeer.Verified p = verifiedPeer();
            String body = JSON.writeValueAsString(Map.of("containerID", containerID, "reason", reason));
            BoundedHttp.Answer answer = http.send(request(kill, p).header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(body)).build(), MAX_SMALL_BODY, KILL_DEADLINE);
            return answer.status() == 200 ? Optional.empty()
                    : Optional.of("the copilot answered HTTP " + answer.status() + ": " + new String(answer.body(),
                            java.nio.charset.StandardCharsets.UTF_8));
        } catch (PeerRefused e) {
            return Optional.of("the copilot was refused: " + e.getMessage());
        } catch (IOException e) {
            peer = null;
            return Optional.of("the copilot cannot be asked: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.of("interrupted");
        }
    }

    private HttpRequest.Builder request(URI uri, CopilotPeer.Verified p) {
        HttpRequest.Builder b = HttpRequest.newBuilder(uri).timeout(LIST_DEADLINE);
        if (p.token() != null) {
            b.header(CopilotApi.TOKEN_HEADER, p.token());
        }
        return b;
    }

    /**
     * The peer verified now: the one verified before if its process still holds the listening socket, else asked
     * afresh ({@code /information}, which needs no token) and checked through {@code /proc}.
     */
    private CopilotPeer.Verified verifiedPeer() throws IOException, InterruptedException, PeerRefused {
        CopilotPeer.Verified p = peer;
        if (p != null && peers.stillServing(p)) {
            return p;
        }
        peer = null;
        BoundedHttp.Answer answer = http.send(HttpRequest.newBuilder(information).timeout(LIST_DEADLINE).GET().build(),
                MAX_SMALL_BODY, LIST_DEADLINE);
        if (answer.status() != 200) {
            throw new IOException(CopilotApi.INFORMATION + " answered HTTP " + answer.status());
        }
        PluginInfo info;
        try {
            info = JSON.readValue(answer.body(), PluginInfo.class);
        } catch (IOException e) {
            throw new PeerRefused(CopilotApi.INFORMATION + " is not the copilot's information (" + e.getClass().getSimpleName() + ")");
        }
        try {
            p = peers.verify(base.getPort(), info, configuredTokenFile);
        } catch (PeerRefused e) {
            refuse(Refusal.PEER, "copilot peer on port " + base.getPort(), e.getMessage());
            throw e;
        }
        LOG.info("copilot on port {} verified: NodeManager pid {}, uid {}{}", base.getPort(), p.pid(), p.uid(),
                p.token() == null ? ", no token" : ", token from " + p.tokenSource());
        peer = p;
        return p;
    }

    /**
     * The running containers that pass every check, read from the copilot's list as it streams: one container is held
     * at a time, so what the list costs in memory is the targets kept, at most {@link #MAX_RUNNING_CONTAINERS} of
     * {@link #MAX_PIDS_PER_CONTAINER} processes each, whatever the list's length up to {@link #MAX_BODY} bytes. What does
     * not pass is refused and counted.
     */
    List<YarnTarget> readRunning(java.io.InputStream body, String cgroupParent, long nodeManagerPid) throws IOException {
        List<YarnTarget> result = new ArrayList<>();
        int index = 0;
        try (JsonParser parser = JSON.getFactory().createParser(body)) {
            if (parser.nextToken() != JsonToken.START_ARRAY) {
                throw new InvalidAnswer("expected a JSON list of containers");
            }
            for (JsonToken t = parser.nextToken(); t != JsonToken.END_ARRAY; t = parser.nextToken(), index++) {
                if (t != JsonToken.START_OBJECT) {
                    throw new InvalidAnswer("container [" + index + "] is not an object");
                }
                ContainerInfo c;
                try {
                    c = JSON.readValue(parser, ContainerInfo.class);
                } catch (com.fasterxml.jackson.databind.JsonMappingException e) {
                    throw new InvalidAnswer("container [" + index + "]: " + e.getOriginalMessage().lines().findFirst().orElse(""));
                }
                if (c == null || c.containerID() == null || c.containerID().isEmpty()) {
                    throw new InvalidAnswer("container [" + index + "] has no containerID");
                }
                if (c.pids() != null && c.pids().size() > MAX_PIDS_PER_CONTAINER) {
                    throw new InvalidAnswer("container " + c.containerID() + " lists " + c.pids().size() + " processes, more than the "
                            + MAX_PIDS_PER_CONTAINER + " a container can have here");
                }
                YarnTarget target = accept(c, cgroupParent, nodeManagerPid);
                if (target != null) {
                    if (result.size() == MAX_RUNNING_CONTAINERS) {
                        throw new InvalidAnswer("more than " + MAX_RUNNING_CONTAINERS + " running containers, more than a host runs");
                    }
                    result.add(target);
                }
            }
        } catch (com.fasterxml.jackson.core.JsonParseException e) {
            throw new InvalidAnswer("not JSON at container [" + index + "] (" + e.getOriginalMessage().lines().findFirst().orElse("") + ")");
        }
        return result;
    }

    /** The container as a target when it runs and passes every check; null when it does not run or is refused. */
    private YarnTarget accept(ContainerInfo c, String cgroupParent, long nodeManagerPid) {
        if (!YarnContainerIds.isValid(c.containerID())) {
            refuse(Refusal.CONTAINER_ID, "container '" + c.containerID() + "'", "not a YARN container id; ignored");
            return null;
        }
        if (!"RUNNING".equals(c.state())) {
            return null;
        }
        String dir = c.cgroupDir() == null ? "" : c.cgroupDir().replaceAll("^/+", "").replaceAll("/+$", "");
        if (!dir.isEmpty() && !dir.equals(cgroupParent + "/" + c.containerID())) {
            refuse(Refusal.CGROUP_DIR, "container " + c.containerID(), "cgroup '" + c.cgroupDir() + "' is not "
                    + cgroupParent + "/" + c.containerID() + "; measured and placed there instead");
            dir = "";
        }
        List<Integer> pids = new ArrayList<>();
        for (Integer pid : c.pids() == null ? List.<Integer>of() : c.pids()) {
            if (pid == null) {
                continue;
            }
            if (pid > 1 && processes.descendsFrom(pid, nodeManagerPid)) {
                pids.add(pid);
            } else {
                refuse(Refusal.PID, "container " + c.containerID() + " process " + pid,
                        "does not descend from the NodeManager (pid " + nodeManagerPid + "); not measured, not moved");
            }
        }
        return new YarnTarget(c.containerID(), dir, pids, c.vcores(), c.memoryMB(), c.priority(),
                "APPLICATION_MASTER".equals(c.type()));
    }

    /** Counts every refusal; names each refused thing once in the log. */
    private void refuse(Refusal why, String subject, String message) {
        refusals.computeIfAbsent(why, k -> new AtomicLong()).incrementAndGet();
        String line = subject + ": " + message;
        lastRefusal.put(why, line);
        if (named.size() > 4096) {
            named.clear();
        }
        if (named.add(line)) {
            LOG.warn("refused what the copilot said: {} (counted in koordlet_copilot_refused_total{reason=\"{}\"})", line,
                    why.label());
        }
    }

    /** The answer is not the copilot's container list (an IOException: it ends the body's reading). */
    static final class InvalidAnswer extends IOException {
        private static final long serialVersionUID = 1L;

        InvalidAnswer(String message) {
            super(message);
        }
    }

    /** The peer on the copilot's port is not one this agent trusts with its token. */
    static final class PeerRefused extends Exception {
        private static final long serialVersionUID = 1L;

        PeerRefused(String message) {
            super(message);
        }
    }

    @Override
    public String toString() {
        return "CopilotClient[" + base + ", peer " + Objects.toString(peer) + "]";
    }
}
