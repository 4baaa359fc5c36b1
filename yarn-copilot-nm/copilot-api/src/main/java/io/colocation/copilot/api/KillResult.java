package io.colocation.copilot.api;

import java.util.List;

/**
 * What a kill request did: the containers killed ({@code items}, as Koordinator's {@code KillInfo}), how
 * much they free (vcores, memory MiB) and why they were chosen.
 */
public record KillResult(List<ContainerInfo> items, long freedVcores, long freedMemoryMB, String reason) {
}
