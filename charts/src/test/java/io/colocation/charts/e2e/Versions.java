package io.colocation.charts.e2e;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The project's version (the images' tag, the chart's appVersion) and the NodeManager image's Hadoop. */
final class Versions {
    static final String HADOOP = "3.4.2";

    private Versions() {
    }

    static String project() {
        try {
            String chart = Files.readString(Path.of("colocation/Chart.yaml"));
            return chart.lines().filter(l -> l.startsWith("appVersion:")).findFirst().orElseThrow()
                    .substring("appVersion:".length()).trim().replace("\"", "");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
