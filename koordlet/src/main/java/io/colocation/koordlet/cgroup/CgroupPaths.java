package io.colocation.koordlet.cgroup;

import java.nio.file.Path;

/** Cgroup directories as this agent names them: relative to the cgroup root, never leaving it. */
public final class CgroupPaths {
    private static final Path ROOT = Path.of("/");

    private CgroupPaths() {
    }

    /** Whether {@code dir}, resolved ({@code ..} and {@code .} applied), is a cgroup strictly below {@code parent}. */
    public static boolean isUnder(String dir, String parent) {
        Path d = ROOT.resolve(dir).normalize();
        Path p = ROOT.resolve(parent).normalize();
        return d.startsWith(p) && !d.equals(p) && !dir.contains("\0");
    }

    /** {@code dir} when it stays under the cgroup root; otherwise a bug upstream, refused before any file is touched. */
    static String checked(String dir) {
        if (dir.startsWith("/") || dir.contains("\0") || !ROOT.resolve(dir).normalize().equals(ROOT.resolve(dir))) {
            throw new IllegalArgumentException("cgroup path '" + dir + "' is not a plain path below the cgroup root");
        }
        return dir;
    }
}
