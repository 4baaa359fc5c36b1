package io.colocation.broker.yarn;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SuccessionTest {
    @ParameterizedTest(name = "{0}: {1} rejoins={2}")
    @CsvSource(delimiter = '|', value = {
        "a@1 b@2 c@3 | b@2 | true",   // c started after b and stands behind it
        "a@1 c@3 b@2 | b@2 | false",  // newest first already
        "a@1 c@3 b@2 | c@3 | false",
        "a@1 b@2     | a@1 | false",  // the leader never rejoins
        "a@1 b@2     | x@9 | false",  // not in line yet
        "a@1 old c@3 | old | true",   // an earlier broker's id counts as the oldest
        "a@1 c@3 old | c@3 | false",
    })
    void theNewestIsNextInLine(String line, String self, boolean rejoins) {
        assertEquals(rejoins, Succession.shouldRejoin(List.of(line.trim().split("\\s+")), self.trim()));
    }

    @ParameterizedTest
    @CsvSource({"broker-7d9f-abc@1732700000000, broker-7d9f-abc", "plain, plain", "user@realm, user@realm", "a@b@5, a@b"})
    void theReplicaIdIsWhatTheIdNames(String participant, String replica) {
        assertEquals(replica, Succession.replicaId(participant));
    }
}
