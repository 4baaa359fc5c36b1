package io.colocation.scheduler.framework;

/** A scheduling plugin: one class per plugin, implementing the extension points it has. */
public interface Plugin {
    String name();
}
