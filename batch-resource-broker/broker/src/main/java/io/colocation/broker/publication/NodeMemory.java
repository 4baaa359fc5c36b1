package io.colocation.broker.publication;

import io.colocation.broker.decision.YarnFacts;
import io.colocation.broker.ledger.NodeLedger.Publication;
import io.colocation.broker.yarn.YarnSide;
import io.colocation.broker.yarn.YarnUnits;
import io.colocation.model.Resources;
import java.time.Duration;
import java.time.Instant;

/**
 * What this replica keeps of one node's publications from pass to pass, as one value: what it wrote to the node as
 * leader (Batch and Mid, the origin annotation, a shrink still settling), the YARN grant it published and what that
 * grant keeps from preemption, and the last publication to each side (kept across a change of leader, for the ledger).
 * The facts are read from it and the plan is decided on it; only {@link PublicationExecutor} makes a new one.
 *
 * @param kubernetes     Batch and Mid this leader wrote and when; null: nothing since it took the lead
 * @param originWritten  the origin this leader last wrote to the node's annotation; null: none
 * @param settling       a shrink of Batch written less than the settle time ago, or not yet noticed settled; null: none
 * @param yarnPublished  the YARN grant this leader published (whole vcores and MiB); null: none
 * @param yarnKept       what that grant keeps from preemption
 */
public record NodeMemory(Written kubernetes, Resources originWritten, Shrink settling, Resources yarnPublished, Resources yarnKept,
        Publication lastKubernetes, Publication lastYarn) {
    public static final NodeMemory NONE = new NodeMemory(null, null, null, null, null, null, null);

    /** Batch and Mid as written (null: removed) and when. */
    public record Written(Resources batch, Resources mid, Instant at) {
    }

    /** The Batch grant before a shrink, and when the shrink was written ({@code System.nanoTime}). */
    public record Shrink(Resources from, long atNanos) {
        boolean settled(long nowNanos, Duration settle) {
            return nowNanos - atNanos >= settle.toNanos();
        }
    }

    /** What this leader wrote to the node since it took the lead, null if nothing (or not leading). */
    public Written kubernetesWritten(boolean leading) {
        return leading ? kubernetes : null;
    }

    /** The Batch grant in force: what this leader wrote, else what the node carries ({@code carried}, null: none). */
    public Resources kubernetesGrantInForce(Resources carried, boolean leading) {
        Written mine = kubernetesWritten(leading);
        Resources batch = mine != null ? mine.batch() : carried;
        return batch == null ? Resources.ZERO : batch;
    }

    /**
     * The Batch grant before a shrink written less than {@code settle} ago, else null: the k8s-scheduler may still bind
     * pods it placed on that grant, so YARN does not grow into the shrink yet.
     */
    public Resources settlingFrom(long nowNanos, Duration settle) {
        return settling == null || settling.settled(nowNanos, settle) ? null : settling.from();
    }

    /**
     * The YARN grant a leader's decision starts from: what it published, else the one persisted for the NodeManager;
     * null when YARN was never granted anything there.
     */
    public Resources yarnGrantFrom(YarnFacts yarn, boolean leading) {
        Resources mine = leading ? yarnPublished : null;
        return mine != null ? mine : yarn.persisted() == null ? null : YarnUnits.of(yarn.persisted());
    }

    /** The YARN grant in force as far as this replica knows: what it published, else the persisted one, else zero. */
    public Resources yarnGrantInForce(YarnFacts yarn) {
        Resources g = yarnGrantFrom(yarn, true);
        return g == null ? Resources.ZERO : g;
    }

    /** What the YARN grant in force keeps from preemption: what this leader published, else the persisted grant's, else zero. */
    Resources yarnKeptInForce(YarnFacts yarn) {
        if (yarnPublished != null) {
            return yarnKept;
        }
        return yarn.persisted() == null ? Resources.ZERO
                : YarnUnits.of(new YarnSide.Usage(yarn.persisted().keepVcores(), yarn.persisted().keepMemoryMB()));
    }

    /** The origin the node's annotation shows as far as this replica knows: what it wrote, else {@code annotated}. */
    Resources originShown(Resources annotated) {
        return originWritten != null ? originWritten : annotated;
    }

    /** The same memory without what belongs to a leadership (the last publications stay, for the ledger). */
    NodeMemory forgetWritten() {
        return new NodeMemory(null, null, null, null, null, lastKubernetes, lastYarn);
    }

    NodeMemory withKubernetes(Written written, Resources origin, Shrink shrink, Publication last) {
        return new NodeMemory(written, origin, shrink, yarnPublished, yarnKept, last, lastYarn);
    }

    NodeMemory withKubernetesFailure(Publication last) {
        return new NodeMemory(kubernetes, originWritten, settling, yarnPublished, yarnKept, last, lastYarn);
    }

    NodeMemory withOrigin(Resources origin) {
        return new NodeMemory(kubernetes, origin, settling, yarnPublished, yarnKept, lastKubernetes, lastYarn);
    }

    NodeMemory withSettled() {
        return new NodeMemory(kubernetes, originWritten, null, yarnPublished, yarnKept, lastKubernetes, lastYarn);
    }

    NodeMemory withYarn(Resources published, Resources kept, Publication last) {
        return new NodeMemory(kubernetes, originWritten, settling, published, kept, lastKubernetes, last);
    }

    NodeMemory withYarnFailure(Publication last) {
        return new NodeMemory(kubernetes, originWritten, settling, yarnPublished, yarnKept, lastKubernetes, last);
    }
}
