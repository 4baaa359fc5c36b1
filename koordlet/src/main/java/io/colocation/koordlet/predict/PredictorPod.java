package io.colocation.koordlet.predict;

import io.colocation.api.PriorityClass;
import io.colocation.model.Resources;
import java.time.Instant;

/**
 * A pod as the predictors see it.
 *
 * @param priorityClass Koordinator's class with its default (from the QoS class when the pod names none)
 * @param ending        deleting ({@code deletionTimestamp} set) or terminated (Succeeded/Failed)
 * @param requests      CPU and memory requests of the pod
 */
public record PredictorPod(String uid, PriorityClass priorityClass, Instant created, boolean ending, Resources requests) {
    /** Koordinator's {@code isPriorityClassReclaimableForProd}: prod, or no class. */
    public boolean reclaimableForProd() {
        return reclaimableForProd(priorityClass);
    }

    public static boolean reclaimableForProd(PriorityClass c) {
        return c == PriorityClass.PROD || c == PriorityClass.NONE;
    }
}
