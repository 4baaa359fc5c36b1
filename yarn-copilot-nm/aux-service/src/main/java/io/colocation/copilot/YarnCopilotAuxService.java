package io.colocation.copilot;

import io.colocation.copilot.api.CopilotApi;
import io.colocation.helpers.concurrent.Daemons;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Clock;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.api.ApplicationInitializationContext;
import org.apache.hadoop.yarn.server.api.ApplicationTerminationContext;
import org.apache.hadoop.yarn.server.api.AuxiliaryService;
import org.apache.hadoop.yarn.server.api.ContainerInitializationContext;
import org.apache.hadoop.yarn.server.api.ContainerTerminationContext;
import org.apache.hadoop.yarn.server.api.ContainerType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The YARN copilot: a NodeManager aux service that tracks every container on the host (ids, resources,
 * type, state, process tree, exit status) and serves it, with a kill API, to the node agent on a
 * loopback HTTP port. Install: this jar and yarn-copilot-api/broker-api in the NodeManager's classpath,
 * {@code yarn.nodemanager.aux-services} += {@value CopilotApi#AUX_SERVICE_NAME} with
 * {@code yarn.nodemanager.aux-services.yarn_copilot.class} = this class. Its metadata (what
 * ApplicationMasters and tests can read from the NodeManager) is the API's {@code host:port}.
 */
public class YarnCopilotAuxService extends AuxiliaryService {
    private static final Logger LOG = LoggerFactory.getLogger(YarnCopilotAuxService.class);
    private static final Path PROC = Paths.get("/proc");

    private ContainerRegistry registry;
    private CopilotHttpServer http;
    private CopilotMetrics metrics;
    private ScheduledExecutorService refresher;
    private ExitCodeWatcher exitCodes;
    private String bindAddress;
    private int port;
    private long refreshMillis;
    private volatile InetSocketAddress address;

    public YarnCopilotAuxService() {
        super(CopilotApi.AUX_SERVICE_NAME);
    }

    @Override
    protected void serviceInit(Configuration conf) throws Exception {
        bindAddress = conf.getTrimmed(CopilotApi.CONF_BIND_ADDRESS, CopilotApi.DEFAULT_BIND_ADDRESS);
        port = conf.getInt(CopilotApi.CONF_PORT, CopilotApi.DEFAULT_PORT);
        refreshMillis = conf.getLong(CopilotApi.CONF_REFRESH_MS, CopilotApi.DEFAULT_REFRESH_MS);
        long grace = conf.getLong(CopilotApi.CONF_KILL_GRACE_MS, CopilotApi.DEFAULT_KILL_GRACE_MS);
        String cgroupParent = conf.getTrimmed(CopilotApi.CONF_CGROUP_PARENT, CopilotApi.DEFAULT_CGROUP_PARENT);
        String[] localDirs = conf.getTrimmedStrings(YarnConfiguration.NM_LOCAL_DIRS, YarnConfiguration.DEFAULT_NM_LOCAL_DIRS);
        CopilotToken token = null;
        if (conf.getBoolean(CopilotApi.CONF_REQUIRE_TOKEN, true)) {
            String tokenFile = conf.getTrimmed(CopilotApi.CONF_TOKEN_FILE, "");
            Path file = tokenFile.isEmpty() ? Paths.get(localPath(localDirs[0]), CopilotApi.DEFAULT_TOKEN_DIR, "token") : Paths.get(tokenFile);
            try {
                token = CopilotToken.loadOrCreate(file);
            } catch (IOException e) {
                throw new IOException(CopilotApi.CONF_TOKEN_FILE + "=" + file + ": " + e.getMessage(), e);
            }
        } else {
            LOG.warn("{}=false: every local user can list and kill this node's YARN containers", CopilotApi.CONF_REQUIRE_TOKEN);
        }
        if (refreshMillis <= 0 || grace < 0) {
            throw new IllegalArgumentException(CopilotApi.CONF_REFRESH_MS + " must be > 0 and " + CopilotApi.CONF_KILL_GRACE_MS
                    + " >= 0, got " + refreshMillis + " and " + grace);
        }
        ContainerFiles files = new ContainerFiles(localDirs);
        registry = new ContainerRegistry(files, PROC,
                conf.getLong(CopilotApi.CONF_FINISHED_RETENTION_MS, CopilotApi.DEFAULT_FINISHED_RETENTION_MS), Clock.systemUTC(), new NodeManagerExitCodes());
        metrics = CopilotMetrics.register();
        http = new CopilotHttpServer(registry, new ContainerKiller(PROC, grace), metrics, cgroupParent, token, ownPid());
        super.serviceInit(conf);
    }

    @Override
    protected void serviceStart() throws Exception {
        if (getRecoveryPath() != null) {
            registry.recoverFrom(Paths.get(getRecoveryPath().toUri().getPath(), "containers.json"));
        }
        exitCodes = new ExitCodeWatcher(registry::recordExitCode);
        registry.watchExitCodes(exitCodes);
        address = http.start(bindAddress, port);
        refresher = Executors.newSingleThreadScheduledExecutor(Daemons.named("yarn-copilot-refresh"));
        refresher.scheduleWithFixedDelay(this::refresh, 0, refreshMillis, TimeUnit.MILLISECONDS);
        LOG.info("YARN copilot serving on http://{}:{} (loopback callers only, {})", address.getHostString(), address.getPort(),
                http.tokenFile() == null ? "no token" : "token in " + http.tokenFile());
        super.serviceStart();
    }

    /** A local directory as configured ({@code /data/nm} or {@code file:///data/nm}). */
    private static String localPath(String dir) {
        return dir.startsWith("file:") ? java.net.URI.create(dir).getPath() : dir;
    }

    /** This NodeManager's process id (Java 8 has no ProcessHandle). */
    private static long ownPid() {
        String name = java.lang.management.ManagementFactory.getRuntimeMXBean().getName();
        return Long.parseLong(name.substring(0, name.indexOf('@')));
    }

    private void refresh() {
        try {
            registry.refresh();
            metrics.containersTracked.set(registry.size());
        } catch (RuntimeException e) {
            LOG.warn("copilot refresh failed; retrying in {} ms", refreshMillis, e);
        }
    }

    @Override
    protected void serviceStop() throws Exception {
        if (refresher != null) {
            refresher.shutdownNow();
        }
        if (http != null) {
            http.stop();
        }
        if (exitCodes != null) {
            exitCodes.close();
        }
        if (metrics != null) {
            metrics.unregister();
        }
        super.serviceStop();
    }

    @Override
    public void initializeApplication(ApplicationInitializationContext context) {
        LOG.debug("application {} starts on this node", context.getApplicationId());
    }

    @Override
    public void stopApplication(ApplicationTerminationContext context) {
        LOG.debug("application {} ends on this node", context.getApplicationId());
    }

    @Override
    public void initializeContainer(ContainerInitializationContext context) {
        ContainerId id = context.getContainerId();
        registry.add(new TrackedContainer(id.toString(), id.getApplicationAttemptId().getApplicationId().toString(),
                context.getUser(), context.getResource().getVirtualCores(), context.getResource().getMemorySize(),
                context.getContainerType() == ContainerType.APPLICATION_MASTER, System.currentTimeMillis()));
    }

    @Override
    public void stopContainer(ContainerTerminationContext context) {
        registry.markDone(context.getContainerId().toString());
    }

    /** The API's {@code host:port} once started (empty before). */
    @Override
    public ByteBuffer getMetaData() {
        InetSocketAddress a = address;
        String value = a == null ? "" : a.getHostString() + ":" + a.getPort();
        return ByteBuffer.wrap(value.getBytes(StandardCharsets.UTF_8));
    }
}
