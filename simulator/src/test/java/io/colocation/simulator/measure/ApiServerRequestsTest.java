package io.colocation.simulator.measure;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** The API server's request counters read from its own text (other metrics ignored), and a day's worth as the difference of two reads. */
class ApiServerRequestsTest {
    private static final String BEFORE = """
            # HELP apiserver_request_total [STABLE] Counter of apiserver requests
            # TYPE apiserver_request_total counter
            apiserver_request_total{code="200",component="apiserver",contentType="application/json",dry_run="",group="",resource="nodes",scope="resource",subresource="status",verb="PATCH",version="v1"} 10
            apiserver_request_total{code="409",component="apiserver",contentType="application/json",dry_run="",group="",resource="nodes",scope="resource",subresource="status",verb="PATCH",version="v1"} 2
            apiserver_request_total{code="201",component="apiserver",contentType="application/json",dry_run="",group="",resource="pods",scope="resource",subresource="binding",verb="POST",version="v1"} 5
            apiserver_request_total{code="200",component="apiserver",contentType="application/vnd.kubernetes.protobuf",dry_run="",group="",resource="pods",scope="cluster",subresource="",verb="LIST",version="v1"} 3
            apiserver_request_total_other{verb="PATCH"} 99
            apiserver_watch_events_total{group="",kind="Pod",version="v1"} 40
            apiserver_watch_events_total{group="slo.koordinator.sh",kind="NodeMetric",version="v1alpha1"} 7
            """;

    @Test
    void requestsByVerbAndResourceWritesAndWatchEvents() {
        ApiServerRequests.Counts before = ApiServerRequests.parse(BEFORE);
        assertEquals(Map.of("PATCH nodes/status", 12.0, "POST pods/binding", 5.0, "LIST pods", 3.0), before.requests());
        assertEquals(20.0, before.totalRequests());
        assertEquals(17.0, before.writes(), "PATCH and POST change what etcd holds, LIST does not");
        ApiServerRequests.Counts after = ApiServerRequests.parse(BEFORE.replace("} 10", "} 110"));
        ApiServerRequests.Counts day = after.since(before);
        assertEquals(Map.of("PATCH nodes/status", 100.0), day.requests());
        assertEquals(ApiServerRequests.Counts.NONE, ApiServerRequests.parse(null));
    }
}
