package io.colocation.broker.yarn;

import io.colocation.api.yarn.YarnContract;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.yarn.conf.YarnConfiguration;

/**
 * A YARN cluster's client configuration, laid out as Koordinator's yarn-operator reads it: in one
 * directory, {@code <id>.core-site.xml} (optional) and {@code <id>.yarn-site.xml} (required) per cluster;
 * the default cluster uses the unprefixed {@code core-site.xml} and {@code yarn-site.xml}. RM HA settings
 * ({@code yarn.resourcemanager.ha.*}) in those files make Hadoop's proxies find the active RM.
 */
public final class YarnClusterConfigs {
    private YarnClusterConfigs() {
    }

    public static Configuration load(Path dir, String clusterId) throws IOException {
        String prefix = YarnContract.DEFAULT_CLUSTER_ID.equals(clusterId) ? "" : clusterId + ".";
        Path yarnSite = dir.resolve(prefix + "yarn-site.xml");
        if (!Files.isReadable(yarnSite)) {
            throw new IOException("YARN cluster " + clusterId + ": " + yarnSite + " is missing or unreadable (rm-admin mode"
                    + " reads the cluster's client configuration from confDir)");
        }
        Configuration conf = new YarnConfiguration(new Configuration(false));
        Path coreSite = dir.resolve(prefix + "core-site.xml");
        if (Files.isReadable(coreSite)) {
            conf.addResource(new org.apache.hadoop.fs.Path(coreSite.toUri()));
        }
        conf.addResource(new org.apache.hadoop.fs.Path(yarnSite.toUri()));
        try {
            conf.get(YarnConfiguration.RM_ADDRESS);
        } catch (RuntimeException e) {
            throw new IOException("YARN cluster " + clusterId + ": " + yarnSite + " is not a valid Hadoop configuration: "
                    + e.getMessage(), e);
        }
        return conf;
    }

    /** A Kerberos login from keytab, or null when no principal is configured (simple authentication). */
    public static UserGroupInformation login(Configuration conf, String clusterId, String principal, String keytab)
            throws IOException {
        if (principal == null || principal.isBlank()) {
            return null;
        }
        if (keytab == null || !Files.isReadable(Path.of(keytab))) {
            throw new IOException("YARN cluster " + clusterId + ": kerberosKeytab " + keytab + " is missing or unreadable");
        }
        conf.set("hadoop.security.authentication", "kerberos");
        UserGroupInformation.setConfiguration(conf);
        return UserGroupInformation.loginUserFromKeytabAndReturnUGI(principal, keytab);
    }
}
