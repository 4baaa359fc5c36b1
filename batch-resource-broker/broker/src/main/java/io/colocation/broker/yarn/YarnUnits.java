package io.colocation.broker.yarn;

import io.colocation.api.yarn.YarnGrant;
import io.colocation.model.Resources;

/** YARN's vcores and MiB as the ledger's milli-cores and bytes, and back (whole vcores and MiB, rounded down). */
public final class YarnUnits {
    public static final long MIB = 1024L * 1024L;

    private YarnUnits() {
    }

    public static Resources of(YarnSide.Usage u) {
        return new Resources(u.vcores() * 1000L, u.memoryMB() * MIB);
    }

    public static Resources of(YarnGrant g) {
        return of(new YarnSide.Usage(g.vcores(), g.memoryMB()));
    }

    /** What YARN can be granted of {@code r}: whole vcores and MiB, never negative. */
    public static YarnSide.Usage toYarn(Resources r) {
        int vcores = (int) Math.min(Integer.MAX_VALUE, Math.max(r.cpuMilli(), 0) / 1000);
        return new YarnSide.Usage(vcores, Math.max(r.memoryBytes(), 0) / MIB);
    }
}
