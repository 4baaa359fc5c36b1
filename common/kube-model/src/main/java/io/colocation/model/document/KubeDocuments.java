package io.colocation.model.document;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.colocation.api.InvalidInputException;
import io.colocation.helpers.io.LimitedInputStream;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.yaml.snakeyaml.LoaderOptions;

/**
 * Reads Kubernetes objects from files (for the {@code calc} and {@code explain} commands) as {@code kubectl get -o yaml|json} writes them: YAML (one or many
 * documents, block or flow style) or JSON, with {@code kind: List} (and {@code *List}) expanded into their items. Streams
 * the input (no copy in memory, so a pipe, {@code -f <(kubectl ...)} or {@code /dev/stdin} works) up to
 * {@link #MAX_INPUT_BYTES}; what is too big, too deep or malformed is an error naming the file. Numbers keep their
 * decimal value ({@code 1e-2147483648} is refused, never read as 0). A null item in a list (which no API server returns)
 * is an error naming the object and the field.
 */
public final class KubeDocuments {
    /** Big enough for {@code kubectl get pods -A -o yaml} of a large cluster; a runaway input stops here. */
    public static final long MAX_INPUT_BYTES = 1L << 30;
    /** Kubernetes objects nest a few dozen levels; deeper is no object of ours. */
    private static final int MAX_NESTING = 200;
    private static final ObjectMapper YAML = new ObjectMapper(YAMLFactory.builder()
            .loaderOptions(yamlLimits())
            .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(MAX_NESTING).build())
            .build()).enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);
    private static final ObjectMapper JSON = new ObjectMapper(JsonFactory.builder()
            .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(MAX_NESTING).build())
            .build()).enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);

    private static LoaderOptions yamlLimits() {
        LoaderOptions options = new LoaderOptions();
        // SnakeYAML refuses more than 3 MiB by default: far less than a real kubectl dump.
        options.setCodePointLimit((int) Math.min(Integer.MAX_VALUE, MAX_INPUT_BYTES));
        options.setNestingDepthLimit(MAX_NESTING);
        return options;
    }

    /**
     * One object and where it came from: its file, its place in the file ({@code document 2}, {@code document 2 items[0]})
     * and, when a list held it, the list's apiVersion and kind ({@code v1 List}), else null.
     */
    public record Sourced(String file, JsonNode object, String position, String heldBy) {
        public Sourced(String file, JsonNode object) {
            this(file, object, "", null);
        }

        public String kind() {
            return object.path("kind").asText("");
        }

        public String name() {
            String ns = object.path("metadata").path("namespace").asText("");
            String name = object.path("metadata").path("name").asText("");
            return ns.isEmpty() ? name : ns + "/" + name;
        }

        /** The object as a typed model; a field of the wrong shape is an error naming the file, object and field. */
        public <T> T as(Class<T> type) throws InvalidInputException {
            return io.colocation.model.TypedObjects.decode(object, type, file + ": " + type.getSimpleName() + " " + name());
        }
    }

    private KubeDocuments() {
    }

    public static List<Sourced> read(String path, InputStream stdin) throws InvalidInputException {
        return read(path, stdin, MAX_INPUT_BYTES, "select what it needs (kubectl get pods --field-selector spec.nodeName=NODE)");
    }

    /**
     * As {@link #read(String, InputStream)}, reading at most {@code maxBytes}: a command that takes a few objects stops
     * a runaway input ({@code yes 'a: b' |}) at once instead of parsing a gigabyte; {@code hint} says what fits.
     */
    public static List<Sourced> read(String path, InputStream stdin, long maxBytes, String hint) throws InvalidInputException {
        String label = path.equals("-") ? "<stdin>" : path;
        InputStream raw;
        try {
            if (path.equals("-")) {
                raw = stdin;
            } else {
                Path file = Path.of(path);
                if (Files.isDirectory(file)) {
                    throw new InvalidInputException(label + ": is a directory; give the files in it one by one (-f a.yaml -f b.yaml)");
                }
                if (Files.isRegularFile(file) && Files.size(file) > maxBytes) {
                    // refused before a byte is read: parsing up to the cap first took minutes on a 60 MB file (issue 64)
                    throw new InvalidInputException(tooLarge(label, maxBytes, hint) + " (the file has " + Files.size(file) + " bytes)");
                }
                // a FileInputStream reads pipes and character devices too (a channel stream fails with "Illegal seek")
                raw = new java.io.FileInputStream(file.toFile());
            }
        } catch (java.io.FileNotFoundException e) {
            if (!Files.exists(Path.of(path))) {
                throw new InvalidInputException(label + ": no such file");
            }
            throw new InvalidInputException(label + ": cannot read: " + e.getMessage());
        } catch (java.nio.file.InvalidPathException | IOException e) {
            throw new InvalidInputException(label + ": cannot read: " + e.getMessage());
        }
        try (BufferedInputStream in = new BufferedInputStream(new LimitedInputStream(raw, maxBytes, tooLarge(label, maxBytes, hint)),
                1 << 16)) {
            boolean json = startsLikeJson(in);
            return parse(label, in, json);
        } catch (LimitedInputStream.TooLarge e) {
            throw new InvalidInputException(e.getMessage());
        } catch (OutOfMemoryError e) {
            throw new InvalidInputException(label + ": too big for the memory of this JVM; give it more with COLOCATION_OPTS=-Xmx4g"
                    + " (or split the input)");
        } catch (IOException e) {
            throw new InvalidInputException(label + ": cannot read: " + e.getMessage());
        }
    }

    private static String tooLarge(String label, long maxBytes, String hint) {
        return label + ": larger than " + (maxBytes >> 20) + " MiB, the most this command reads; " + hint;
    }

    private static List<Sourced> parse(String label, InputStream in, boolean json) throws InvalidInputException, IOException {
        List<Sourced> out = new ArrayList<>();
        try (MappingIterator<JsonNode> docs = (json ? JSON : YAML).readerFor(JsonNode.class).readValues(in)) {
            int index = 0;
            while (docs.hasNextValue()) {
                JsonNode doc = docs.nextValue();
                index++;
                if (doc == null || doc.isNull() || doc.isMissingNode() || (doc.isTextual() && doc.asText().isBlank())) {
                    continue; // an empty YAML document ("---" at the end)
                }
                if (doc.isArray()) {
                    int i = 0;
                    for (JsonNode item : doc) {
                        expand(label, item, out, "document " + index + " [" + i++ + "]", "a JSON array");
                    }
                } else if (!doc.isObject()) {
                    throw new InvalidInputException(label + ": document " + index + " is not a Kubernetes object");
                } else {
                    expand(label, doc, out, "document " + index, null);
                }
            }
        } catch (JsonProcessingException e) {
            rethrowTooLarge(e);
            throw new InvalidInputException(label + ": malformed " + (json ? "JSON" : "YAML")
                    + (e.getLocation() == null ? "" : " at line " + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr())
                    + ": " + firstLine(e.getOriginalMessage()));
        } catch (RuntimeException e) {
            // SnakeYAML reports its own limits (nesting, aliases), and the reader's failures, as unchecked exceptions.
            rethrowTooLarge(e);
            throw new InvalidInputException(label + ": malformed " + (json ? "JSON" : "YAML") + ": " + firstLine(String.valueOf(e.getMessage())));
        }
        return out;
    }

    /** A parser may wrap the size limit's exception: it is still the size limit, not malformed input. */
    private static void rethrowTooLarge(Throwable e) throws InvalidInputException {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof LimitedInputStream.TooLarge tooLarge) {
                throw new InvalidInputException(tooLarge.getMessage());
            }
        }
    }

    /**
     * Peeks past whitespace (and a UTF-8 byte order mark): JSON starts with '{' followed by '"' or '}', or with '['
     * followed by a JSON value; anything else, flow-style YAML such as {@code {kind: Pod}} included, is read as YAML.
     */
    static boolean startsLikeJson(BufferedInputStream in) throws IOException {
        in.mark(1 << 16);
        try {
            int first = nextSignificant(in);
            if (first != '{' && first != '[') {
                return false;
            }
            int second = nextSignificant(in);
            return first == '{' ? second == '"' || second == '}'
                    : second == '{' || second == '[' || second == '"' || second == ']' || second == '-' || second == 't'
                            || second == 'f' || second == 'n' || (second >= '0' && second <= '9');
        } finally {
            in.reset();
        }
    }

    private static int nextSignificant(BufferedInputStream in) throws IOException {
        for (int i = 0; i < (1 << 16) - 2; i++) {
            int c = in.read();
            if (c < 0) {
                return -1;
            }
            if (c != 0xEF && c != 0xBB && c != 0xBF && !Character.isWhitespace(c)) {
                return c;
            }
        }
        return -1;
    }

    private static String firstLine(String message) {
        if (message == null) {
            return "unreadable";
        }
        if (message.contains("nesting depth")) {
            return "nested deeper than " + MAX_NESTING + " levels (no Kubernetes object is)";
        }
        // Parsers prefix the cause's class name ("java.io.CharConversionException: ..."): the reader needs only the words.
        String line = message.lines().findFirst().orElse("").replaceAll("\\b(?:[a-z][a-z0-9_]*\\.)+[A-Z]\\w*(?:Exception|Error): ", "");
        return line.length() > 300 ? line.substring(0, 300) + "..." : line;
    }

    private static void expand(String file, JsonNode object, List<Sourced> out, String position, String heldBy)
            throws InvalidInputException {
        String kind = object.path("kind").asText("");
        if (kind.endsWith("List") && object.has("items")) {
            int i = 0;
            String list = (object.path("apiVersion").asText("") + " " + kind).trim();
            for (JsonNode item : object.get("items")) {
                if (item == null || !item.isObject()) {
                    throw new InvalidInputException(file + ": a " + kind + " holds an item that is not a Kubernetes object: " + item);
                }
                expand(file, item, out, position + " items[" + i++ + "]", heldBy != null ? heldBy + " > " + list : list);
            }
        } else {
            Sourced doc = new Sourced(file, object, position, heldBy);
            jsonValuesOnly(object, "", doc);
            out.add(doc);
        }
    }

    /**
     * What an API server could have returned: a null item of a list, or a value no JSON has (YAML's {@code !!binary} and
     * other typed tags), is an error naming the object and the field.
     */
    private static void jsonValuesOnly(JsonNode node, String at, Sourced doc) throws InvalidInputException {
        if (node.isObject()) {
            for (java.util.Iterator<java.util.Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext();) {
                java.util.Map.Entry<String, JsonNode> e = it.next();
                jsonValuesOnly(e.getValue(), at.isEmpty() ? e.getKey() : at + "." + e.getKey(), doc);
            }
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                if (node.get(i).isNull()) {
                    throw new InvalidInputException(doc.file() + ": " + (doc.kind().isEmpty() ? "object" : doc.kind()) + " "
                            + doc.name() + ": " + at + "[" + i + "] is null (a list of " + at + " holds objects or values, never null)");
                }
                jsonValuesOnly(node.get(i), at + "[" + i + "]", doc);
            }
        } else if (node.isBinary() || node.isPojo()) {
            throw new InvalidInputException(doc.file() + ": " + (doc.kind().isEmpty() ? "object" : doc.kind()) + " " + doc.name()
                    + ": " + at + " is a " + (node.isBinary() ? "!!binary" : "typed") + " YAML value: Kubernetes objects hold strings,"
                    + " numbers, booleans, lists and maps only");
        }
    }
}
