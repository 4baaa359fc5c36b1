package io.colocation.helpers.log;

import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;

/**
 * Logs each distinct cause once at WARN, then only counts it, so a problem that lasts for hours is
 * reported without flooding the log. A subject (a node, a document) whose cause changes is warned again;
 * {@link #resolved} forgets it, logging at INFO that it is fixed.
 */
public final class DistinctWarnings {
    private static final int MAX_SUBJECTS = 100_000;

    private final Logger log;
    private final Map<String, String> current = new ConcurrentHashMap<>();
    private final AtomicLong repeats = new AtomicLong();

    public DistinctWarnings(Logger log) {
        this.log = log;
    }

    /** Warns if {@code subject} had no cause or another one; returns true when it did. */
    public boolean warn(String subject, String cause) {
        String before = current.size() < MAX_SUBJECTS || current.containsKey(subject) ? current.put(subject, cause) : null;
        if (cause.equals(before)) {
            repeats.incrementAndGet();
            return false;
        }
        log.warn("{}: {} (reported once; repeats are counted)", subject, cause);
        return true;
    }

    /** The subject is fine again. */
    public void resolved(String subject) {
        String before = current.remove(subject);
        if (before != null) {
            log.info("{}: resolved (was: {})", subject, before);
        }
    }

    /** Subjects with a cause now, and the cause. */
    public Map<String, String> current() {
        return Collections.unmodifiableMap(new HashMap<>(current));
    }

    /** Warnings not logged again because their cause was already reported. */
    public long repeats() {
        return repeats.get();
    }

    /** Forgets subjects not in {@code alive} (deleted nodes), without logging. */
    public void retain(java.util.Set<String> alive) {
        current.keySet().retainAll(alive);
    }
}
