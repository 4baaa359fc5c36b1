package io.colocation.localclusters.yarn;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link MiniYarn}'s configuration files where a real cluster's processes read theirs: {@code yarn-site.xml} for
 * ApplicationMasters (they load it from the classpath) and, with HA, {@code capacity-scheduler.xml} for a ResourceManager
 * turning active (it re-reads both); removed when the cluster stops.
 */
final class ConfigFiles {
    private static final Logger LOG = LoggerFactory.getLogger(ConfigFiles.class);

    private ConfigFiles() {
    }

    static Path writeCapacityScheduler(Configuration conf, Path dir) {
        Configuration scheduler = new Configuration(false);
        for (Map.Entry<String, String> e : conf) {
            if (e.getKey().startsWith("yarn.scheduler.capacity.")) {
                scheduler.set(e.getKey(), e.getValue());
            }
        }
        try {
            Files.createDirectories(dir);
            Path file = dir.resolve("capacity-scheduler.xml");
            try (OutputStream out = Files.newOutputStream(file)) {
                scheduler.writeXml(out);
            }
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write capacity-scheduler.xml to " + dir, e);
        }
    }

    static Path writeYarnSite(Configuration conf, Path dir) {
        try {
            Files.createDirectories(dir);
            Path file = dir.resolve("yarn-site.xml");
            // Written aside, then moved: writeXml may lazily load yarn-site.xml from the classpath,
            // which must never be seen half-written.
            Path tmp = dir.resolve("yarn-site.xml.writing");
            try (OutputStream out = Files.newOutputStream(tmp)) {
                conf.writeXml(out);
            }
            Files.move(tmp, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the cluster configuration to " + dir, e);
        }
    }

    /** The test classes directory (surefire hides the classpath behind a manifest jar, so ask the loader). */
    static Path firstClasspathDir() {
        Path first = null;
        try {
            var roots = Thread.currentThread().getContextClassLoader().getResources("");
            while (roots.hasMoreElements()) {
                java.net.URL url = roots.nextElement();
                if (!"file".equals(url.getProtocol())) {
                    continue;
                }
                Path dir = Path.of(url.toURI());
                if (dir.getFileName() != null && dir.getFileName().toString().equals("test-classes")) {
                    return dir;
                }
                first = first == null ? dir : first;
            }
        } catch (IOException | java.net.URISyntaxException e) {
            throw new IllegalStateException("cannot list the classpath directories", e);
        }
        if (first == null) {
            throw new IllegalStateException("no directory on the classpath to write yarn-site.xml to; "
                    + "set MiniYarn.Builder.configDir");
        }
        return first;
    }

    /** Removes what was written (files left on the classpath would configure every later cluster of this JVM). */
    static void deleteAll(List<Path> files) {
        for (Path p : files) {
            try {
                Files.deleteIfExists(p);
            } catch (IOException e) {
                LOG.warn("could not delete {}", p, e);
            }
        }
    }
}
