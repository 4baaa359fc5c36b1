package io.colocation.koordlet.collect;

import io.colocation.koordlet.qos.Processor;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The host's logical CPUs from {@code /sys/devices/system/cpu/cpuN/topology} (core and package ids) and the
 * {@code nodeM} link of each CPU (NUMA node; 0 without one), as Koordinator's NodeCPUInfo holds them.
 */
public final class CpuTopologyReader {
    private static final Pattern CPU = Pattern.compile("cpu(\\d+)");
    private static final Pattern NODE = Pattern.compile("node(\\d+)");

    private CpuTopologyReader() {
    }

    /** The online CPUs in id order; empty when /sys has no topology (a container without it mounted). */
    public static List<Processor> read(Path sysRoot) throws IOException {
        Path cpus = sysRoot.resolve("devices/system/cpu");
        List<Processor> out = new ArrayList<>();
        if (!Files.isDirectory(cpus)) {
            return out;
        }
        try (DirectoryStream<Path> dirs = Files.newDirectoryStream(cpus, "cpu[0-9]*")) {
            for (Path dir : dirs) {
                Matcher m = CPU.matcher(dir.getFileName().toString());
                Path topology = dir.resolve("topology");
                if (!m.matches() || !Files.isDirectory(topology) || !online(dir)) {
                    continue;
                }
                out.add(new Processor(Integer.parseInt(m.group(1)), number(topology.resolve("core_id")),
                        number(topology.resolve("physical_package_id")), numaNode(dir)));
            }
        }
        out.sort(Comparator.comparingInt(Processor::cpu));
        return out;
    }

    private static boolean online(Path cpuDir) throws IOException {
        Path online = cpuDir.resolve("online");
        return !Files.exists(online) || Files.readString(online).trim().equals("1");
    }

    private static int numaNode(Path cpuDir) throws IOException {
        try (DirectoryStream<Path> links = Files.newDirectoryStream(cpuDir, "node[0-9]*")) {
            for (Path link : links) {
                Matcher m = NODE.matcher(link.getFileName().toString());
                if (m.matches()) {
                    return Integer.parseInt(m.group(1));
                }
            }
        }
        return 0;
    }

    private static int number(Path file) throws IOException {
        return Integer.parseInt(Files.readString(file).trim());
    }
}
