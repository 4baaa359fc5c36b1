package io.colocation.koordlet.predict;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import io.colocation.api.InvalidInputException;
import io.colocation.model.KubeTime;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Koordinator's prediction checkpoints (docs/koordinator-compatibility.md §13): one JSON file per model, named by its
 * UID, written as {@code <UID>.tmp} and renamed. A file that cannot be decoded, or whose model is gone, is
 * deleted with a warning; the model starts fresh.
 */
public final class PredictionCheckpointStore {
    private static final Logger LOG = LoggerFactory.getLogger(PredictionCheckpointStore.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Instant GO_ZERO = Instant.parse("0001-01-01T00:00:00Z");

    private final Path dir;

    public PredictionCheckpointStore(Path dir) {
        this.dir = dir;
    }

    public Path dir() {
        return dir;
    }

    /** One model as stored. */
    public record Stored(String uid, DecayingHistogram.Checkpoint cpu, DecayingHistogram.Checkpoint memory, Instant lastUpdated) {
    }

    /**
     * Reads every checkpoint whose UID {@code wanted} accepts, deleting temporary, undecodable and unwanted files.
     * A missing directory is created; one that cannot be read gives no models (and says why).
     */
    public List<Stored> restore(Predicate<String> wanted) {
        List<Stored> result = new ArrayList<>();
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            LOG.warn("prediction checkpoints: cannot create {} ({}); predictions start fresh and are not kept", dir, e.toString());
            return result;
        }
        List<Path> files;
        try (Stream<Path> walk = Files.walk(dir)) {
            files = walk.filter(Files::isRegularFile).toList();
        } catch (IOException e) {
            LOG.warn("prediction checkpoints: cannot list {} ({}); predictions start fresh", dir, e.toString());
            return result;
        }
        for (Path file : files) {
            String name = file.getFileName().toString();
            if (name.endsWith(".tmp")) {
                delete(file, "unfinished write");
                continue;
            }
            Stored s;
            try {
                s = decode(Files.readString(file));
            } catch (IOException | RuntimeException e) {
                LOG.warn("prediction checkpoint {} is corrupt ({}); deleted, that model starts fresh", file, e.getMessage());
                delete(file, null);
                continue;
            }
            if (!name.equals(s.uid()) || !wanted.test(s.uid())) {
                delete(file, "model " + s.uid() + " is not on this node any more");
                continue;
            }
            result.add(s);
        }
        LOG.info("prediction checkpoints: restored {} model(s) from {}", result.size(), dir);
        return result;
    }

    public void save(Stored s) throws IOException {
        checkUid(s.uid());
        Files.createDirectories(dir);
        Path tmp = dir.resolve(s.uid() + ".tmp");
        Files.writeString(tmp, encode(s) + "\n");
        try {
            Files.move(tmp, dir.resolve(s.uid()), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(tmp, dir.resolve(s.uid()), StandardCopyOption.REPLACE_EXISTING);
        }
    }

    public void delete(String uid) {
        checkUid(uid);
        delete(dir.resolve(uid), null);
    }

    private static void delete(Path file, String why) {
        try {
            if (Files.deleteIfExists(file) && why != null) {
                LOG.info("prediction checkpoint {} deleted: {}", file, why);
            }
        } catch (IOException e) {
            LOG.warn("prediction checkpoint {} could not be deleted: {}", file, e.toString());
        }
    }

    private static void checkUid(String uid) {
        if (uid.isEmpty() || uid.contains("/") || uid.contains("\\") || uid.startsWith(".")) {
            throw new IllegalArgumentException("not a model UID usable as a file name: '" + uid + "'");
        }
    }

    static String encode(Stored s) {
        ObjectNode root = JSON.createObjectNode();
        root.put("UID", s.uid());
        root.set("CPU", histogram(s.cpu()));
        root.set("Memory", histogram(s.memory()));
        root.put("LastUpdated", s.lastUpdated().truncatedTo(ChronoUnit.SECONDS).toString());
        return root.toString();
    }

    private static ObjectNode histogram(DecayingHistogram.Checkpoint c) {
        ObjectNode h = JSON.createObjectNode();
        h.put("referenceTimestamp", (c.reference() == null ? GO_ZERO : c.reference()).toString());
        ObjectNode buckets = h.putObject("bucketWeights");
        c.bucketWeights().forEach((b, w) -> buckets.put(Integer.toString(b), w));
        if (c.totalWeight() != 0) {
            h.put("totalWeight", c.totalWeight());
        }
        return h;
    }

    static Stored decode(String text) throws IOException {
        JsonNode root = JSON.readTree(text);
        if (root == null || !root.isObject()) {
            throw new IOException("not a JSON object");
        }
        JsonNode uid = root.get("UID");
        if (uid == null || !uid.isTextual() || uid.asText().isEmpty()) {
            throw new IOException("no UID");
        }
        return new Stored(uid.asText(), histogram(root.get("CPU"), "CPU"), histogram(root.get("Memory"), "Memory"),
                time(root.get("LastUpdated"), "LastUpdated"));
    }

    private static DecayingHistogram.Checkpoint histogram(JsonNode h, String field) throws IOException {
        if (h == null || !h.isObject()) {
            throw new IOException(field + " is not an object");
        }
        Instant ref = time(h.get("referenceTimestamp"), field + ".referenceTimestamp");
        Map<Integer, Long> buckets = new TreeMap<>();
        JsonNode b = h.get("bucketWeights");
        if (b != null && !b.isNull()) {
            if (!b.isObject()) {
                throw new IOException(field + ".bucketWeights is not an object");
            }
            for (Iterator<Map.Entry<String, JsonNode>> it = b.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                int index;
                try {
                    index = Integer.parseInt(e.getKey());
                } catch (NumberFormatException x) {
                    throw new IOException(field + ".bucketWeights has a non-numeric bucket '" + e.getKey() + "'");
                }
                if (!e.getValue().canConvertToLong() || e.getValue().asLong() < 0 || e.getValue().asLong() > 0xFFFF_FFFFL) {
                    throw new IOException(field + ".bucketWeights[" + index + "] is not a uint32");
                }
                buckets.put(index, e.getValue().asLong());
            }
        }
        JsonNode total = h.get("totalWeight");
        double totalWeight = total == null || total.isNull() ? 0 : total.asDouble(Double.NaN);
        if (!(totalWeight >= 0) || Double.isInfinite(totalWeight)) {
            throw new IOException(field + ".totalWeight is not a non-negative number");
        }
        return new DecayingHistogram.Checkpoint(ref.equals(GO_ZERO) ? null : ref, buckets, totalWeight);
    }

    private static Instant time(JsonNode t, String field) throws IOException {
        if (t == null || !t.isTextual()) {
            throw new IOException(field + " is not a time");
        }
        try {
            return KubeTime.parse(t.asText(), field);
        } catch (InvalidInputException e) {
            throw new IOException(e.getMessage());
        }
    }
}
