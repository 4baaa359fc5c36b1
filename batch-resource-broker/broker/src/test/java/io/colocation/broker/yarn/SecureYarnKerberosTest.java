package io.colocation.broker.yarn;

import static io.colocation.testsupport.Await.until;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.colocation.api.yarn.YarnContract;
import io.colocation.copilot.YarnCopilotAuxService;
import io.colocation.copilot.api.CopilotApi;
import io.colocation.localclusters.yarn.MiniYarn;
import io.colocation.localclusters.zookeeper.LocalZooKeeper;
import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.apache.curator.framework.CuratorFramework;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.minikdc.MiniKdc;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.yarn.api.records.NodeId;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.MiniYARNCluster;
import org.apache.hadoop.yarn.server.nodemanager.containermanager.ContainerManagerImpl;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.SchedulerNode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A Kerberos-secured YARN (a real KDC, Hadoop's MiniKdc): the scheduler plugin runs in the secure
 * ResourceManager and reports to ZooKeeper, the copilot serves in the secure NodeManager, and the broker's
 * {@code rm-admin} mode logs in from its keytab and changes a node's capacity because its principal is in
 * {@code yarn.admin.acl}; a principal that is not gets the RM's refusal as a clear error and nothing changes.
 * Runs in a JVM of its own (the surefire execution {@code kerberos}): Kerberos settings are JVM-wide.
 */
class SecureYarnKerberosTest {
    private static final String CLUSTER = "secure-yarn";
    private static final String PLUGIN_ROOT = "/plugin";

    private static Path work;
    private static MiniKdc kdc;
    private static String realm;
    private static Path serviceKeytab;
    private static LocalZooKeeper zk;
    private static CuratorFramework curator;
    private static MiniYarn yarn;

    @BeforeAll
    static void start() throws Exception {
        work = Files.createTempDirectory("secure-yarn");
        kdc = new MiniKdc(MiniKdc.createConf(), work.toFile());
        kdc.start();
        realm = kdc.getRealm();
        String host = MiniYARNCluster.getHostname();
        serviceKeytab = work.resolve("yarn.keytab");
        // Services named for both spellings of this host (the same when the host is called localhost).
        kdc.createPrincipal(serviceKeytab.toFile(), new java.util.LinkedHashSet<>(List.of("rm/localhost", "nm/localhost",
                "nm/" + host, "HTTP/localhost", "HTTP/" + host)).toArray(new String[0]));
        kdc.createPrincipal(work.resolve("broker.keytab").toFile(), "broker/localhost");
        kdc.createPrincipal(work.resolve("intruder.keytab").toFile(), "intruder/localhost");

        // MiniYARNCluster's daemons skip their keytab login; this JVM logs in as the RM's principal, as the RM
        // process would, and its NodeManager uses the same credentials.
        Configuration security = new Configuration();
        security.set("hadoop.security.authentication", "kerberos");
        UserGroupInformation.setConfiguration(security);
        UserGroupInformation.loginUserFromKeytab("rm/localhost@" + realm, serviceKeytab.toString());

        zk = new LocalZooKeeper();
        curator = zk.newClient();
        MiniYarn.Builder builder = PluginYarnSideTest.withPlugin(MiniYarn.builder("secure-yarn").nodeManagers(1)
                        .nodeSize(4096, 4).mapReduce(false).restartableResourceManager(), zk, PLUGIN_ROOT, CLUSTER)
                .auxService(CopilotApi.AUX_SERVICE_NAME, YarnCopilotAuxService.class)
                .set(CopilotApi.CONF_PORT, "0")
                .set(YarnConfiguration.RESOURCEMANAGER_CONNECT_MAX_WAIT_MS, "30000")
                .set("hadoop.security.authentication", "kerberos")
                .set(YarnConfiguration.RM_PRINCIPAL, "rm/localhost@" + realm)
                .set(YarnConfiguration.RM_KEYTAB, serviceKeytab.toString())
                .set(YarnConfiguration.NM_PRINCIPAL, "nm/_HOST@" + realm)
                .set(YarnConfiguration.NM_KEYTAB, serviceKeytab.toString())
                .set(YarnConfiguration.RM_WEBAPP_SPNEGO_USER_NAME_KEY, "HTTP/_HOST@" + realm)
                .set(YarnConfiguration.RM_WEBAPP_SPNEGO_KEYTAB_FILE_KEY, serviceKeytab.toString())
                .set(YarnConfiguration.NM_WEBAPP_SPNEGO_USER_NAME_KEY, "HTTP/_HOST@" + realm)
                .set(YarnConfiguration.NM_WEBAPP_SPNEGO_KEYTAB_FILE_KEY, serviceKeytab.toString())
                .set(YarnConfiguration.YARN_ACL_ENABLE, "true")
                // Short names (the default auth_to_local rule maps broker/localhost@REALM to "broker"): the RM's
                // own principal and the broker's.
                .set(YarnConfiguration.YARN_ADMIN_ACL, "rm,broker");
        yarn = builder.start();
    }

    @AfterAll
    static void stop() throws Exception {
        if (yarn != null) {
            yarn.close();
        }
        if (zk != null) {
            zk.close();
        }
        if (kdc != null) {
            kdc.stop();
        }
        if (work != null) {
            try (var files = Files.walk(work)) {
                files.sorted(java.util.Comparator.reverseOrder()).map(Path::toFile).forEach(File::delete);
            }
        }
    }

    @Test
    void thePluginRunsInTheSecureResourceManagerAndTheCopilotInTheSecureNodeManager() throws Exception {
        assertTrue(UserGroupInformation.isSecurityEnabled(), "the cluster runs with Kerberos");
        NodeId node = node();
        String report = YarnContract.nodeReportPath(PLUGIN_ROOT, CLUSTER, node.toString());
        until(Duration.ofSeconds(20), () -> exists(report));

        ContainerManagerImpl cm = (ContainerManagerImpl) yarn.cluster().getNodeManager(0).getNMContext().getContainerManager();
        String address = StandardCharsets.UTF_8.decode(cm.getAuxServiceMetaData().get(CopilotApi.AUX_SERVICE_NAME)).toString();
        HttpResponse<String> health = HttpClient.newHttpClient().send(
                HttpRequest.newBuilder(URI.create("http://" + address + "/health")).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, health.statusCode());
    }

    @Test
    void rmAdminModeLogsInFromItsKeytabAndOnlyAnAdminPrincipalChangesANode() throws Exception {
        NodeId node = node();
        try (Admin broker = Admin.login("broker/localhost", "broker.keytab")) {
            broker.side.publish(node.toString(), 2, 1536, YarnSide.Usage.NONE);
            until(Duration.ofSeconds(20), () -> Resource.newInstance(1536, 2).equals(total(node)));
        }

        try (Admin intruder = Admin.login("intruder/localhost", "intruder.keytab")) {
            IOException refused = assertThrows(IOException.class, () -> intruder.side.publish(node.toString(), 4, 4096, YarnSide.Usage.NONE));
            assertTrue(refused.getMessage().contains("updateNodeResource") && refused.getMessage().contains("intruder"),
                    "the error names the call and the refused user: " + refused.getMessage());
        }
        Thread.sleep(1000);
        assertEquals(Resource.newInstance(1536, 2), total(node), "a refused principal changes nothing");
    }

    /** The broker's rm-admin side for one principal, logged in from its keytab, leading its own ZooKeeper root. */
    private static final class Admin implements AutoCloseable {
        final LeaderEpoch leadership;
        final RmAdminYarnSide side;

        private Admin(LeaderEpoch leadership, RmAdminYarnSide side) {
            this.leadership = leadership;
            this.side = side;
        }

        static Admin login(String principal, String keytab) throws Exception {
            Configuration conf = yarn.config();
            UserGroupInformation user = YarnClusterConfigs.login(conf, CLUSTER, principal + "@" + realm,
                    work.resolve(keytab).toString());
            String root = "/" + principal.replace('/', '-');
            LeaderEpoch leadership = new LeaderEpoch(curator, root, principal);
            leadership.start();
            assertTrue(leadership.awaitLeadership(Duration.ofSeconds(20)));
            RmAdminYarnSide side = new RmAdminYarnSide(CLUSTER, conf, user, curator, leadership, root,
                    Duration.ofMillis(300), Duration.ofSeconds(5), Clock.systemUTC());
            side.start(() -> { });
            return new Admin(leadership, side);
        }

        @Override
        public void close() throws Exception {
            side.close();
            leadership.close();
        }
    }

    private static NodeId node() throws Exception {
        List<NodeId> nodes = List.copyOf(yarn.resourceManager().getRMContext().getRMNodes().keySet());
        assertEquals(1, nodes.size());
        return nodes.get(0);
    }

    /**
     * The node's total in the scheduler; null until the scheduler has handled the node's NODE_ADDED event, which comes
     * after the RM context lists the node (a first CI run read it in between and failed at once instead of waiting).
     */
    private static Resource total(NodeId node) {
        SchedulerNode sn = yarn.resourceManager().getResourceScheduler().getSchedulerNode(node);
        return sn == null ? null : sn.getTotalResource();
    }

    private static boolean exists(String path) {
        try {
            return curator.checkExists().forPath(path) != null;
        } catch (Exception e) {
            return false;
        }
    }
}
