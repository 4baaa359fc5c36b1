package io.colocation.copilot;

import io.colocation.helpers.concurrent.Daemons;
import java.io.Closeable;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.ClosedWatchServiceException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchEvent;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Catches a container's exit code the moment the executor writes {@code <container>.pid.exitcode}
 * (inotify through {@link WatchService}): the NodeManager deletes the file while cleaning up the
 * finished container, before aux services hear that it stopped, so polling alone misses it.
 */
final class ExitCodeWatcher implements Closeable {
    private static final Logger LOG = LoggerFactory.getLogger(ExitCodeWatcher.class);

    private final WatchService watcher;
    private final BiConsumer<String, Integer> onExit;
    private final Map<WatchKey, String> containerByKey = new ConcurrentHashMap<>();
    private final Map<String, WatchKey> keyByContainer = new ConcurrentHashMap<>();
    private final Thread thread;

    ExitCodeWatcher(BiConsumer<String, Integer> onExit) throws IOException {
        this.watcher = FileSystems.getDefault().newWatchService();
        this.onExit = onExit;
        this.thread = Daemons.named("yarn-copilot-exit-codes").newThread(this::run);
        thread.start();
    }

    /** Watches the directory holding the container's pid file (idempotent). */
    void watch(String containerId, Path pidFile) {
        if (keyByContainer.containsKey(containerId)) {
            return;
        }
        try {
            WatchKey key = pidFile.getParent().register(watcher, StandardWatchEventKinds.ENTRY_CREATE, StandardWatchEventKinds.ENTRY_MODIFY);
            containerByKey.put(key, containerId);
            keyByContainer.put(containerId, key);
            readIfPresent(containerId, exitCodeFile(pidFile));
        } catch (IOException e) {
            LOG.debug("cannot watch {} for the exit code of {}: {}", pidFile.getParent(), containerId, e.toString());
        }
    }

    void forget(String containerId) {
        WatchKey key = keyByContainer.remove(containerId);
        if (key != null) {
            key.cancel();
            containerByKey.remove(key);
        }
    }

    static Path exitCodeFile(Path pidFile) {
        return pidFile.resolveSibling(pidFile.getFileName() + ".exitcode");
    }

    private void run() {
        try {
            while (true) {
                WatchKey key = watcher.take();
                String containerId = containerByKey.get(key);
                for (WatchEvent<?> event : key.pollEvents()) {
                    Object name = event.context();
                    if (containerId != null && name instanceof Path && name.toString().endsWith(".pid.exitcode")) {
                        readIfPresent(containerId, ((Path) key.watchable()).resolve((Path) name));
                    }
                }
                key.reset();
            }
        } catch (InterruptedException | ClosedWatchServiceException e) {
            // closing
        }
    }

    private void readIfPresent(String containerId, Path file) {
        try {
            String text = new String(Files.readAllBytes(file), StandardCharsets.UTF_8).trim();
            if (!text.isEmpty()) {
                onExit.accept(containerId, Integer.parseInt(text));
            }
        } catch (IOException | NumberFormatException e) {
            // not written yet, or already cleaned up: the next event or the poll will tell
        }
    }

    @Override
    public void close() throws IOException {
        thread.interrupt();
        watcher.close();
    }
}
