package io.colocation.localclusters;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/** Values the build filled into {@code colocation-local-clusters.properties} (resource filtering). */
public final class BuildProperties {
    private BuildProperties() {
    }

    /** The value of {@code key}; fails when the module was not built by Maven (the placeholder is still there). */
    public static String get(String key) {
        try (InputStream in = BuildProperties.class.getResourceAsStream("/colocation-local-clusters.properties")) {
            Properties props = new Properties();
            if (in != null) {
                props.load(in);
            }
            String value = props.getProperty(key);
            if (value == null || value.startsWith("${")) {
                throw new IllegalStateException("build property " + key + " is not set: build local-clusters with Maven");
            }
            return value;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
