package io.colocation.copilot.api;

/** {@code GET /information}: {@code {"name":"yarn","version":"v1"}} as Koordinator's agent answers. */
public record PluginInfo(String name, String version) {
}
