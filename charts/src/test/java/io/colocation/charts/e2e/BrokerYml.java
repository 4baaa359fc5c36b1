package io.colocation.charts.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.nio.file.Path;

/** The broker.yml a manifest file's ConfigMap colocation-broker carries. */
final class BrokerYml {
    private BrokerYml() {
    }

    static String of(Path manifests) throws IOException {
        for (JsonNode doc : new ObjectMapper(new YAMLFactory()).readerFor(JsonNode.class).<JsonNode>readValues(manifests.toFile()).readAll()) {
            if (doc != null && "ConfigMap".equals(doc.path("kind").asText()) && "colocation-broker".equals(doc.at("/metadata/name").asText())) {
                return doc.at("/data/broker.yml").asText();
            }
        }
        throw new IOException(manifests + " holds no ConfigMap colocation-broker");
    }
}
