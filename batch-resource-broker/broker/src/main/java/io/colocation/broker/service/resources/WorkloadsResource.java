package io.colocation.broker.service.resources;

import io.colocation.api.yarn.YarnApplications;
import io.colocation.broker.workloads.KubernetesWorkloads;
import io.colocation.broker.yarn.YarnSide;
import io.fabric8.kubernetes.api.model.Pod;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * {@code GET /api/v1/workloads}: who uses Batch. Kubernetes batch pods grouped into workloads (a Spark
 * application, a Job, ...) and, for each YARN cluster, its applications as the scheduler plugin last reported
 * them ({@code reported: false} when that cluster's side does not report applications, or has not yet).
 */
@Path("/api/v1/workloads")
@Produces(MediaType.APPLICATION_JSON)
public final class WorkloadsResource {
    private final Supplier<Collection<Pod>> pods;
    private final Map<String, YarnSide> yarnSides;

    public record YarnCluster(String clusterId, boolean reported, Long reportedAtMillis, List<YarnApplications.Application> applications,
            int omitted) {
    }

    public record Workloads(List<KubernetesWorkloads.Workload> kubernetes, List<YarnCluster> yarn) {
    }

    public WorkloadsResource(Supplier<Collection<Pod>> pods, Map<String, YarnSide> yarnSides) {
        this.pods = pods;
        this.yarnSides = yarnSides;
    }

    @GET
    public Workloads workloads() {
        List<YarnCluster> yarn = new ArrayList<>();
        yarnSides.forEach((id, side) -> {
            Optional<YarnApplications> apps = side.applications();
            yarn.add(apps.map(a -> new YarnCluster(id, true, a.reportedAtMillis(), a.applications(), a.omitted()))
                    .orElseGet(() -> new YarnCluster(id, false, null, List.of(), 0)));
        });
        return new Workloads(KubernetesWorkloads.of(pods.get()), yarn);
    }
}
