package io.colocation.copilot.api;

/**
 * The copilot's local HTTP API: the paths of Koordinator's yarn-copilot-agent (so Koordinator's koordlet
 * can use it too), the token header, and the configuration keys of the NodeManager aux service.
 */
public final class CopilotApi {
    public static final String HEALTH = "/health";
    public static final String INFORMATION = "/information";
    /** Live containers; {@code ?all=true} adds finished ones still remembered. */
    public static final String CONTAINERS = "/v1/containers";
    /** One container: {@code ?containerID=container_...}. */
    public static final String CONTAINER = "/v1/container";
    /** POST {@code {"containerID": "container_..."}}. */
    public static final String KILL_CONTAINER = "/v1/killContainer";
    /** POST {@code {"resources": {"cpu": "2", "memory": "4Gi"}}} (Kubernetes quantities). */
    public static final String KILL_CONTAINERS_BY_RESOURCE = "/v1/killContainersByResource";

    /**
     * Header carrying the shared secret ({@code Authorization: Bearer} also works). Every path but {@link #HEALTH} and
     * {@link #INFORMATION} requires it unless {@link #CONF_REQUIRE_TOKEN} is false.
     */
    public static final String TOKEN_HEADER = "X-Copilot-Token";

    /** The aux service name to use in {@code yarn.nodemanager.aux-services}. */
    public static final String AUX_SERVICE_NAME = "yarn_copilot";

    public static final String CONF_PREFIX = "colocation.copilot.";
    public static final String CONF_BIND_ADDRESS = CONF_PREFIX + "bind-address";
    public static final String DEFAULT_BIND_ADDRESS = "127.0.0.1";
    public static final String CONF_PORT = CONF_PREFIX + "port";
    public static final int DEFAULT_PORT = 8049;
    /**
     * The token file; default {@code <first yarn.nodemanager.local-dirs>/yarn_copilot/token}. Generated at the first start
     * (32 random bytes, hex) with mode 0600 in a 0700 directory, kept across restarts; an existing file is used as it is.
     */
    public static final String CONF_TOKEN_FILE = CONF_PREFIX + "token-file";
    public static final String DEFAULT_TOKEN_DIR = "yarn_copilot";
    /** false serves every caller on loopback without a token (Koordinator's own koordlet sends none): not recommended. */
    public static final String CONF_REQUIRE_TOKEN = CONF_PREFIX + "require-token";
    public static final String CONF_CGROUP_PARENT = CONF_PREFIX + "cgroup-parent";
    public static final String DEFAULT_CGROUP_PARENT = "kubepods/besteffort/hadoop-yarn";
    public static final String CONF_KILL_GRACE_MS = CONF_PREFIX + "kill-grace-period-ms";
    public static final long DEFAULT_KILL_GRACE_MS = 5_000;
    public static final String CONF_REFRESH_MS = CONF_PREFIX + "refresh-interval-ms";
    public static final long DEFAULT_REFRESH_MS = 1_000;
    public static final String CONF_FINISHED_RETENTION_MS = CONF_PREFIX + "finished-retention-ms";
    public static final long DEFAULT_FINISHED_RETENTION_MS = 600_000;

    private CopilotApi() {
    }
}
