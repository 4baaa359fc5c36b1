package io.colocation.localclusters.yarn;

import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;

/**
 * MapReduce on the shaded MiniYARNCluster: MRAppMaster, YarnChild and the shuffle are not in the
 * shaded jars, so containers get a separate unshaded classpath (built by the
 * {@code local-clusters/mapreduce-classpath} module) and NodeManagers run the shuffle aux service.
 */
public final class MapReduceClasspath {
    public static final String SHUFFLE_SERVICE = "mapreduce_shuffle";

    private MapReduceClasspath() {
    }

    /** Where the distribution keeps the container classpath (the sandbox sets it); else the build's directory. */
    public static final String DIRECTORY_PROPERTY = "colocation.mapreduce.classpath.dir";

    /** The directory of unshaded Hadoop jars the containers run with. */
    public static Path directory() {
        String configured = System.getProperty(DIRECTORY_PROPERTY);
        Path dir = Path.of(configured != null ? configured : io.colocation.localclusters.BuildProperties.get("mapreduce.classpath.dir"));
        if (!Files.isDirectory(dir)) {
            throw new IllegalStateException("MapReduce container classpath " + dir
                    + " is missing: build the local-clusters/mapreduce-classpath module first (mvn generate-resources)");
        }
        return dir;
    }

    public static void configureCluster(Configuration conf) {
        conf.set("yarn.nodemanager.aux-services." + SHUFFLE_SERVICE + ".class", "org.apache.hadoop.mapred.ShuffleHandler");
        conf.set("mapreduce.shuffle.port", "0");
        configureJob(conf);
    }

    /** Job-side settings: the container classpath, small JVMs, and no minicluster classpath shortcut. */
    public static void configureJob(Configuration conf) {
        conf.set("mapreduce.framework.name", "yarn");
        conf.set("mapreduce.application.classpath", directory() + "/*");
        // true would hand containers this JVM's (shaded) classpath
        conf.setBoolean("yarn.is.minicluster", false);
        conf.setInt("yarn.app.mapreduce.am.resource.mb", 512);
        // Containers run on this JDK 17; Hadoop 3.3's AM (Guice's cglib) needs java.lang opened, as on any Java 17 host.
        String opens = " --add-opens=java.base/java.lang=ALL-UNNAMED";
        conf.set("yarn.app.mapreduce.am.command-opts", "-Xmx384m" + opens);
        conf.setInt("mapreduce.map.memory.mb", 256);
        conf.setInt("mapreduce.reduce.memory.mb", 256);
        conf.set("mapreduce.map.java.opts", "-Xmx192m" + opens);
        conf.set("mapreduce.reduce.java.opts", "-Xmx192m" + opens);
        conf.setInt("mapreduce.task.io.sort.mb", 16);
    }
}
