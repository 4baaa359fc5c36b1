package io.colocation.api.yarn;

/** The checks every contract document passes, whoever builds it: what no writer may produce is refused. */
final class Validation {
    private Validation() {
    }

    static void nodeId(String nodeId) {
        if (nodeId == null || nodeId.isEmpty()) {
            throw new IllegalArgumentException("nodeId is missing");
        }
    }

    static void notNegative(String field, long value) {
        if (value < 0) {
            throw new IllegalArgumentException(field + " " + value + " is negative");
        }
    }
}
