import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;

/**
 * Build check for the jars that go into Hadoop's classpath (dist's hadoop/ folder): they must not
 * reference Hadoop's shaded (relocated) packages, which exist only in the client artifacts we compile
 * against and not in a real ResourceManager or NodeManager; and they must bundle nothing but our own
 * classes, since every library they use is already in Hadoop's JVM; and they must be Java 8 class files
 * (version 52 at most), since Hadoop 3.3 and 3.4 run on Java 8 and 11.
 *
 * Usage: java CheckHadoopJars.java DIR
 */
public class CheckHadoopJars {
    private static final String OWN_PACKAGE = "io/colocation/";
    /** Java 8's class-file major version. */
    private static final int MAX_MAJOR = 52;
    private static final byte[][] SHADED = {
            "org/apache/hadoop/shaded".getBytes(StandardCharsets.US_ASCII),
            "org.apache.hadoop.shaded".getBytes(StandardCharsets.US_ASCII)};

    public static void main(String[] args) throws IOException {
        if (args.length != 1) {
            System.err.println("usage: java CheckHadoopJars.java DIR");
            System.exit(2);
        }
        Path dir = Path.of(args[0]);
        List<Path> jars;
        try (Stream<Path> files = Files.list(dir)) {
            jars = files.filter(p -> p.toString().endsWith(".jar")).sorted().toList();
        }
        if (jars.isEmpty()) {
            fail(List.of("no jars in " + dir));
        }
        List<String> problems = new ArrayList<>();
        for (Path jar : jars) {
            try (JarFile file = new JarFile(jar.toFile())) {
                Enumeration<JarEntry> entries = file.entries();
                while (entries.hasMoreElements()) {
                    JarEntry entry = entries.nextElement();
                    String name = entry.getName();
                    if (entry.isDirectory() || name.startsWith("META-INF/")) {
                        continue;
                    }
                    if (name.endsWith(".class") && !name.startsWith(OWN_PACKAGE)) {
                        problems.add(jar.getFileName() + " bundles " + name + ", a class that is not ours");
                    }
                    if (name.endsWith(".class")) {
                        try (InputStream in = file.getInputStream(entry)) {
                            byte[] bytes = in.readAllBytes();
                            int major = bytes.length >= 8 ? ((bytes[6] & 0xff) << 8) | (bytes[7] & 0xff) : -1;
                            if (major > MAX_MAJOR) {
                                problems.add(jar.getFileName() + ": " + name + " is a Java " + (major - 44)
                                        + " class file (major " + major + "); Hadoop 3.3/3.4 load Java 8 class files (major "
                                        + MAX_MAJOR + ") at most: compile this module with --release 8");
                            }
                            for (byte[] needle : SHADED) {
                                if (indexOf(bytes, needle) >= 0) {
                                    problems.add(jar.getFileName() + ": " + name
                                            + " references Hadoop's shaded packages (compile against the"
                                            + " original class names)");
                                    break;
                                }
                            }
                        }
                    }
                }
            }
        }
        if (!problems.isEmpty()) {
            fail(problems);
        }
        System.out.println("[check-hadoop-jars] " + jars.size() + " jars in " + dir
                + ": Java 8 class files, no shaded Hadoop references, no bundled libraries");
    }

    private static void fail(List<String> problems) {
        problems.forEach(p -> System.err.println("[check-hadoop-jars] " + p));
        System.exit(1);
    }

    private static int indexOf(byte[] haystack, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= haystack.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }
}
