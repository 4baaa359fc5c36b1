package io.colocation.api.yarn;

/** The plugin applied grant {@code epoch}/{@code version} to the node: the capacity YARN now schedules within. */
public record YarnGrantAck(String nodeId, long epoch, long version, int vcores, long memoryMB, long appliedAtMillis) {
    public YarnGrantAck {
        Validation.nodeId(nodeId);
        Validation.notNegative("vcores", vcores);
        Validation.notNegative("memoryMB", memoryMB);
    }
}
