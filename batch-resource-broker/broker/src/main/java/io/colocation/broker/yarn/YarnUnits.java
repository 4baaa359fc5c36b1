package io.colocation.broker.yarn;

import io.colocation.api.yarn.YarnGrant;
import io.colocation.api.yarn.YarnResourceUnits;
import io.colocation.model.Resources;

/** YARN's vcores and MiB as the ledger's milli-cores and bytes, and back (whole vcores and MiB, rounded down). */
public final class YarnUnits {
    private YarnUnits() {
    }

    public static Resources of(YarnSide.Usage u) {
        return new Resources(YarnResourceUnits.milliOfVcores(u.vcores()), YarnResourceUnits.bytesOfMb(u.memoryMB()));
    }

    public static Resources of(YarnGrant g) {
        return of(new YarnSide.Usage(g.vcores(), g.memoryMB()));
    }

    /** What YARN can be granted of {@code r}: whole vcores and MiB, never negative. */
    public static YarnSide.Usage toYarn(Resources r) {
        return new YarnSide.Usage(YarnResourceUnits.vcoresOfMilli(r.cpuMilli()), YarnResourceUnits.mbOfBytes(r.memoryBytes()));
    }
}
