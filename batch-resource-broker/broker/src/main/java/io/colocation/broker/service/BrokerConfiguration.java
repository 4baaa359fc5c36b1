package io.colocation.broker.service;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.colocation.api.yarn.YarnContract;
import io.dropwizard.core.Configuration;
import jakarta.validation.Valid;
import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import java.util.ArrayList;
import java.util.List;

/** {@code conf/broker.yml}: see the commented example there for every field. */
public class BrokerConfiguration extends Configuration {

    @Valid
    @NotNull
    @JsonProperty
    public KubernetesSettings kubernetes = new KubernetesSettings();

    @Valid
    @NotNull
    @JsonProperty
    public ZooKeeperSettings zookeeper = new ZooKeeperSettings();

    @Valid
    @NotNull
    @JsonProperty
    public ArbitrationConfig arbitration = new ArbitrationConfig();

    @Valid
    @NotNull
    @JsonProperty
    public SyncSettings sync = new SyncSettings();

    @Valid
    @NotNull
    @JsonProperty
    public YarnSettings yarn = new YarnSettings();

    @Valid
    @NotNull
    @JsonProperty
    public AuthSettings auth = new AuthSettings();

    @Valid
    @NotNull
    @JsonProperty
    public WebhookSettings webhook = new WebhookSettings();
    @NotNull
    @Valid
    @JsonProperty
    public NodeAgentSettings nodeAgent = new NodeAgentSettings();

    /** This replica's name in leader election (default: the host name). */
    @JsonProperty
    public String replicaId;

    public static class KubernetesSettings {
        /** A kubeconfig file; empty: in-cluster service account, else ~/.kube/config (fabric8's auto-configuration). */
        @JsonProperty
        public String kubeconfig;
        /** Overrides the API server URL of the kubeconfig. */
        @JsonProperty
        public String masterUrl;
        /** Namespace of the {@code slo-controller-config} ConfigMap. */
        @NotEmpty
        @JsonProperty
        public String sloConfigNamespace = "koordinator-system";
        @Min(1)
        @JsonProperty
        public int startupTimeoutSeconds = 60;
    }

    public static class ZooKeeperSettings {
        @NotEmpty
        @JsonProperty
        public String connect = "localhost:2181";
        @NotEmpty
        @Pattern(regexp = "/.*", message = "must be an absolute ZooKeeper path such as /colocation")
        @JsonProperty
        public String root = YarnContract.DEFAULT_ROOT;
        @Min(1000)
        @JsonProperty
        public int sessionTimeoutMs = 15_000;
        @Min(100)
        @JsonProperty
        public int connectionTimeoutMs = 5_000;
    }

    public static class ArbitrationConfig {
        @NotEmpty
        @Pattern(regexp = "partitioned|shared", message = "must be partitioned (default) or shared (Koordinator's)")
        @JsonProperty
        public String policy = "partitioned";
        @DecimalMin(value = "0", inclusive = false)
        @JsonProperty
        public double kubernetesWeight = 1.0;
        @DecimalMin(value = "0", inclusive = false)
        @JsonProperty
        public double yarnWeight = 1.0;
        @DecimalMin("0")
        @DecimalMax("0.5")
        @JsonProperty
        public double minimumShare = 0.1;
        /** How long use may stay above a node's origin before the excess is taken back (partitioned); 0: at once. */
        @Min(0)
        @Max(86_400)
        @JsonProperty
        public long takeBackAfterSeconds = 300;
        /** Whether CPU above origin is taken back by preemption too (false: by the koordlet's throttling and evictions). */
        @JsonProperty
        public boolean takeBackCpu = false;
        /**
         * How long after a Kubernetes grant shrank YARN still counts on the old one (wall time): a pod the k8s-scheduler
         * placed on the old grant may be bound after the shrink.
         */
        @Min(0)
        @Max(60_000)
        @JsonProperty
        public long kubernetesShrinkSettleMillis = 2_000;
    }

    public static class SyncSettings {
        /** A pass at least this often (YARN acknowledgements arrive between Kubernetes events). */
        @Min(50)
        @JsonProperty
        public long intervalMs = 1_000;
        /** Wait this long after a change before the pass, so bursts of events cost one pass. */
        @Min(0)
        @JsonProperty
        public long debounceMs = 25;
        /** Parallel writers to the API server and ZooKeeper. */
        @Min(1)
        @JsonProperty
        public int publishThreads = 8;
        /**
         * The pass every {@code intervalMs} that decides every node is taken this many nodes at a time, each slice with
         * what changed meanwhile, so a change never waits behind all nodes (at 5,000 nodes, 500 are about 15 ms).
         */
        @Min(1)
        @JsonProperty
        public int fullPassSliceNodes = 500;
    }

    public static class YarnSettings {
        /** YARN clusters whose NodeManagers share the Kubernetes nodes. */
        @Valid
        @NotNull
        @JsonProperty
        public List<YarnClusterSettings> clusters = new ArrayList<>();
        /** A YARN node whose report is older than this is unreachable: its grant is frozen. */
        @Min(1)
        @JsonProperty
        public int reportStaleSeconds = 30;
        /** Also map a node to the NodeManager YARN reports on a host of the node's name (NMs outside Kubernetes). */
        @JsonProperty
        public boolean matchHostNames = true;
        /**
         * How long a YARN leaf of a tree over Batch may hold more than its runtime before the plugin preempts the excess
         * (docs/quota.md); -1: never. Koordinator's {@code delayEvictTime} default: set it to the scheduler's.
         */
        @Min(-1)
        @JsonProperty
        public long quotaRevokeDelaySeconds = 120;
    }

    public static class YarnClusterSettings {
        /** The cluster id ({@code yarn.hadoop.apache.org/cluster-id} of NM pods; {@code __default_yarn_cluster__} when absent). */
        @NotEmpty
        @JsonProperty
        public String id = YarnContract.DEFAULT_CLUSTER_ID;
        /** plugin: the RM runs the colocation scheduler plugin; rm-admin: updateNodeResource through the RM admin protocol. */
        @NotEmpty
        @Pattern(regexp = "plugin|rm-admin", message = "must be plugin or rm-admin")
        @JsonProperty
        public String mode = "plugin";
        /** rm-admin: directory of {@code <id>.yarn-site.xml} (or yarn-site.xml for the default cluster), as Koordinator's HADOOP_CONF_DIR. */
        @JsonProperty
        public String confDir;
        /** rm-admin: how often to read the RM's node reports. */
        @Min(100)
        @JsonProperty
        public long pollIntervalMs = 1_000;
        /** rm-admin with Kerberos: principal and keytab to log in with. */
        @JsonProperty
        public String kerberosPrincipal;
        @JsonProperty
        public String kerberosKeytab;
    }

    public static class AuthSettings {
        /** token: mutating endpoints and admin tasks need {@code Authorization: Bearer <token>}; none: open (testing only). */
        @NotEmpty
        @Pattern(regexp = "token|none", message = "must be token or none")
        @JsonProperty
        public String mode = "token";
        /** The token itself (conf/broker.yml reads it from ${COLOCATION_BROKER_TOKEN}); when empty, tokenSecretName's. */
        @JsonProperty
        public String token;
        /**
         * A Secret holding the token under {@code token}, created with a random one by the first replica when absent
         * (what the Helm chart uses); empty: the token must be set.
         */
        @NotNull
        @JsonProperty
        public String tokenSecretName = "";
        @NotEmpty
        @JsonProperty
        public String tokenSecretNamespace = "koordinator-system";
    }

    /** The ClusterColocationProfile pod-mutating webhook (every replica serves it; docs/webhook.md). */
    public static class WebhookSettings {
        @JsonProperty
        public boolean enabled = false;
        @NotEmpty
        @JsonProperty
        public String bindHost = "0.0.0.0";
        /** The HTTPS port the API server calls (0: any free port, for tests). */
        @Min(0)
        @Max(65_535)
        @JsonProperty
        public int port = 9443;
        /** generate: the broker keeps its own CA and certificate in the Secret; secret: the Secret is managed by others (cert-manager). */
        @NotEmpty
        @Pattern(regexp = "generate|secret", message = "must be generate or secret")
        @JsonProperty
        public String certificate = "generate";
        @NotEmpty
        @JsonProperty
        public String secretNamespace = "koordinator-system";
        @NotEmpty
        @JsonProperty
        public String secretName = "colocation-webhook-tls";
        /** The names (DNS or IP) the API server reaches the webhook by, in a generated certificate. */
        @NotEmpty
        @JsonProperty
        public List<String> hosts = new ArrayList<>(List.of("colocation-broker-webhook.koordinator-system.svc"));
        /** The MutatingWebhookConfiguration whose caBundle the broker keeps equal to the Secret's ca.crt. */
        @NotEmpty
        @JsonProperty
        public String configurationName = "colocation-pod-mutating";
        /** The ValidatingWebhookConfiguration (profiles checked when applied) kept so too; empty: none. */
        @NotNull
        @JsonProperty
        public String validatingConfigurationName = "colocation-validating";
        /** Open connections one address may hold on the webhook's port (the API server keeps a handful). */
        @Min(1)
        @Max(65_535)
        @JsonProperty
        public int maxConnectionsPerClient = 64;
        /** How long a connection may stay idle (and a request wait between two bytes) before the webhook closes it. */
        @NotNull
        @JsonProperty
        public io.dropwizard.util.Duration idleTimeout = io.dropwizard.util.Duration.seconds(10);
        /** The API server's client certificate, asked for when caFile is set (docs/webhook.md#client-authentication). */
        @NotNull
        @Valid
        @JsonProperty
        public ClientAuthSettings clientAuth = new ClientAuthSettings();
        @NotNull
        @JsonProperty
        public io.dropwizard.util.Duration caValidity = io.dropwizard.util.Duration.days(3650);
        @NotNull
        @JsonProperty
        public io.dropwizard.util.Duration validity = io.dropwizard.util.Duration.days(365);
        /** A generated certificate is renewed this long before it expires. */
        @NotNull
        @JsonProperty
        public io.dropwizard.util.Duration renewBefore = io.dropwizard.util.Duration.days(30);
        /** How often the Secret and the caBundle are checked (and a renewed certificate picked up). */
        @NotNull
        @JsonProperty
        public io.dropwizard.util.Duration checkInterval = io.dropwizard.util.Duration.minutes(1);
        /** koord-manager's --feature-gates: ColocationProfileSkipMutatingResources, DisableExtendedResourceSpec. */
        @NotNull
        @JsonProperty
        public String featureGates = "";
    }

    /** The node agent (the koordlet) bound to its own node (docs/webhook.md#the-node-agent-on-its-own-node). */
    public static class NodeAgentSettings {
        /**
         * The webhook serves /node-agent (a koordlet acts on its own node only) and the broker honours a
         * colocation.io/yarn-release only with the stamp that webhook writes. Needs webhook.enabled.
         */
        @JsonProperty
        public boolean restricted = false;
        /** The node agent's service accounts, namespace:name. */
        @NotEmpty
        @JsonProperty
        public List<String> serviceAccounts = new ArrayList<>(List.of("koordinator-system:koordlet"));
        /** The Secret holding the stamp's key, created by the first replica when absent. */
        @NotEmpty
        @JsonProperty
        public String keySecretNamespace = "koordinator-system";
        @NotEmpty
        @JsonProperty
        public String keySecretName = "colocation-node-agent-key";
    }

    /** Which clients the webhook serves: by default any (the API server authenticates the webhook, not the reverse). */
    public static class ClientAuthSettings {
        /** PEM file of the CA(s) that issue the API server's webhook client certificate; empty: none is asked. */
        @NotNull
        @JsonProperty
        public String caFile = "";
        /** The CNs such a certificate may carry; empty: any the CA issued. */
        @NotNull
        @JsonProperty
        public List<String> names = new ArrayList<>();
    }
}
