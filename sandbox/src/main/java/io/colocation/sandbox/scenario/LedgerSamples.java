package io.colocation.sandbox.scenario;

import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * The broker's ledgers sampled every second of the scenario: the cluster's CPU use, Batch and each side's use (mean
 * and peak), the lowest Batch in the spike, the busiest node's utilisation, and every node sample that was
 * overcommitted (granted beyond origin).
 */
final class LedgerSamples {
    private final int nodeCores;
    /** A node's size relative to the standard node. */
    private final ToDoubleFunction<String> scale;
    private long samples;
    private long overcommit;
    private double nodeUsageSum;
    private double nodeUsagePeak;
    private double batchSum;
    private double batchAtSpike = Double.NaN;
    private double kubernetesPeak;
    private double yarnPeak;
    private double utilisationPeak;

    LedgerSamples(int nodeCores, ToDoubleFunction<String> scale) {
        this.nodeCores = nodeCores;
        this.scale = scale;
    }

    void sample(Map<String, BrokerView.Ledger> ledgers, boolean inSpike) {
        if (ledgers.isEmpty()) {
            return;
        }
        samples++;
        double nodeUsage = 0;
        double batch = 0;
        double k8s = 0;
        double y = 0;
        for (BrokerView.Ledger l : ledgers.values()) {
            if (l.overcommitCpu() > 0 || l.overcommitMemory() > 0) {
                overcommit++;
            }
            nodeUsage += l.nodeUsageCpu() / 1000.0;
            batch += l.originCpu() / 1000.0;
            k8s += l.kubernetesUsedCpu() / 1000.0;
            y += l.yarnUsedCpu() / 1000.0;
            utilisationPeak = Math.max(utilisationPeak, 100.0 * l.nodeUsageCpu() / (nodeCores * scale.applyAsDouble(l.node()) * 1000.0));
        }
        nodeUsageSum += nodeUsage;
        nodeUsagePeak = Math.max(nodeUsagePeak, nodeUsage);
        batchSum += batch;
        kubernetesPeak = Math.max(kubernetesPeak, k8s);
        yarnPeak = Math.max(yarnPeak, y);
        if (inSpike) {
            batchAtSpike = Double.isNaN(batchAtSpike) ? batch : Math.min(batchAtSpike, batch);
        }
    }

    double nodeUsageAverage() {
        return samples == 0 ? 0 : nodeUsageSum / samples;
    }

    double nodeUsagePeak() {
        return nodeUsagePeak;
    }

    double batchAverage() {
        return samples == 0 ? 0 : batchSum / samples;
    }

    /** The lowest Batch while the spike lasted; 0 when no sample fell in it. */
    double batchAtSpike() {
        return Double.isNaN(batchAtSpike) ? 0 : batchAtSpike;
    }

    double kubernetesPeak() {
        return kubernetesPeak;
    }

    double yarnPeak() {
        return yarnPeak;
    }

    double utilisationPeakPercent() {
        return utilisationPeak;
    }

    long overcommitSamples() {
        return overcommit;
    }

    /** Rounds sampled (each of every node). */
    long samples() {
        return samples;
    }
}
