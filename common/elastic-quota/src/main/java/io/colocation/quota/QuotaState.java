package io.colocation.quota;

/**
 * What the runtime computed of one quota, in Koordinator's terms (its {@code QuotaCalculateInfo}).
 *
 * @param childRequest   its own pods' requests and its children's limited requests
 * @param request        the child request, raised to min where the quota does not lend (Koordinator's {@code request}
 *                       annotation)
 * @param limitedRequest the request capped at max: what it asks of its parent
 * @param autoScaleMin   the min after min scaling
 * @param runtime        what it may hold now, masked to its max's names
 */
public record QuotaState(ResourceAmounts childRequest, ResourceAmounts request, ResourceAmounts limitedRequest,
        ResourceAmounts autoScaleMin, ResourceAmounts runtime) {
}
