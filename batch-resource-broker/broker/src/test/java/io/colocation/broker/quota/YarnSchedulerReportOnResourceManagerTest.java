package io.colocation.broker.quota;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.colocation.localclusters.yarn.MapReduceClasspath;
import io.colocation.localclusters.yarn.MiniYarn;
import io.colocation.localclusters.yarn.SleepJobs;
import io.colocation.model.document.KubeDocuments;
import io.colocation.quota.QuotaUnits;
import io.colocation.quota.ResourceAmounts;
import io.colocation.quota.YarnLeaf;
import io.colocation.testsupport.Await;
import io.colocation.testsupport.yarn.NodeManagerProcess;
import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.Job;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The scheduler report of a real ResourceManager (CapacityScheduler, queues {@code root.default}, {@code root.team-a}
 * and {@code root.org.team-b}) while a MapReduce job in {@code root.team-a} asks for more than the node holds: read as
 * {@code colocation quota explain} reads the saved JSON, the leaf's allocated and pending are the RM's own figures, and
 * the tree's YARN leaf asks for both.
 */
class YarnSchedulerReportOnResourceManagerTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static String last;

    private static String fetch(HttpClient http, String url) {
        try {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(url)).header("Accept", "application/json").build(),
                    HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() != 200) {
                last = "HTTP " + r.statusCode() + " " + r.headers().map() + " " + r.body();
                return null;
            }
            return r.body();
        } catch (java.io.IOException e) {
            last = e.toString();
            return null; // the RM's web app still starting
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    private static YarnSchedulerReport.LeafQueue leaf(String body, String path) {
        try {
            return YarnSchedulerReport.read(JSON.readTree(body), "report").leaves().get(path);
        } catch (java.io.IOException | io.colocation.api.InvalidInputException e) {
            throw new AssertionError("the ResourceManager's report is unreadable: " + e.getMessage() + "\n" + body, e);
        }
    }

    @Test
    void aLeafQueuesAllocatedAndPendingAreTheResourceManagers(@TempDir Path work) throws Exception {
        // The NodeManager in a JVM of its own: in one JVM its web app takes over the ResourceManager's (Guice's filter is
        // static), and /ws/v1/cluster/scheduler answers 404.
        try (MiniYarn yarn = MiniYarn.builder("scheduler-report").nodeManagers(0).nodeSize(4096, 8)
                .set("yarn.scheduler.capacity.root.queues", "default,team-a,org")
                .set("yarn.scheduler.capacity.root.default.capacity", "30")
                .set("yarn.scheduler.capacity.root.team-a.capacity", "50")
                .set("yarn.scheduler.capacity.root.team-a.user-limit-factor", "2")
                .set("yarn.scheduler.capacity.root.org.capacity", "20")
                .set("yarn.scheduler.capacity.root.org.queues", "team-b")
                .set("yarn.scheduler.capacity.root.org.team-b.capacity", "100")
                .start();
                NodeManagerProcess nodeManager = NodeManagerProcess.create(yarn.config(), work.resolve("nm"), List.of(),
                        Map.of("yarn.nodemanager.aux-services", MapReduceClasspath.SHUFFLE_SERVICE))) {
            nodeManager.start();
            Await.until(Duration.ofSeconds(60), () -> yarn.resourceManager().getRMContext().getRMNodes().size() == 1);
            Configuration conf = new Configuration(yarn.config());
            conf.set("mapreduce.job.queuename", "team-a");
            conf.set("yarn.app.mapreduce.am.resource.mb", "512");
            Job job = SleepJobs.submit(conf, 20, 60_000, work.resolve("job"));
            String url = "http://" + yarn.config().get("yarn.resourcemanager.webapp.address") + "/ws/v1/cluster/scheduler";
            HttpClient http = HttpClient.newHttpClient();
            String[] body = new String[1];
            try {
                Await.until(Duration.ofSeconds(90), () -> {
                    body[0] = fetch(http, url);
                    YarnSchedulerReport.LeafQueue a = body[0] == null ? null : leaf(body[0], "root.team-a");
                    return a != null && a.allocated().vcores() > 1 && a.pending().vcores() > 0;
                });
            } catch (java.util.concurrent.TimeoutException e) {
                throw new AssertionError("team-a never had containers and asks pending at " + url + ": job " + job.getStatus().getState()
                        + " " + job.getStatus().getFailureInfo() + "; the report: " + body[0] + " " + last + "\n" + nodeManager.logTail(30), e);
            }
            job.killJob();
            JsonNode doc = JSON.readTree(body[0]);
            YarnSchedulerReport report = YarnSchedulerReport.read(doc, "report");
            assertEquals(List.of("root.default", "root.org.team-b", "root.team-a"), List.copyOf(report.leaves().keySet()));
            YarnSchedulerReport.LeafQueue a = report.leaves().get("root.team-a");
            // The master's container is 512 MiB, each map's 256 MiB, 1 vcore each: memory and vcores read from their fields.
            assertEquals(512 + 256 * (a.allocated().vcores() - 1), a.allocated().memoryMB(), a.toString());
            assertEquals(256 * a.pending().vcores(), a.pending().memoryMB(), a.toString());
            assertNotNull(a.effectiveMaximum(), "Hadoop 3.1+ reports maxEffectiveCapacity");
            assertEquals(4096, a.effectiveMaximum().memoryMB(), "maximum-capacity 100 % of the one node");
            assertEquals(new YarnLeaf.Amount(0, 0), report.leaves().get("root.org.team-b").allocated());

            // The saved report and a tree whose YARN leaves are these queues: team-a's request is all it allocated and asks.
            List<KubeDocuments.Sourced> docs = new ArrayList<>(KubeDocuments.read("-", new ByteArrayInputStream(
                    Files.readAllBytes(Path.of("src/test/resources/quota/tree.yaml")))));
            docs.add(new KubeDocuments.Sourced("scheduler.json", doc));
            QuotaExplained explained = QuotaExplained.of(docs);
            @SuppressWarnings("unchecked")
            Map<String, Object> tree = (Map<String, Object>) ((List<Object>) explained.json().get("trees")).get(0);
            @SuppressWarnings("unchecked")
            Map<String, Object> yarnA = ((List<Map<String, Object>>) tree.get("quotas")).stream()
                    .filter(q -> q.get("name").equals("team-a-yarn")).findFirst().orElseThrow();
            assertEquals(QuotaUnits.write(ResourceAmounts.of("kubernetes.io/batch-cpu", (a.allocated().vcores() + a.pending().vcores()) * 1000L,
                    "kubernetes.io/batch-memory", (a.allocated().memoryMB() + a.pending().memoryMB()) << 20)), yarnA.get("request"), yarnA.toString());
            assertTrue(explained.json().toString().contains("root.team-a"));
        }
    }
}
