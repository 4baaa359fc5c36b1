package io.colocation.sandbox.scenario;

import io.colocation.api.ResourceNames;
import io.colocation.quota.ElasticQuotaSpec;
import io.colocation.quota.QuotaDirectory;
import io.colocation.quota.QuotaRevocation;
import io.colocation.quota.QuotaStatus;
import io.colocation.quota.QuotaUnits;
import io.colocation.quota.ResourceAmounts;
import io.colocation.sandbox.parts.ClusterSetup;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Two teams share the Kubernetes side's Batch through Koordinator's ElasticQuota (docs/k8s-scheduler.md, Quotas): each
 * quota's min is half the Kubernetes grant when Batch appears. {@value #BORROWER}'s pods come first and borrow what idle
 * {@value #LENDER} lends; {@value #LENDER}'s pods come later and take its min back, the k8s-scheduler revoking
 * {@value #BORROWER}'s least important pods once it has used more than its runtime for {@link #DELAY_EVICT}. Tells what
 * moved: each quota's runtime and used as the scheduler's leader writes them, each revocation's Event, and when
 * {@value #LENDER}'s pods were all placed.
 */
public final class TeamQuotas {
    static final String BORROWER = "team-a";
    static final String LENDER = "team-b";
    static final Duration DELAY_EVICT = Duration.ofSeconds(10);
    /** The borrower's pods beyond what the grant holds when they come: it asks more than there is, as a busy team does. */
    static final int BEYOND_GRANT = 2;
    /** The ElasticQuota plugin's arguments in the sandbox's scheduler profile. */
    public static final String ARGS = "{monitorAllQuotas: true, delayEvictTime: " + DELAY_EVICT.toSeconds() + "s, revokePodInterval: 1s}";
    private static final String API_VERSION = ElasticQuotaSpec.API_VERSION;
    private static final String KIND = ElasticQuotaSpec.KIND;
    private static final long MAX_CORES = 64;

    private final KubernetesClient client;
    private final Narrator narrator;
    private long minMilli;
    /** By quota, the runtime and used last told (milli-cores of batch-cpu). */
    private final Map<String, long[]> told = new HashMap<>();
    private final Set<String> revoked = new HashSet<>();
    private final Map<String, Integer> revokedByTeam = new HashMap<>();
    private long borrowedPeakMilli;
    private long lenderArrivedNanos;
    private int lenderPods;
    private String lenderPlaced;

    TeamQuotas(KubernetesClient client, Narrator narrator) {
        this.client = client;
        this.narrator = narrator;
    }

    /** The two quotas, each with half of {@code kubernetesGrantMilli} (whole cores, at least one) as its min. */
    void create(long kubernetesGrantMilli) {
        minMilli = Math.max(1000, kubernetesGrantMilli / 2 / 1000 * 1000);
        for (String team : List.of(BORROWER, LENDER)) {
            client.genericKubernetesResources(API_VERSION, KIND).inNamespace(ClusterSetup.BATCH_NAMESPACE).resource(
                    new GenericKubernetesResourceBuilder().withApiVersion(API_VERSION).withKind(KIND).withNewMetadata().withName(team)
                            .withNamespace(ClusterSetup.BATCH_NAMESPACE).endMetadata()
                            .addToAdditionalProperties("spec", Map.of(
                                    "min", Map.of(ResourceNames.BATCH_CPU, Long.toString(minMilli)),
                                    "max", Map.of(ResourceNames.BATCH_CPU, Long.toString(MAX_CORES * 1000), ResourceNames.BATCH_MEMORY,
                                            MAX_CORES * 4 + "Gi")))
                            .build()).create();
        }
        narrator.say(String.format("   two teams share it through ElasticQuotas %s and %s (min %s batch-cores each, half the Kubernetes"
                + " grant; max %d): %s's pods name their quota by the label %s; %s is idle and lends its min", BORROWER, LENDER,
                cores(minMilli), MAX_CORES, BORROWER, QuotaDirectory.LABEL_QUOTA_NAME, LENDER));
    }

    /** The labels of a team's pods. */
    static Map<String, String> labels(String team) {
        return Map.of(QuotaDirectory.LABEL_QUOTA_NAME, team);
    }

    /** How many of the lender's pods to send: its min in cores. */
    int lenderWave() {
        return (int) (minMilli / 1000);
    }

    /** The lender's pods were submitted now. */
    void lenderArrived(int pods) {
        lenderArrivedNanos = System.nanoTime();
        lenderPods = pods;
        narrator.say(String.format("   %s's %d pods arrive: its runtime rises to what it asks, up to its min, and %s's falls below what it"
                + " uses; after delayEvictTime (%d s) the k8s-scheduler revokes %s's least important pods", LENDER, pods, BORROWER,
                DELAY_EVICT.toSeconds(), BORROWER));
    }

    /** Tells what moved since the last call: a quota's runtime or used by half a core or more, a revocation, the lender placed. */
    void poll(BatchPods pods) {
        for (GenericKubernetesResource q : client.genericKubernetesResources(API_VERSION, KIND).inNamespace(ClusterSetup.BATCH_NAMESPACE)
                .list().getItems()) {
            String name = q.getMetadata().getName();
            long runtime = batchCpu(QuotaUnits.readOrNull(annotation(q, QuotaStatus.RUNTIME)));
            long used = batchCpu(usedOf(q));
            if (name.equals(BORROWER)) {
                borrowedPeakMilli = Math.max(borrowedPeakMilli, used - minMilli);
            }
            long[] before = told.get(name);
            if (before == null || Math.abs(before[0] - runtime) >= 500 || Math.abs(before[1] - used) >= 500) {
                told.put(name, new long[] {runtime, used});
                narrator.say(String.format("   quota %s: runtime %s, used %s batch-cores (min %s)%s", name, cores(runtime), cores(used),
                        cores(minMilli), used > minMilli ? ", borrowing " + cores(used - minMilli)
                                : runtime < minMilli ? ", lending " + cores(minMilli - runtime) : ""));
            }
        }
        client.v1().events().inNamespace(ClusterSetup.BATCH_NAMESPACE).withField("reason", QuotaRevocation.EVENT_REASON).list().getItems()
                .forEach(e -> {
                    String pod = e.getInvolvedObject().getName();
                    if (revoked.add(pod)) {
                        String team = pods.quotaOf(pod);
                        revokedByTeam.merge(String.valueOf(team), 1, Integer::sum);
                        narrator.say("   the k8s-scheduler revoked " + team + "'s pod " + pod + " (" + QuotaRevocation.EVENT_REASON + "): "
                                + e.getMessage());
                    }
                });
        if (lenderPods > 0 && lenderPlaced == null && pods.placed(LENDER) >= lenderPods) {
            lenderPlaced = String.format("%d s after they arrived", Duration.ofNanos(System.nanoTime() - lenderArrivedNanos).toSeconds());
            narrator.say("   " + LENDER + "'s pods are all placed, " + lenderPlaced + ": it has its min back");
        }
    }

    /** The summary's line: what was borrowed, revoked and given back. */
    String summary() {
        if (minMilli == 0) {
            return "none (Batch never appeared on every node)";
        }
        return String.format("%s borrowed up to %s batch-cores beyond its min of %s while %s was idle; %s's %d pods %s; pods revoked: %d of"
                + " %s, %d of %s", BORROWER, cores(Math.max(0, borrowedPeakMilli)), cores(minMilli), LENDER, LENDER, lenderPods,
                lenderPods == 0 ? "never sent" : lenderPlaced == null ? "not all placed by the end" : "placed " + lenderPlaced,
                revokedByTeam.getOrDefault(BORROWER, 0), BORROWER, revokedByTeam.getOrDefault(LENDER, 0), LENDER);
    }

    /** Whether the lender got its pods placed (its min back), or it never sent any. */
    boolean lenderServed() {
        return lenderPods == 0 || lenderPlaced != null;
    }

    private static String annotation(GenericKubernetesResource q, String key) {
        Map<String, String> a = q.getMetadata().getAnnotations();
        return a == null ? null : a.get(key);
    }

    private static ResourceAmounts usedOf(GenericKubernetesResource q) {
        Object status = q.getAdditionalProperties().get("status");
        if (!(status instanceof Map<?, ?> s) || !(s.get("used") instanceof Map<?, ?> used)) {
            return null;
        }
        return QuotaUnits.readOrNull(io.fabric8.kubernetes.client.utils.Serialization.jsonMapper().valueToTree(used));
    }

    private static long batchCpu(ResourceAmounts amounts) {
        return amounts == null ? 0 : amounts.get(ResourceNames.BATCH_CPU);
    }

    private static String cores(long milli) {
        return String.format("%.1f", milli / 1000.0);
    }
}
