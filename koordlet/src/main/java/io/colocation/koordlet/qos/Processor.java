package io.colocation.koordlet.qos;

/** One logical CPU: its id, physical core, socket and NUMA node. */
public record Processor(int cpu, int core, int socket, int node) {
}
