import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Build check: every citation in the repository points into it. A citation of a numbered section of a document in
 * docs/ ({@code docs/koordinator-compatibility.md §2.5}, {@code [architecture](architecture.md) §4.1}, lists and ranges
 * such as {@code §1.1–1.2, §3}) must name a section whose heading carries that number; a Markdown link to a relative
 * path must name a file or folder that exists; and nothing may cite the design notes the repository was started from,
 * which a clone does not contain.
 *
 * Usage: java CheckCitations.java REPOSITORY_ROOT
 */
public class CheckCitations {
    /** A cited document, then its section numbers; comment markers and line breaks may come between. */
    private static final Pattern CITATION = Pattern.compile(
            "([a-z-]+)\\.md\\)?[\\s*#/]*(?:'s\\s+)?§\\s*(\\d+(?:\\.\\d+)?(?:\\s*(?:,|–|-|and)\\s*§?\\s*\\d+(?:\\.\\d+)?)*)");
    private static final Pattern SECTION_NUMBER = Pattern.compile("\\d+(?:\\.\\d+)?");
    private static final Pattern HEADING = Pattern.compile("(?m)^#{1,6}\\s+(\\d+(?:\\.\\d+)*)\\.?\\s");
    private static final Pattern MARKDOWN_LINK = Pattern.compile("\\]\\(([^)\\s]+)\\)");
    /** What a clone of the repository does not contain. */
    private static final Pattern OUTSIDE = Pattern.compile("\\.\\./shared|shared/notes|KOORDINATOR-COMPAT|ARCHITECTURE\\.md");
    private static final Set<String> SKIPPED_DIRS = Set.of(".git", "target", "node_modules", ".idea");
    private static final Set<String> TEXT_EXTENSIONS = Set.of(
            "java", "md", "yml", "yaml", "sh", "xml", "properties", "json", "tpl", "txt", "conf", "py", "go");

    public static void main(String[] args) throws IOException {
        if (args.length != 1) {
            System.err.println("usage: java CheckCitations.java REPOSITORY_ROOT");
            System.exit(2);
        }
        Path root = Path.of(args[0]).toAbsolutePath().normalize();
        Path docs = root.resolve("docs");
        if (!Files.isDirectory(docs)) {
            System.err.println("CheckCitations: " + docs + " is not a directory");
            System.exit(2);
        }
        Map<String, Set<String>> sections = new HashMap<>();
        List<Path> files = textFiles(root);
        for (Path file : files) {
            if (file.getParent().equals(docs) && file.toString().endsWith(".md")) {
                String name = file.getFileName().toString();
                sections.put(name.substring(0, name.length() - 3), headings(Files.readString(file)));
            }
        }
        List<String> problems = new ArrayList<>();
        int citations = 0;
        for (Path file : files) {
            String text = read(file);
            if (text == null || file.equals(self(root))) {
                continue;
            }
            String where = root.relativize(file).toString();
            Matcher outside = OUTSIDE.matcher(text);
            while (outside.find()) {
                problems.add(where + ":" + line(text, outside.start()) + ": cites " + outside.group()
                        + ", which is outside the repository (docs/architecture.md, docs/koordinator-compatibility.md)");
            }
            Matcher citation = CITATION.matcher(text);
            while (citation.find()) {
                Set<String> known = sections.get(citation.group(1));
                if (known == null) {
                    continue; // a section sign after some other file name: not a citation of docs/
                }
                citations++;
                Matcher number = SECTION_NUMBER.matcher(citation.group(2));
                while (number.find()) {
                    if (!known.contains(number.group())) {
                        problems.add(where + ":" + line(text, citation.start()) + ": cites docs/" + citation.group(1)
                                + ".md §" + number.group() + ", which has no such section");
                    }
                }
            }
            if (where.endsWith(".md")) {
                Matcher link = MARKDOWN_LINK.matcher(text);
                while (link.find()) {
                    String target = link.group(1);
                    if (target.contains("://") || target.startsWith("#") || target.startsWith("mailto:")) {
                        continue;
                    }
                    String path = target.replaceFirst("#.*$", "");
                    if (!Files.exists(file.getParent().resolve(path))) {
                        problems.add(where + ":" + line(text, link.start()) + ": links to " + target
                                + ", which does not exist");
                    }
                }
            }
        }
        if (!problems.isEmpty()) {
            problems.forEach(p -> System.err.println("CheckCitations: " + p));
            System.exit(1);
        }
        System.out.println("CheckCitations: " + citations + " citations of docs/ sections in " + files.size()
                + " files, every one found; nothing cites a file outside the repository");
    }

    private static Path self(Path root) {
        return root.resolve("dev/CheckCitations.java");
    }

    private static Set<String> headings(String markdown) {
        Set<String> numbers = new HashSet<>();
        Matcher heading = HEADING.matcher(markdown);
        while (heading.find()) {
            numbers.add(heading.group(1));
        }
        return numbers;
    }

    private static List<Path> textFiles(Path root) throws IOException {
        try (Stream<Path> walk = Files.walk(root)) {
            return walk.filter(p -> root.relativize(p).toString().isEmpty()
                            || !isSkipped(root.relativize(p)))
                    .filter(Files::isRegularFile)
                    .filter(p -> TEXT_EXTENSIONS.contains(extension(p)))
                    .sorted()
                    .toList();
        }
    }

    private static boolean isSkipped(Path relative) {
        for (Path part : relative) {
            if (SKIPPED_DIRS.contains(part.toString())) {
                return true;
            }
        }
        return false;
    }

    private static String extension(Path file) {
        String name = file.getFileName().toString();
        int dot = name.lastIndexOf('.');
        return dot < 0 ? "" : name.substring(dot + 1);
    }

    /** The file as UTF-8, or null when it is not text. */
    private static String read(Path file) throws IOException {
        try {
            return StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(Files.readAllBytes(file)))
                    .toString();
        } catch (CharacterCodingException e) {
            return null;
        }
    }

    private static int line(String text, int offset) {
        int line = 1;
        for (int i = 0; i < offset; i++) {
            if (text.charAt(i) == '\n') {
                line++;
            }
        }
        return line;
    }
}
