package io.colocation.copilot.api;

import com.fasterxml.jackson.annotation.JsonAutoDetect;
import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
/** {@code GET /information}: {@code {"name":"yarn","version":"v1"}} as Koordinator's agent answers. */
@JsonAutoDetect(fieldVisibility = JsonAutoDetect.Visibility.ANY, getterVisibility = JsonAutoDetect.Visibility.NONE,
        isGetterVisibility = JsonAutoDetect.Visibility.NONE)
public final class PluginInfo {
    private final String name;
    private final String version;

    @JsonCreator
    public PluginInfo(@JsonProperty("name") String name, @JsonProperty("version") String version) {
        this.name = name;
        this.version = version;
    }

    public String name() {
        return name;
    }

    public String version() {
        return version;
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
                && java.util.Objects.equals(version, other.version);
    }

    @Override
    public int hashCode() {
        return java.util.Objects.hash(name, version);
    }

    @Override
    public String toString() {
        return "PluginInfo[name=" + name
                + ", version=" + version + "]";
    }
}
