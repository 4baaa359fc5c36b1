package io.colocation.copilot.api;

import com.fasterxml.jackson.annotation.JsonAutoDetect;
import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
/**
 * {@code GET /information}, answered without a token: {@code {"name":"yarn","version":"v1"}} as Koordinator's agent
 * answers, plus who serves it: the NodeManager's process id (the koordlet checks that this process holds the listening
 * socket and that its processes descend from it) and the token file (readable only by the NodeManager's user and root).
 */
@JsonAutoDetect(fieldVisibility = JsonAutoDetect.Visibility.ANY, getterVisibility = JsonAutoDetect.Visibility.NONE,
        isGetterVisibility = JsonAutoDetect.Visibility.NONE)
public final class PluginInfo {
    private final String name;
    private final String version;
    private final Long pid;
    private final String tokenFile;

    @JsonCreator
    public PluginInfo(@JsonProperty("name") String name, @JsonProperty("version") String version, @JsonProperty("pid") Long pid,
            @JsonProperty("tokenFile") String tokenFile) {
        this.name = name;
        this.version = version;
        this.pid = pid;
        this.tokenFile = tokenFile;
    }

    public String name() {
        return name;
    }

    public String version() {
        return version;
    }

    /** The NodeManager's process id; null from a copilot that does not say (Koordinator's). */
    public Long pid() {
        return pid;
    }

    /** The absolute path of the token file in the NodeManager's file system; null when no token is required. */
    public String tokenFile() {
        return tokenFile;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof PluginInfo)) {
            return false;
        }
        PluginInfo other = (PluginInfo) o;
        return java.util.Objects.equals(name, other.name)
                && java.util.Objects.equals(version, other.version)
                && java.util.Objects.equals(pid, other.pid)
                && java.util.Objects.equals(tokenFile, other.tokenFile);
    }

    @Override
    public int hashCode() {
        return java.util.Objects.hash(name, version, pid, tokenFile);
    }

    @Override
    public String toString() {
        return "PluginInfo[name=" + name + ", version=" + version + ", pid=" + pid + ", tokenFile=" + tokenFile + "]";
    }
}
