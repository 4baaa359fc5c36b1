package io.colocation.broker.quota;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.colocation.model.Resources;
import io.colocation.quota.ElasticQuotaSpec;
import io.colocation.quota.QuotaTree;
import io.colocation.quota.ResourceAmounts;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Which roots the broker keeps the total of, the total, and when it is written. */
class TreeTotalTest {
    private static final String CPU = "kubernetes.io/batch-cpu";
    private static final String MEMORY = "kubernetes.io/batch-memory";

    private static ElasticQuotaSpec quota(String treeId, boolean isRoot, ResourceAmounts max) {
        return new ElasticQuotaSpec("r", "ns", QuotaTree.ROOT, true, true, ResourceAmounts.NONE, max, max, List.of(), null, treeId, isRoot,
                null, null);
    }

    @Test
    void onlyTreeRootsOverBatchAreKept() {
        ResourceAmounts batch = ResourceAmounts.of(CPU, 1L);
        assertTrue(TreeTotal.kept(quota("batch", true, batch)));
        assertFalse(TreeTotal.kept(quota("batch", true, ResourceAmounts.of("cpu", 1L))), "a tree over cpu is Koordinator's profile's");
        assertFalse(TreeTotal.kept(quota("", true, batch)), "no tree-id");
        assertFalse(TreeTotal.kept(quota("batch", false, batch)), "a member");
        assertEquals(ResourceAmounts.of(CPU, 2800L), TreeTotal.of(quota("batch", true, batch), new Resources(2800, 1L << 30)),
                "the Batch resources the max names only");
        assertEquals(ResourceAmounts.of(CPU, 0L, MEMORY, 0L), TreeTotal.of(quota("batch", true, ResourceAmounts.of(CPU, 1L, MEMORY, 1L)),
                new Resources(-5, -5)), "never below 0");
    }

    @Test
    void writtenWhenAbsentChangedInShapeShrunkOrGrownBeyondTheThreshold() {
        ResourceAmounts was = ResourceAmounts.of(CPU, 10_000L);
        for (Object[] c : List.of(
                new Object[] {null, 10_000L, "no readable total yet"},
                new Object[] {was, 10_000L, null},
                new Object[] {was, 11_000L, null},
                new Object[] {was, 11_001L, "kubernetes.io/batch-cpu grew by more than resourceDiffThreshold 0.1"},
                new Object[] {was, 9_999L, "kubernetes.io/batch-cpu shrank"})) {
            ResourceAmounts desired = ResourceAmounts.of(CPU, (Long) c[1]);
            assertEquals(c[2], TreeTotal.reason((ResourceAmounts) c[0], desired, 0.1), Arrays.toString(c));
        }
        assertEquals("the Batch resources of the root's max changed", TreeTotal.reason(was, ResourceAmounts.of(CPU, 10_000L, MEMORY, 1L), 0.1));
        assertEquals("kubernetes.io/batch-cpu grew by more than resourceDiffThreshold 0.1", TreeTotal.reason(ResourceAmounts.of(CPU, 0L),
                ResourceAmounts.of(CPU, 1L), 0.1), "any growth from 0");
    }
}
