package io.colocation.simulator.fast;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/** The fast engine's clock: it stands still while an event runs and jumps to the next event's time. */
final class VirtualClock extends Clock {
    private volatile long millis;

    VirtualClock(long startMillis) {
        this.millis = startMillis;
    }

    void set(long nowMillis) {
        millis = nowMillis;
    }

    @Override
    public long millis() {
        return millis;
    }

    @Override
    public Instant instant() {
        return Instant.ofEpochMilli(millis);
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        return this;
    }
}
