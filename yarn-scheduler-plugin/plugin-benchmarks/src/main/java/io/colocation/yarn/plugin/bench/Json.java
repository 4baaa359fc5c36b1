package io.colocation.yarn.plugin.bench;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

/** The broker's JSON for the grants the benchmark writes. */
final class Json {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private Json() {
    }

    static byte[] write(Object document) throws JsonProcessingException {
        return MAPPER.writeValueAsBytes(document);
    }
}
