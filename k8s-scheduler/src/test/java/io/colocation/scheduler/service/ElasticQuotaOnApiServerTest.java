package io.colocation.scheduler.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.colocation.testsupport.Await;
import io.colocation.testsupport.kube.KubeApiServerExtension;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two teams' ElasticQuotas over the node's Batch CPU on a real kube-apiserver: a team borrows what the other does not
 * use, the lender's pods are admitted within its min when they come, and the borrower's next pod is held back at
 * PreFilter with Koordinator's message.
 */
@ExtendWith(KubeApiServerExtension.class)
class ElasticQuotaOnApiServerTest {
    private static final List<String> TEAMS = List.of("team-a", "team-b");
    private static final String BATCH_CPU = "kubernetes.io/batch-cpu";
    private static SchedulerService service;

    @TempDir
    static Path dir;

    @AfterAll
    static void stop(KubernetesClient client) {
        QuotaTestCluster.tearDown(client, service, "quota-node", TEAMS);
    }

    private static void pod(KubernetesClient client, String team, String name) {
        client.pods().inNamespace(team).resource(new PodBuilder().withNewMetadata().withName(name).withNamespace(team)
                .addToLabels("koordinator.sh/priority-class", "koord-batch").endMetadata()
                .withNewSpec().withSchedulerName("koord-scheduler").addNewContainer().withName("c").withImage("x")
                .withNewResources().withRequests(Map.of(BATCH_CPU, new Quantity("1000"))).endResources()
                .endContainer().endSpec().build()).create();
    }

    private static List<String> failures(KubernetesClient client, String team, String pod) {
        return client.v1().events().inNamespace(team).list().getItems().stream()
                .filter(e -> "FailedScheduling".equals(e.getReason()) && pod.equals(e.getInvolvedObject().getName()))
                .map(e -> e.getMessage()).toList();
    }

    @Test
    void aTeamBorrowsWhileTheOtherIsIdleAndTheLenderGetsItsMinBack(KubernetesClient client) throws Exception {
        QuotaTestCluster.teams(client, 4000, 8000, TEAMS.toArray(String[]::new));
        QuotaTestCluster.node(client, "quota-node", 8000);
        service = QuotaTestCluster.scheduler(client, dir, "quota-test", """
                plugins:
                  preFilter: {enabled: [{name: ElasticQuota}]}
                  reserve: {enabled: [{name: ElasticQuota}]}
                """);

        // team-b is idle: team-a borrows beyond its min of 4 cores, 6 of the node's 8.
        List<String> borrowed = IntStream.range(0, 6).mapToObj(i -> "a-" + i).toList();
        borrowed.forEach(p -> pod(client, "team-a", p));
        Await.until(Duration.ofSeconds(30), () -> borrowed.stream().allMatch(p -> QuotaTestCluster.bound(client, "team-a", p)));

        // team-b's pods come: its runtime is what it asks (3 cores, within its min), team-a's drops to 5 cores, below
        // what it uses: team-b's pods are admitted (two fit the node's room), team-a's next pod is held back.
        List<String> lender = List.of("b-0", "b-1", "b-2");
        lender.forEach(p -> pod(client, "team-b", p));
        Await.until(Duration.ofSeconds(30), () -> QuotaTestCluster.bound(client, "team-b", "b-0") && QuotaTestCluster.bound(client, "team-b", "b-1"));
        pod(client, "team-a", "a-6");
        Await.until(Duration.ofSeconds(30), () -> failures(client, "team-a", "a-6").stream()
                .anyMatch(m -> m.startsWith("Insufficient quotas, quotaName: team-a, runtime: " + BATCH_CPU + ":5k, used: "
                        + BATCH_CPU + ":6k, pod's request: " + BATCH_CPU + ":1k, exceedDimensions: [" + BATCH_CPU + "]")));
        assertTrue(!QuotaTestCluster.bound(client, "team-a", "a-6"));
        Await.until(Duration.ofSeconds(30), () -> !failures(client, "team-b", "b-2").isEmpty());
        assertTrue(failures(client, "team-b", "b-2").stream().noneMatch(m -> m.startsWith("Insufficient quotas")),
                "team-b's third pod is short of node room, not of quota: " + failures(client, "team-b", "b-2"));
        assertEquals(6, borrowed.stream().filter(p -> QuotaTestCluster.bound(client, "team-a", p)).count(), "nothing is revoked yet");
    }
}
