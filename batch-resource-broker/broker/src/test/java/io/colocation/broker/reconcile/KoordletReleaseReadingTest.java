package io.colocation.broker.reconcile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.colocation.broker.decision.KoordletRelease;
import io.colocation.broker.nodeagent.ReleaseProof;
import io.colocation.model.Resources;
import io.colocation.model.node.YarnRelease;
import io.colocation.model.node.YarnReleaseResource;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Trust decided where the facts are read (issue 64's proof of its own making, issue 70's stamp out of the decision): a
 * node's YarnRelease is honoured only with the node-agent webhook's stamp for that node, whatever else carries it.
 */
class KoordletReleaseReadingTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final ReleaseProof PROOF = new ReleaseProof(new byte[32]);
    private static final ReleaseProof OTHER_KEY = new ReleaseProof("another broker's key, 32 bytes long".getBytes());
    private static final YarnRelease RELEASE = new YarnRelease(new Resources(1000, 1L << 30), Instant.parse("2026-11-23T10:00:40Z"),
            "BECPUEvict: test", List.of("container_1_0001_01_000002"));
    private static final String IGNORED = "ignored YarnRelease n1: it carries no colocation.io/yarn-release-proof of the node-agent"
            + " webhook for this node, so this node's own koordlet did not write it (nodeAgent.restricted)";

    private static Optional<YarnReleaseResource> written(ObjectNode spec, String proof) {
        YarnReleaseResource r = new YarnReleaseResource();
        r.getMetadata().setName("n1");
        r.setSpec(spec);
        if (proof != null) {
            r.getMetadata().setAnnotations(Map.of(YarnReleaseResource.PROOF_ANNOTATION, proof));
        }
        return Optional.of(r);
    }

    static Stream<Arguments> cases() throws Exception {
        ObjectNode reencoded = (ObjectNode) JSON.readTree("{\"reason\": \"BECPUEvict: test\", \"containers\": [\"container_1_0001_01_000002\"],"
                + " \"limit\": {\"memory\": \"1Gi\", \"cpu\": \"1\"}, \"expires\": \"2026-11-23T11:00:40+01:00\"}");
        return Stream.of(
                // name, what is written, the proof the broker asks (null: none), the release honoured, why ignored
                Arguments.of("none", Optional.empty(), PROOF, null, null),
                Arguments.of("stamped for its node", written(RELEASE.toSpec(), PROOF.sign("n1", RELEASE)), PROOF, RELEASE, null),
                Arguments.of("stamped, the spec re-encoded by the API server", written(reencoded, PROOF.sign("n1", RELEASE)), PROOF, RELEASE,
                        null),
                Arguments.of("unstamped", written(RELEASE.toSpec(), null), PROOF, null, IGNORED),
                Arguments.of("a stamp of the agent's own making", written(RELEASE.toSpec(), "forged"), PROOF, null, IGNORED),
                Arguments.of("a stamp copied from another node", written(RELEASE.toSpec(), PROOF.sign("n2", RELEASE)), PROOF, null, IGNORED),
                Arguments.of("a stamp of another release on this node", written(RELEASE.toSpec(), PROOF.sign("n1",
                        new YarnRelease(new Resources(0, 0), RELEASE.expires(), "", List.of()))), PROOF, null, IGNORED),
                Arguments.of("a stamp under another key", written(RELEASE.toSpec(), OTHER_KEY.sign("n1", RELEASE)), PROOF, null, IGNORED),
                Arguments.of("no stamp asked (nodeAgent.restricted false)", written(RELEASE.toSpec(), null), null, RELEASE, null),
                Arguments.of("malformed", written(JSON.createObjectNode().put("limit", 3), null), PROOF, null,
                        "ignored YarnRelease n1: spec: limit must give cpu and memory"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void honouredOnlyWithItsNodesStamp(String name, Optional<YarnReleaseResource> written, ReleaseProof asked, YarnRelease honoured,
            String ignored) {
        KoordletRelease read = NodeFactsReader.release(written, "n1", asked);
        assertEquals(honoured, read.release());
        assertEquals(ignored, read.ignored());
        if (honoured != null) {
            assertNull(read.ignored());
        }
    }
}
