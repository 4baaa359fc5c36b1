package io.colocation.broker.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads Kubernetes objects from files as {@code kubectl get -o yaml|json} writes them: YAML (one or many
 * documents) or JSON, with {@code kind: List} (and {@code *List}) expanded into their items.
 */
final class KubeDocuments {
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final ObjectMapper JSON = new ObjectMapper();

    /** One object and where it came from. */
    record Sourced(String file, JsonNode object) {
        String kind() {
            return object.path("kind").asText("");
        }

        String name() {
            String ns = object.path("metadata").path("namespace").asText("");
            String name = object.path("metadata").path("name").asText("");
            return ns.isEmpty() ? name : ns + "/" + name;
        }
    }

    private KubeDocuments() {
    }

    static List<Sourced> read(String path, InputStream stdin) throws CalcException {
        String label = path.equals("-") ? "<stdin>" : path;
        String text;
        try {
            text = path.equals("-") ? new String(stdin.readAllBytes(), StandardCharsets.UTF_8)
                    : Files.readString(Path.of(path), StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            throw new CalcException(label + ": no such file");
        } catch (IOException e) {
            throw new CalcException(label + ": cannot read: " + e.getMessage());
        }
        String trimmed = text.stripLeading();
        boolean json = trimmed.startsWith("{") || trimmed.startsWith("[");
        List<Sourced> out = new ArrayList<>();
        try (MappingIterator<JsonNode> docs = (json ? JSON : YAML).readerFor(JsonNode.class).readValues(text)) {
            int index = 0;
            while (docs.hasNextValue()) {
                JsonNode doc = docs.nextValue();
                index++;
                if (doc == null || doc.isNull() || doc.isMissingNode()) {
                    continue; // an empty YAML document ("---" at the end)
                }
                if (doc.isArray()) {
                    doc.forEach(item -> expand(label, item, out));
                } else if (!doc.isObject()) {
                    throw new CalcException(label + ": document " + index + " is not a Kubernetes object");
                } else {
                    expand(label, doc, out);
                }
            }
        } catch (JsonProcessingException e) {
            throw new CalcException(label + ": malformed " + (json ? "JSON" : "YAML") + " at line "
                    + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr() + ": " + e.getOriginalMessage());
        } catch (IOException e) {
            throw new CalcException(label + ": cannot read: " + e.getMessage());
        }
        return out;
    }

    private static void expand(String file, JsonNode object, List<Sourced> out) {
        String kind = object.path("kind").asText("");
        if (kind.endsWith("List") && object.has("items")) {
            object.get("items").forEach(item -> expand(file, item, out));
        } else {
            out.add(new Sourced(file, object));
        }
    }
}
