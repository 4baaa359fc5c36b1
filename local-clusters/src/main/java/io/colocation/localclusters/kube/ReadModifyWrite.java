package io.colocation.localclusters.kube;

import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.function.Supplier;

/**
 * A write over a fresh read, as Kubernetes' own controllers make it ({@code retry.RetryOnConflict}): when another writer
 * changed the object between the read and the write (409 Conflict), read again and write again. For the harness's
 * writes to objects a running part also writes (the broker annotates Nodes and writes their status; the koordlet
 * reports NodeMetric status), where a write that carries the resourceVersion of a stale read fails.
 */
public final class ReadModifyWrite {
    private static final int ATTEMPTS = 20;

    private ReadModifyWrite() {
    }

    /** Runs {@code readModifyWrite} (which must read the object afresh each time) until it meets no conflict. */
    public static <T> T retried(Supplier<T> readModifyWrite) {
        for (int attempt = 1;; attempt++) {
            try {
                return readModifyWrite.get();
            } catch (KubernetesClientException e) {
                if (e.getCode() != 409 || attempt >= ATTEMPTS) {
                    throw e;
                }
            }
        }
    }
}
