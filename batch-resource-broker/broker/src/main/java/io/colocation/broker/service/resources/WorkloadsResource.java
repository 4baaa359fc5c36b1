package io.colocation.broker.service.resources;

import io.colocation.api.yarn.YarnApplications;
import io.colocation.broker.workloads.KubernetesWorkloads;
import io.colocation.broker.yarn.YarnSide;
import io.fabric8.kubernetes.api.model.Pod;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.WebApplicationException;
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

    /** {@code kubernetesOmitted}: workloads beyond {@code limit}, the smallest. */
    public record Workloads(List<KubernetesWorkloads.Workload> kubernetes, int kubernetesOmitted, List<YarnCluster> yarn) {
    }

    public WorkloadsResource(Supplier<Collection<Pod>> pods, Map<String, YarnSide> yarnSides) {
        this.pods = pods;
        this.yarnSides = yarnSides;
    }

    /** {@code limit}: at most this many workloads per side and cluster, the largest (the console asks for 50); all without it. */
    @GET
    public Workloads workloads(@QueryParam("limit") @DefaultValue("-1") int limit) {
        if (limit < -1 || limit == 0) {
            throw new WebApplicationException("limit must be 1 or more, not " + limit, 400);
        }
        List<YarnCluster> yarn = new ArrayList<>();
        yarnSides.forEach((id, side) -> {
            Optional<YarnApplications> apps = side.applications();
            yarn.add(apps.map(a -> {
                List<YarnApplications.Application> listed = head(a.applications(), limit);
                return new YarnCluster(id, true, a.reportedAtMillis(), listed, a.omitted() + a.applications().size() - listed.size());
            }).orElseGet(() -> new YarnCluster(id, false, null, List.of(), 0)));
        });
        List<KubernetesWorkloads.Workload> kubernetes = KubernetesWorkloads.of(pods.get());
        List<KubernetesWorkloads.Workload> shown = head(kubernetes, limit);
        return new Workloads(shown, kubernetes.size() - shown.size(), yarn);
    }

    private static <T> List<T> head(List<T> all, int limit) {
        return limit < 0 || all.size() <= limit ? all : all.subList(0, limit);
    }
}
