package io.colocation.api.yarn;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * The one JSON codec of the {@link YarnContract} documents, used by the broker, the scheduler plugin and the
 * benchmarks. Jackson 2.12 APIs only: the ResourceManager ships 2.12.7. Reading validates: each document class
 * refuses values no writer may produce (negative allocations, an empty node id), so a bad document is
 * refused where it enters, with a message naming its path and the field.
 */
public final class YarnContractCodec {
    private static final ObjectMapper MAPPER = new ObjectMapper()
            .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false)
            .configure(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES, true);

    private YarnContractCodec() {
    }

    public static byte[] write(Object document) {
        try {
            return MAPPER.writeValueAsBytes(document);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot serialise " + document, e);
        }
    }

    /** Reads {@code type} from {@code data}; the message of the exception names {@code path} and the problem. */
    public static <T> T read(String path, byte[] data, Class<T> type) throws IOException {
        if (data == null || data.length == 0) {
            throw new IOException(path + " is empty, expected a " + type.getSimpleName() + " JSON document");
        }
        try {
            return MAPPER.readValue(data, type);
        } catch (JsonProcessingException e) {
            String text = new String(data, StandardCharsets.UTF_8);
            throw new IOException(path + " is not a valid " + type.getSimpleName() + " document ("
                    + e.getOriginalMessage() + "): " + (text.length() > 200 ? text.substring(0, 200) + "..." : text), e);
        } catch (IOException e) {
            throw new IOException(path + " cannot be read as " + type.getSimpleName() + ": " + e.getMessage(), e);
        }
    }
}
