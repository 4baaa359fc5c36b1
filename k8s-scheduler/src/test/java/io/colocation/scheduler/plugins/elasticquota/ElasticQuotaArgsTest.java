package io.colocation.scheduler.plugins.elasticquota;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.colocation.api.InvalidInputException;
import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/** Koordinator's ElasticQuotaArgs: its defaults, its field names, and a named error for each bad field. */
class ElasticQuotaArgsTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void koordinatorsDefaults() throws Exception {
        ElasticQuotaArgs d = ElasticQuotaArgs.parse(JSON.readTree("{}"), "args");
        assertEquals(ElasticQuotaArgs.DEFAULTS, d);
        assertEquals(true, d.enableRuntimeQuota());
        assertEquals(true, d.enableMinQuotaScale());
        assertEquals(false, d.monitorAllQuotas());
        assertEquals(Duration.ofSeconds(120), d.delayEvictTime());
        assertEquals(Duration.ofSeconds(1), d.revokePodInterval());
        assertEquals(false, d.enableCheckParentQuota());
        assertEquals(true, d.disableDefaultQuotaPreemption());
        assertEquals("koordinator-system", d.quotaGroupNamespace());
    }

    @Test
    void fieldsAreReadByKoordinatorsNames() throws Exception {
        ElasticQuotaArgs a = ElasticQuotaArgs.parse(JSON.readTree("""
                {"enableRuntimeQuota": false, "enableCheckParentQuota": true, "delayEvictTime": "5m",
                 "quotaGroupNamespace": "quotas", "defaultQuotaGroupMax": {"cpu": "100", "memory": "1Ti"},
                 "hookPlugins": [], "enableQueueHint": true}"""), "args");
        assertEquals(false, a.enableRuntimeQuota());
        assertEquals(true, a.enableCheckParentQuota());
        assertEquals(Duration.ofMinutes(5), a.delayEvictTime());
        assertEquals("quotas", a.quotaGroupNamespace());
        assertEquals(100_000, a.defaultQuotaGroupMax().get("cpu"));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "{\"enableRuntimeQuota\": \"yes\"}|args.enableRuntimeQuota: must be true or false, found \"yes\"",
        "{\"delayEvictTime\": \"0s\"}|args.delayEvictTime: must be positive, found 0s",
        "{\"quotaGroupNamespace\": \"\"}|args.quotaGroupNamespace: must name a namespace",
        "{\"systemQuotaGroupMax\": {\"cpu\": \"-1\"}}|args.systemQuotaGroupMax.cpu: negative quantity \"-1\"",
        "[1]|args: must be a map of ElasticQuotaArgs fields"})
    void badFieldsAreNamed(String args, String message) {
        InvalidInputException e = assertThrows(InvalidInputException.class, () -> ElasticQuotaArgs.parse(JSON.readTree(args), "args"));
        assertEquals(message, e.getMessage());
    }
}
