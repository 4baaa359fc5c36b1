package io.colocation.koordlet.predict;

import io.colocation.api.PriorityClass;
import io.colocation.koordlet.cache.MetricCache;
import io.colocation.koordlet.cache.Points;
import io.colocation.koordlet.config.KoordletConfig;
import io.colocation.model.Resources;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Koordinator's peak predict server (docs/koordinator-compatibility.md §3.2, §13): a decaying CPU and memory histogram per
 * pod, per priority class, for system usage and for the node, trained from the metric cache every training
 * interval, garbage-collected when not updated, checkpointed so a restart keeps what was learned.
 */
public final class PeakPredictServer {
    private static final Logger LOG = LoggerFactory.getLogger(PeakPredictServer.class);

    public record Settings(Duration cpuHalfLife, Duration memoryHalfLife, Duration trainingInterval, Duration expiration,
            Duration checkpointInterval, int checkpointMaxPerStep) {
    }

    /** The predictor the koordlet's prediction flags describe; checkpoints kept only when a directory is set. */
    public static PeakPredictServer of(KoordletConfig.Prediction p) {
        return new PeakPredictServer(new Settings(
                KoordletConfig.duration(p.cpuHistogramDecayHalfLife, "prediction.cpuHistogramDecayHalfLife"),
                KoordletConfig.duration(p.memoryHistogramDecayHalfLife, "prediction.memoryHistogramDecayHalfLife"),
                KoordletConfig.duration(p.trainingInterval, "prediction.trainingInterval"),
                KoordletConfig.duration(p.modelExpirationDuration, "prediction.modelExpirationDuration"),
                KoordletConfig.duration(p.modelCheckpointInterval, "prediction.modelCheckpointInterval"),
                p.modelCheckpointMaxPerStep), p.checkpointDir == null || p.checkpointDir.isBlank()
                        ? null : new PredictionCheckpointStore(java.nio.file.Path.of(p.checkpointDir)));
    }

    private static final class Model {
        final DecayingHistogram cpu;
        final DecayingHistogram memory;
        Instant lastUpdated;
        Instant lastCheckpointed = Instant.EPOCH;

        Model(Settings s) {
            cpu = new DecayingHistogram(ExponentialBuckets.CPU, s.cpuHalfLife().toMillis());
            memory = new DecayingHistogram(ExponentialBuckets.MEMORY, s.memoryHalfLife().toMillis());
        }
    }

    private final Settings settings;
    private final PredictionCheckpointStore store;
    private final Map<String, Model> models = new HashMap<>();
    private boolean trained;

    /** @param store where models are checkpointed; null: nowhere (a simulated host keeps its models in memory only) */
    public PeakPredictServer(Settings settings, PredictionCheckpointStore store) {
        this.settings = settings;
        this.store = store;
    }

    /** Loads checkpoints of the node items and of {@code podUids}; the rest are deleted. */
    public synchronized void restore(Set<String> podUids) {
        if (store == null) {
            return;
        }
        Set<String> nodeItems = nodeModelUids();
        for (PredictionCheckpointStore.Stored s : store.restore(uid -> podUids.contains(uid) || nodeItems.contains(uid))) {
            Model m = new Model(settings);
            try {
                m.cpu.load(s.cpu());
                m.memory.load(s.memory());
            } catch (IOException e) {
                LOG.warn("prediction checkpoint of {} is unusable ({}); that model starts fresh", s.uid(), e.getMessage());
                store.delete(s.uid());
                continue;
            }
            m.lastUpdated = s.lastUpdated();
            models.put(s.uid(), m);
        }
    }

    private static Set<String> nodeModelUids() {
        Set<String> uids = new HashSet<>();
        uids.add(ProdReclaimablePredictor.NODE_UID);
        uids.add(ProdReclaimablePredictor.nodeItemUid(ProdReclaimablePredictor.SYSTEM_ITEM));
        for (PriorityClass c : PriorityClass.values()) {
            uids.add(ProdReclaimablePredictor.nodeItemUid(c.koordName()));
        }
        return uids;
    }

    /**
     * One training round: each pod's P90 over the last training interval (a pod without samples is skipped),
     * Σ per priority class, the node's own P90, and system = max(node − Σ pods, 0); each added with weight 1.
     */
    public synchronized void train(MetricCache cache, List<PredictorPod> pods, Instant now) {
        long to = now.toEpochMilli();
        long from = to - settings.trainingInterval().toMillis();
        Map<PriorityClass, double[]> byClass = new EnumMap<>(PriorityClass.class);
        for (PriorityClass c : PriorityClass.values()) {
            byClass.put(c, new double[2]);
        }
        double[] allPods = new double[2];
        for (PredictorPod pod : pods) {
            Points cpu = cache.points(MetricCache.Kind.POD, pod.uid(), true, from, to);
            Points mem = cache.points(MetricCache.Kind.POD, pod.uid(), false, from, to);
            if (cpu.isEmpty() || mem.isEmpty()) {
                continue;
            }
            double c = cpu.percentile(0.9);
            double m = mem.percentile(0.9);
            add(pod.uid(), c, m, now);
            double[] sum = byClass.get(pod.priorityClass());
            sum[0] += c;
            sum[1] += m;
            allPods[0] += c;
            allPods[1] += m;
        }
        byClass.forEach((c, sum) -> add(ProdReclaimablePredictor.nodeItemUid(c.koordName()), sum[0], sum[1], now));
        Points nodeCpu = cache.points(MetricCache.Kind.NODE, MetricCache.NODE_ID, true, from, to);
        Points nodeMem = cache.points(MetricCache.Kind.NODE, MetricCache.NODE_ID, false, from, to);
        double sysCpu = 0;
        double sysMem = 0;
        if (!nodeCpu.isEmpty() && !nodeMem.isEmpty()) {
            double c = nodeCpu.percentile(0.9);
            double m = nodeMem.percentile(0.9);
            add(ProdReclaimablePredictor.NODE_UID, c, m, now);
            sysCpu = Math.max(c - allPods[0], 0);
            sysMem = Math.max(m - allPods[1], 0);
        }
        add(ProdReclaimablePredictor.nodeItemUid(ProdReclaimablePredictor.SYSTEM_ITEM), sysCpu, sysMem, now);
        trained = true;
    }

    private void add(String uid, double cpuCores, double memoryBytes, Instant now) {
        Model m = models.computeIfAbsent(uid, u -> new Model(settings));
        m.cpu.addSample(cpuCores, 1, now);
        m.memory.addSample(memoryBytes, 1, now);
        m.lastUpdated = now;
    }

    public synchronized Optional<Prediction> prediction(String uid) {
        Model m = models.get(uid);
        if (m == null) {
            return Optional.empty();
        }
        return Optional.of(new Prediction(at(m, 0.6), at(m, 0.9), at(m, 0.95), at(m, 0.98), at(m, 1.0)));
    }

    private static Resources at(Model m, double p) {
        return new Resources((long) (m.cpu.percentile(p) * 1000), (long) m.memory.percentile(p));
    }

    public synchronized int modelCount() {
        return models.size();
    }

    /** Drops models not updated for the expiration duration, with their files. */
    public synchronized void collectGarbage(Instant now) {
        if (!trained) {
            return;
        }
        Instant horizon = now.minus(settings.expiration());
        List<String> expired = models.entrySet().stream().filter(e -> e.getValue().lastUpdated.isBefore(horizon))
                .map(Map.Entry::getKey).toList();
        for (String uid : expired) {
            models.remove(uid);
            if (store != null) {
                store.delete(uid);
            }
        }
    }

    /**
     * Saves the models checkpointed longest ago, at most {@code checkpointMaxPerStep}, stopping at the first saved
     * within the checkpoint interval; {@code all} saves every model (shutdown).
     */
    public synchronized int checkpoint(Instant now, boolean all) {
        if (store == null || !trained && !all) {
            return 0;
        }
        List<Map.Entry<String, Model>> order = new ArrayList<>(models.entrySet());
        order.sort(Comparator.comparing(e -> e.getValue().lastCheckpointed));
        int saved = 0;
        for (Map.Entry<String, Model> e : order) {
            Model m = e.getValue();
            if (!all && (saved >= settings.checkpointMaxPerStep()
                    || Duration.between(m.lastCheckpointed, now).compareTo(settings.checkpointInterval()) < 0)) {
                break;
            }
            try {
                store.save(new PredictionCheckpointStore.Stored(e.getKey(), m.cpu.toCheckpoint(), m.memory.toCheckpoint(), now));
                m.lastCheckpointed = now;
                saved++;
            } catch (IOException | RuntimeException x) {
                LOG.warn("prediction checkpoint of {} not saved in {}: {}", e.getKey(), store.dir(), x.toString());
                break;
            }
        }
        return saved;
    }
}
