package io.colocation.broker.decision;

import io.colocation.model.node.YarnRelease;

/**
 * What the node's koordlet asked of YARN, as read and checked where the facts are read: a release whose stamp
 * verified (or where none is asked), or why the node's YarnRelease is ignored, or nothing.
 *
 * @param release the release to honour; null when there is none or it is ignored
 * @param ignored why the node's YarnRelease is ignored; null when it is not
 */
public record KoordletRelease(YarnRelease release, String ignored) {
    public static final KoordletRelease NONE = new KoordletRelease(null, null);
}
