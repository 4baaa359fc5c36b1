package io.colocation.broker.publication;

import io.colocation.api.yarn.YarnGrant;
import io.colocation.broker.decision.NodeWork;
import io.colocation.broker.kube.KubernetesSide;
import io.colocation.broker.ledger.NodeLedger.Publication;
import io.colocation.broker.yarn.NotLeaderException;
import io.colocation.broker.yarn.YarnSide;
import io.colocation.broker.yarn.YarnUnits;
import io.colocation.model.Resources;
import java.io.IOException;
import java.time.Instant;
import java.util.Map;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Carries out a node's {@link PublicationPlan}: the broker's one writer to both sides. It checks the fence right before
 * each write (the API server cannot check an epoch; a YARN side's own epoch check in ZooKeeper stays the last word),
 * stops the plan at the first step the fence refuses, and keeps what was written in the node's {@link NodeMemory}.
 */
public final class PublicationExecutor {
    private static final Logger LOG = LoggerFactory.getLogger(PublicationExecutor.class);

    private final KubernetesSide kubernetes;
    private final Map<String, YarnSide> yarnSides;
    private final PublicationMemory memory;
    private final BooleanSupplier fenceHolds;

    /** @param fenceHolds whether this replica still leads with the epoch it resumed */
    public PublicationExecutor(KubernetesSide kubernetes, Map<String, YarnSide> yarnSides, PublicationMemory memory, BooleanSupplier fenceHolds) {
        this.kubernetes = kubernetes;
        this.yarnSides = yarnSides;
        this.memory = memory;
        this.fenceHolds = fenceHolds;
    }

    /** The node's memory after the plan, and the YARN grant as persisted by its write (null: none written). */
    public record Outcome(NodeMemory memory, YarnGrant yarnWritten) {
    }

    public Outcome execute(NodeWork w, PublicationPlan plan, Instant now) {
        String node = w.node();
        boolean originShown = false;
        if (plan.kubernetes() != null) {
            if (!fenceHolds.getAsBoolean()) {
                return new Outcome(memory.of(node), null);
            }
            originShown = share(w, plan.kubernetes(), now);
        }
        if (plan.origin() != null && !originShown) {
            if (!fenceHolds.getAsBoolean()) {
                return new Outcome(memory.of(node), null);
            }
            originShown = origin(node, plan.origin());
        }
        YarnGrant written = null;
        PublicationPlan.YarnGrantStep yarn = plan.yarn();
        if (yarn != null && (originShown || !yarn.needsOrigin()) && fenceHolds.getAsBoolean()) {
            written = yarnGrant(node, yarn, now);
        }
        return new Outcome(memory.of(node), written);
    }

    /** Writes Kubernetes' share; true when it landed. */
    private boolean share(NodeWork w, PublicationPlan.KubernetesShare share, Instant now) {
        String node = w.node();
        Resources batch = share.publication().batch();
        try {
            kubernetes.publish(node, w.object(), share.publication());
        } catch (IOException | RuntimeException e) {
            LOG.warn("node {}: Kubernetes publication failed: {}", node, e.getMessage());
            Publication failed = new Publication(now, batch, share.reason(), e.getMessage());
            memory.update(node, m -> m.withKubernetesFailure(failed));
            return false;
        }
        Publication pub = new Publication(now, batch, share.reason(), null);
        NodeMemory.Written written = new NodeMemory.Written(batch, share.publication().mid(), now);
        memory.update(node, m -> m.withKubernetes(written, share.publication().origin(),
                share.shrinksFrom() != null && !memory.settle().isZero() ? new NodeMemory.Shrink(share.shrinksFrom(), System.nanoTime())
                        : m.settling(), pub));
        LOG.info("node {}: Kubernetes batch {} ({}), origin {}, used k8s {} / yarn {}", node, describe(batch), share.reason(),
                describe(share.publication().origin()), describe(w.basis().kubernetesUsed()), describe(share.publication().yarnUsed()));
        return true;
    }

    /** Writes the origin annotation alone; true when it landed. */
    private boolean origin(String node, PublicationPlan.OriginCover cover) {
        try {
            kubernetes.publishOrigin(node, cover.publication());
        } catch (IOException | RuntimeException e) {
            LOG.warn("node {}: cannot publish its origin before YARN's grant grows: {}", node, e.getMessage());
            return false;
        }
        memory.update(node, m -> m.withOrigin(cover.publication().origin()));
        return true;
    }

    private YarnGrant yarnGrant(String node, PublicationPlan.YarnGrantStep step, Instant now) {
        Resources wanted = YarnUnits.of(step.grant());
        YarnSide.Usage keep = step.keep();
        YarnGrant g;
        try {
            g = yarnSides.get(step.clusterId()).publish(step.nodeId(), step.grant().vcores(), step.grant().memoryMB(), keep);
        } catch (NotLeaderException | IOException | RuntimeException e) {
            LOG.warn("node {}: YARN publication failed: {}", node, e.getMessage());
            Publication failed = new Publication(now, wanted, step.reason(), e.getMessage());
            memory.update(node, m -> m.withYarnFailure(failed));
            return null;
        }
        Publication pub = new Publication(now, wanted, step.reason(), null);
        memory.update(node, m -> m.withYarn(wanted, YarnUnits.of(keep), pub));
        LOG.info("node {}: YARN {} grant {} vcores / {} MiB{} (epoch {}, version {}; {})", node, step.nodeId(), step.grant().vcores(),
                step.grant().memoryMB(), keep.equals(YarnSide.Usage.NONE) ? ""
                        : ", keeping " + keep.vcores() + " vcores / " + keep.memoryMB() + " MiB from preemption",
                g.epoch(), g.version(), step.reason());
        return g;
    }

    /** Batch as the log shows it: milli-cores and MiB, or "removed". */
    private static String describe(Resources r) {
        return r == null ? "removed" : r.describe();
    }
}
