package io.colocation.broker.kube;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.colocation.api.InvalidInputException;
import io.colocation.api.KoordinatorKeys;
import io.colocation.broker.calculation.NodeMetricState;
import io.colocation.broker.calculation.NodeMetricInputs;
import io.colocation.broker.slo.ColocationConfigState;
import io.colocation.broker.state.LastGoodConfig;
import io.colocation.kube.client.ApiErrors;
import io.colocation.kube.client.DecodingInformer;
import io.colocation.kube.client.TrimmingItemStore;
import io.colocation.model.slo.NodeMetric;
import io.colocation.model.slo.NodeSLO;
import io.colocation.model.config.ColocationConfig;
import io.colocation.model.node.YarnReleaseResource;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.io.Closeable;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The broker's watch on Kubernetes: informers on Nodes, Pods (indexed by {@code spec.nodeName}),
 * NodeMetrics and NodeSLOs ({@code slo.koordinator.sh/v1alpha1}, decoded object by object into the typed model, so one
 * with a wrongly typed field is named and unusable and never stops the watch) and the {@code slo-controller-config}
 * ConfigMap. Every change wakes the broker through {@code onChange}. A NodeMetric is read into the calculation's state
 * once per resourceVersion; a malformed NodeMetric or ConfigMap is reported by name and does not stop the others.
 */
public final class ClusterView implements ClusterInputs, Closeable {
    private static final Logger LOG = LoggerFactory.getLogger(ClusterView.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String BY_NODE = "spec.nodeName";

    private final KubernetesClient client;
    private final String sloNamespace;
    private final Runnable onChange;
    private final Runnable onSloChange;
    /** The spec generation of each NodeMetric and NodeSLO as last seen: a status report leaves it as it is. */
    private final Map<String, Long> sloGenerations = new ConcurrentHashMap<>();
    private SharedIndexInformer<Node> nodes;
    private SharedIndexInformer<Pod> pods;
    private DecodingInformer<NodeMetric> nodeMetrics;
    private SharedIndexInformer<ConfigMap> sloConfig;
    private DecodingInformer<NodeSLO> nodeSlos;
    private DecodingInformer<YarnReleaseResource> yarnReleases;
    private final Map<String, ParsedMetric> parsedMetrics = new ConcurrentHashMap<>();
    private final java.util.Set<String> changedNodes = ConcurrentHashMap.newKeySet();
    private final java.util.concurrent.atomic.AtomicBoolean everythingChanged = new java.util.concurrent.atomic.AtomicBoolean(true);
    private final ColocationConfigState configState;

    /** A NodeMetric read once per resourceVersion: the state, or why it cannot be used. */
    public record ParsedMetric(String resourceVersion, NodeMetricState state, String error) {
    }

    /** A marker spec for an object that cannot be read: it equals no spec the controllers render, so they rewrite it. */
    public static final JsonNode UNREADABLE_SPEC = JSON.getNodeFactory().textNode("<unreadable>");

    /**
     * @param onChange    told of every change (the arbitration pass)
     * @param onSloChange told only of what the NodeMetric and NodeSLO controllers render from: a node added, deleted or
     *                    relabelled, the ConfigMap, a NodeMetric or NodeSLO added, deleted or with a new spec (a status
     *                    report, a thousand a minute at scale, is not one of them)
     */
    public ClusterView(KubernetesClient client, String sloNamespace, LastGoodConfig lastGood, Runnable onChange, Runnable onSloChange) {
        this.client = client;
        this.configState = new ColocationConfigState(sloNamespace + "/" + KoordinatorKeys.SLO_CONFIGMAP_NAME, lastGood);
        this.sloNamespace = sloNamespace;
        this.onChange = onChange;
        this.onSloChange = onSloChange;
    }

    /**
     * Checks the API server answers and serves NodeMetrics, then starts the informers and waits until each
     * has listed its objects once; all within {@code timeout}. Failures say which server, and why.
     */
    public void start(Duration timeout) throws TimeoutException, InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        boolean nodeSloServed = preflight(timeout);
        startInformers(timeout, deadline, nodeSloServed, yarnReleaseServed(Duration.ofNanos(Math.max(deadline - System.nanoTime(), 1))));
    }

    /**
     * The API server answers (URL and cause when not) and has the NodeMetric CRD (how to install it when not).
     * Returns whether it serves NodeSLO too.
     */
    private boolean preflight(Duration timeout) throws TimeoutException, InterruptedException {
        String url = String.valueOf(client.getMasterUrl());
        java.util.concurrent.CompletableFuture<java.util.Set<String>> check = java.util.concurrent.CompletableFuture.supplyAsync(() -> {
            io.fabric8.kubernetes.api.model.APIResourceList resources = client.getApiResources(KoordinatorKeys.NODE_METRIC_API_VERSION);
            return resources == null ? java.util.Set.of()
                    : resources.getResources().stream().map(io.fabric8.kubernetes.api.model.APIResource::getKind)
                            .collect(java.util.stream.Collectors.toSet());
        });
        java.util.Set<String> kinds;
        try {
            kinds = check.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            check.cancel(true);
            String refused = ApiErrors.unreachable(client);
            if (refused != null) {
                throw new TimeoutException("cannot reach the Kubernetes API server " + url + ": " + refused);
            }
            throw new TimeoutException("the Kubernetes API server " + url + " did not answer within " + timeout.toSeconds()
                    + " s (kubernetes.startupTimeoutSeconds): it accepts connections but sends no reply");
        } catch (ExecutionException e) {
            String cause = ApiErrors.describe(e.getCause() == null ? e : e.getCause());
            if (cause != null && cause.contains("404")) {
                kinds = java.util.Set.of();
            } else {
                throw new TimeoutException("cannot reach the Kubernetes API server " + url + ": " + cause);
            }
        }
        boolean served = kinds.contains(KoordinatorKeys.NODE_METRIC_KIND);
        boolean nodeSloServed = kinds.contains("NodeSLO");
        if (served && !nodeSloServed) {
            LOG.warn("the Kubernetes API server {} does not serve NodeSLO ({}): the NodeSLO controller is off until the CRD is"
                    + " installed (kubectl apply -f conf/kubernetes/crds/slo.koordinator.sh_nodeslos.yaml) and the broker restarted",
                    url, KoordinatorKeys.NODE_METRIC_API_VERSION);
        }
        if (!served) {
            throw new TimeoutException("the Kubernetes API server " + url + " does not serve " + KoordinatorKeys.NODE_METRIC_KIND
                    + " (" + KoordinatorKeys.NODE_METRIC_API_VERSION + "): is the CRD installed? kubectl apply -f"
                    + " conf/kubernetes/crds/slo.koordinator.sh_nodemetrics.yaml");
        }
        return nodeSloServed;
    }

    /** Whether the API server serves YarnRelease; when not, the koordlets' graceful YARN releases are not read (warned). */
    private boolean yarnReleaseServed(Duration timeout) {
        java.util.concurrent.CompletableFuture<Boolean> check = java.util.concurrent.CompletableFuture.supplyAsync(() -> {
            io.fabric8.kubernetes.api.model.APIResourceList resources = client.getApiResources(YarnReleaseResource.API_VERSION);
            return resources != null && resources.getResources().stream().anyMatch(r -> YarnReleaseResource.KIND.equals(r.getKind()));
        });
        boolean served;
        try {
            served = check.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            served = false;
        } catch (ExecutionException | TimeoutException e) {
            check.cancel(true);
            served = false;
        }
        if (!served) {
            LOG.warn("the Kubernetes API server {} does not serve {} ({}): the koordlets' graceful YARN releases are not read until the"
                    + " CRD is installed (kubectl apply -f conf/kubernetes/crds/colocation.io_yarnreleases.yaml) and the broker restarted",
                    client.getMasterUrl(), YarnReleaseResource.KIND, YarnReleaseResource.API_VERSION);
        }
        return served;
    }

    private void startInformers(Duration timeout, long deadline, boolean nodeSloServed, boolean yarnReleaseServed)
            throws TimeoutException, InterruptedException {
        ResourceEventHandler<Object> wake = new ResourceEventHandler<>() {
            @Override
            public void onAdd(Object obj) {
                changed(obj);
                if (!(obj instanceof Pod)) {
                    onSloChange.run();
                }
            }

            @Override
            public void onUpdate(Object oldObj, Object newObj) {
                changed(oldObj);
                changed(newObj);
                if (newObj instanceof ConfigMap || newObj instanceof Node n && oldObj instanceof Node o
                        && !java.util.Objects.equals(n.getMetadata().getLabels(), o.getMetadata().getLabels())) {
                    onSloChange.run();
                }
            }

            @Override
            public void onDelete(Object obj, boolean deletedFinalStateUnknown) {
                changed(obj);
                if (!(obj instanceof Pod)) {
                    onSloChange.run();
                }
            }
        };
        nodes = client.nodes().runnableInformer(0).itemStore(TrimmingItemStore.trimmingMetadata());
        pods = client.pods().inAnyNamespace().runnableInformer(0).itemStore(TrimmingItemStore.trimmingMetadata());
        pods.addIndexers(Map.of(BY_NODE, pod -> {
            String node = pod.getSpec() == null ? null : pod.getSpec().getNodeName();
            return List.of(node == null ? "" : node);
        }));
        nodeMetrics = DecodingInformer.all(client, NodeMetric.class).addListener((name, now) -> {
            changedNodes.add(name);
            onChange.run();
            sloObjectChanged("NodeMetric/" + name, now);
        });
        sloConfig = client.configMaps().inNamespace(sloNamespace).withName(KoordinatorKeys.SLO_CONFIGMAP_NAME)
                .runnableInformer(0);
        if (nodeSloServed) {
            nodeSlos = DecodingInformer.all(client, NodeSLO.class).addListener((name, now) -> {
                onChange.run();
                sloObjectChanged("NodeSLO/" + name, now);
            });
        }
        if (yarnReleaseServed) {
            yarnReleases = DecodingInformer.all(client, YarnReleaseResource.class).addListener((name, now) -> {
                changedNodes.add(name);
                onChange.run();
            });
        }
        for (SharedIndexInformer<?> informer : List.of(nodes, pods, sloConfig)) {
            @SuppressWarnings("unchecked")
            SharedIndexInformer<Object> i = (SharedIndexInformer<Object>) informer;
            i.addEventHandler(wake);
        }
        List<Watch> all = watches();
        for (Watch w : all) {
            long left = Math.max(deadline - System.nanoTime(), 1);
            try {
                w.start().get().toCompletableFuture().get(left, TimeUnit.NANOSECONDS);
            } catch (ExecutionException e) {
                throw new TimeoutException("cannot watch " + w.what() + " on " + client.getMasterUrl() + ": "
                        + ApiErrors.describe(e.getCause() == null ? e : e.getCause()));
            } catch (TimeoutException e) {
                throw new TimeoutException("no initial list of " + w.what() + " from " + client.getMasterUrl()
                        + " within " + timeout.toSeconds() + " s");
            }
        }
    }

    /** One watch: what it lists (for messages and the health check), and how to start, ask and stop it. */
    private record Watch(String name, String what, java.util.function.Supplier<java.util.concurrent.CompletionStage<Void>> start,
            java.util.function.BooleanSupplier watching, Runnable close) {
    }

    private List<Watch> watches() {
        List<Watch> out = new ArrayList<>();
        out.add(new Watch("nodes", "Nodes", nodes::start, nodes::isWatching, nodes::close));
        out.add(new Watch("pods", "Pods", pods::start, pods::isWatching, pods::close));
        out.add(new Watch("nodemetrics", "NodeMetrics (" + KoordinatorKeys.NODE_METRIC_API_VERSION + "; is the CRD installed?)",
                nodeMetrics::start, nodeMetrics::isWatching, nodeMetrics::close));
        out.add(new Watch("slo-controller-config", "ConfigMap " + sloNamespace + "/" + KoordinatorKeys.SLO_CONFIGMAP_NAME,
                sloConfig::start, sloConfig::isWatching, sloConfig::close));
        if (nodeSlos != null) {
            out.add(new Watch("nodeslos", "NodeSLOs", nodeSlos::start, nodeSlos::isWatching, nodeSlos::close));
        }
        if (yarnReleases != null) {
            out.add(new Watch("yarnreleases", "YarnReleases", yarnReleases::start, yarnReleases::isWatching, yarnReleases::close));
        }
        return out;
    }

    /** Wakes the NodeMetric and NodeSLO controllers when such an object came, went or got a new spec (not on a status). */
    private void sloObjectChanged(String key, DecodingInformer.Decoded<?> now) {
        Long generation = now == null || now.value() == null ? null : ((io.fabric8.kubernetes.api.model.HasMetadata) now.value())
                .getMetadata().getGeneration();
        Long before = now == null ? sloGenerations.remove(key) : sloGenerations.put(key, generation == null ? -1L : generation);
        if (now == null || before == null || generation == null || !before.equals(generation)) {
            onSloChange.run();
        }
    }

    /** Records which node an event concerns (or that every node is concerned) and wakes the broker. */
    private void changed(Object object) {
        if (object instanceof Node n) {
            changedNodes.add(n.getMetadata().getName());
        } else if (object instanceof Pod p) {
            String node = p.getSpec() == null ? null : p.getSpec().getNodeName();
            if (node == null || node.isEmpty()) {
                everythingChanged.set(true); // an unbound pod is Kubernetes' demand, which every node's split uses
            } else {
                changedNodes.add(node);
            }
        } else if (object instanceof ConfigMap) {
            everythingChanged.set(true);
        }
        onChange.run();
    }

    @Override
    public Changes takeChanges() {
        boolean everything = everythingChanged.getAndSet(false);
        java.util.Set<String> nodes = new java.util.HashSet<>();
        for (java.util.Iterator<String> it = changedNodes.iterator(); it.hasNext();) {
            nodes.add(it.next());
            it.remove();
        }
        return new Changes(nodes, everything);
    }

    /** Whether every informer is watching (the API server answers). */
    @Override
    public boolean watching() {
        return notWatching().isEmpty();
    }

    /** Which informers are not watching, for the health check. */
    public List<String> notWatching() {
        List<String> down = new ArrayList<>();
        for (Watch w : watches()) {
            if (!w.watching().getAsBoolean()) {
                down.add(w.name());
            }
        }
        return down;
    }

    public String apiServer() {
        return String.valueOf(client.getMasterUrl());
    }

    @Override
    public List<Node> nodes() {
        return nodes.getStore().list();
    }

    @Override
    public List<Pod> podsOn(String nodeName) {
        return pods.getIndexer().byIndex(BY_NODE, nodeName);
    }

    /** Every pod the informer holds. */
    public List<Pod> pods() {
        return pods.getStore().list();
    }

    /** Pods not bound to any node yet (the scheduler's queue). */
    @Override
    public List<Pod> unboundPods() {
        return pods.getIndexer().byIndex(BY_NODE, "");
    }

    /** The node's NodeMetric, read (cached per resourceVersion), or empty when there is none. */
    @Override
    public Optional<ParsedMetric> nodeMetric(String nodeName) {
        Optional<DecodingInformer.Decoded<NodeMetric>> entry = nodeMetrics.get(nodeName);
        if (entry.isEmpty()) {
            parsedMetrics.remove(nodeName);
            return Optional.empty();
        }
        String version = entry.get().resourceVersion();
        ParsedMetric cached = parsedMetrics.get(nodeName);
        if (cached != null && version != null && version.equals(cached.resourceVersion())) {
            return Optional.of(cached);
        }
        ParsedMetric parsed;
        if (!entry.get().readable()) {
            parsed = new ParsedMetric(version, null, entry.get().error());
        } else {
            try {
                parsed = new ParsedMetric(version, NodeMetricInputs.read(entry.get().value()), null);
            } catch (InvalidInputException e) {
                LOG.warn("NodeMetric {} (resourceVersion {}) is unusable, the node degrades: {}", nodeName, version, e.getMessage());
                parsed = new ParsedMetric(version, null, e.getMessage());
            }
        }
        parsedMetrics.put(nodeName, parsed);
        return Optional.of(parsed);
    }

    @Override
    public Optional<YarnReleaseResource> yarnRelease(String nodeName) {
        return yarnReleases == null ? Optional.empty() : yarnReleases.get(nodeName).map(DecodingInformer.Decoded::value);
    }

    /**
     * The colocation config of the ConfigMap: Koordinator's defaults when it is absent. When an update is
     * malformed: the last good one, with the error to report ({@link ColocationConfigState}).
     */
    @Override
    public ColocationConfig colocationConfig() {
        ConfigMap cm = sloConfigMap();
        return configState.update(cm == null ? null : cm.getMetadata().getResourceVersion(),
                cm == null || cm.getData() == null ? null : cm.getData().get(KoordinatorKeys.COLOCATION_CONFIG_KEY), cm != null);
    }

    /** False when the ConfigMap is malformed and no good configuration is known: nodes must be frozen. */
    @Override
    public boolean configUsable() {
        return configState.usable();
    }

    /** Every readable NodeMetric by name. */
    public Map<String, NodeMetric> nodeMetrics() {
        Map<String, NodeMetric> out = new java.util.HashMap<>();
        nodeMetrics.values().forEach(m -> out.put(m.getMetadata().getName(), m));
        return out;
    }

    /** The NodeMetrics that exist but cannot be read, and why (their controller rewrites their spec). */
    public Map<String, String> unreadableNodeMetrics() {
        return nodeMetrics.unreadable();
    }

    /** Whether the API server serves NodeSLO (its CRD was installed when the broker started). */
    public boolean nodeSloServed() {
        return nodeSlos != null;
    }

    /** Every readable NodeSLO by name; empty when NodeSLO is not served. */
    public Map<String, NodeSLO> nodeSlos() {
        Map<String, NodeSLO> out = new java.util.HashMap<>();
        if (nodeSlos != null) {
            nodeSlos.values().forEach(n -> out.put(n.getMetadata().getName(), n));
        }
        return out;
    }

    /** The NodeSLOs that exist but cannot be read, and why (their controller rewrites them). */
    public Map<String, String> unreadableNodeSlos() {
        return nodeSlos == null ? Map.of() : nodeSlos.unreadable();
    }

    /** The {@code slo-controller-config} ConfigMap, null when there is none. */
    public ConfigMap sloConfigMap() {
        return sloConfig.getStore().getByKey(sloNamespace + "/" + KoordinatorKeys.SLO_CONFIGMAP_NAME);
    }

    /** Why the last ConfigMap update was refused, or null. */
    @Override
    public String configError() {
        return configState.error();
    }

    @Override
    public void close() {
        if (nodes != null) {
            watches().forEach(w -> w.close().run());
        }
    }
}
