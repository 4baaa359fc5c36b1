package io.colocation.quota;

/**
 * One ElasticQuota as the runtime needs it (docs/koordinator-compatibility.md §15.1): its parent ({@link QuotaTree#ROOT}
 * for a quota under the root), whether it may lend what it does not use, min, max and shared weight (Koordinator's
 * default, the max, already applied), and the requests of its own pods, masked to its max's names.
 */
public record Quota(String name, String parent, boolean allowLent, ResourceAmounts min, ResourceAmounts max,
        ResourceAmounts sharedWeight, ResourceAmounts ownRequest) {
}
