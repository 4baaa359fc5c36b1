package io.colocation.copilot;

import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.nio.file.Paths;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The files the NodeManager's container executor writes for each container under one of its local
 * dirs: {@code nmPrivate/<app>/<container>/<container>.pid} and, when the process ends,
 * {@code <container>.pid.exitcode}. Both executors (Default and Linux) use this layout.
 */
final class ContainerFiles {
    private final List<Path> localDirs;

    ContainerFiles(String[] localDirs) {
        List<Path> dirs = new ArrayList<>();
        for (String dir : localDirs) {
            String d = dir.trim();
            if (d.startsWith("file://")) {
                d = d.substring("file://".length());
            } else if (d.startsWith("file:")) {
                d = d.substring("file:".length());
            }
            if (!d.isEmpty()) {
                dirs.add(Paths.get(d));
            }
        }
        this.localDirs = Collections.unmodifiableList(new ArrayList<>(dirs));
    }

    /** The container's pid file, once the executor has written it. */
    Optional<Path> pidFile(String applicationId, String containerId) {
        for (Path dir : localDirs) {
            Path p = dir.resolve("nmPrivate").resolve(applicationId).resolve(containerId).resolve(containerId + ".pid");
            if (Files.isRegularFile(p)) {
                return Optional.of(p);
            }
        }
        return Optional.empty();
    }

    static Optional<Integer> readInt(Path file) {
        try {
            String text = new String(Files.readAllBytes(file), StandardCharsets.UTF_8).trim();
            return text.isEmpty() ? Optional.empty() : Optional.of(Integer.parseInt(text));
        } catch (IOException | NumberFormatException e) {
            return Optional.empty(); // not there (yet), or being written: the next refresh will tell
        }
    }
}
