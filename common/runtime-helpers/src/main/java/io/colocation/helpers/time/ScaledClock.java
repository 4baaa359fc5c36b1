package io.colocation.helpers.time;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/**
 * A clock that runs {@code speed} times faster than the wall clock from a common origin: {@code now = origin + (wall -
 * origin) × speed}. {@code colocation simulate} compresses a day this way: every part's decision clock (the broker's
 * freshness and degrade rules, the scheduler's backoff and NodeMetric expiry, the koordlets' windows, the plugin's
 * report times) reads the same simulated time, while leases, sessions and network timeouts stay on the wall clock.
 * Processes on one host agree because each computes from the wall clock and the same origin.
 *
 * <p>Outside a simulation nothing sets {@value #SPEED_PROPERTY} and {@link #fromSystemProperties()} is the system clock.
 */
public final class ScaledClock extends Clock {
    /** System property: the speed-up, a number above 0 (1: real time). */
    public static final String SPEED_PROPERTY = "colocation.clock.speed";
    /** System property: the origin, wall-clock milliseconds since the epoch where simulated and real time agree. */
    public static final String ORIGIN_PROPERTY = "colocation.clock.origin";

    private final long originMillis;
    private final double speed;
    private final Clock wall;
    private final ZoneId zone;

    public ScaledClock(long originMillis, double speed, Clock wall) {
        this(originMillis, speed, wall, ZoneOffset.UTC);
    }

    private ScaledClock(long originMillis, double speed, Clock wall, ZoneId zone) {
        if (!(speed > 0) || Double.isInfinite(speed)) {
            throw new IllegalArgumentException("the clock speed must be a number above 0, not " + speed);
        }
        this.originMillis = originMillis;
        this.speed = speed;
        this.wall = wall;
        this.zone = zone;
    }

    /**
     * The clock the system properties ask for: a scaled clock when {@value #SPEED_PROPERTY} is set (with
     * {@value #ORIGIN_PROPERTY}), else the system's UTC clock.
     *
     * @throws IllegalArgumentException when a property is set but not a number (the message names it)
     */
    public static Clock fromSystemProperties() {
        String speed = System.getProperty(SPEED_PROPERTY);
        if (speed == null || speed.trim().isEmpty()) {
            return Clock.systemUTC();
        }
        String origin = System.getProperty(ORIGIN_PROPERTY);
        double s;
        long o;
        try {
            s = Double.parseDouble(speed.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(SPEED_PROPERTY + ": '" + speed + "' is not a number");
        }
        try {
            o = origin == null ? System.currentTimeMillis() : Long.parseLong(origin.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(ORIGIN_PROPERTY + ": '" + origin + "' is not milliseconds since the epoch");
        }
        return s == 1 ? Clock.systemUTC() : new ScaledClock(o, s, Clock.systemUTC());
    }

    public double speed() {
        return speed;
    }

    public long originMillis() {
        return originMillis;
    }

    /** Wall-clock milliseconds that {@code simulatedMillis} take (at least 1 for a positive span). */
    public long real(long simulatedMillis) {
        return simulatedMillis <= 0 ? 0 : Math.max(1, Math.round(simulatedMillis / speed));
    }

    @Override
    public long millis() {
        return originMillis + Math.round((wall.millis() - originMillis) * speed);
    }

    @Override
    public Instant instant() {
        return Instant.ofEpochMilli(millis());
    }

    @Override
    public ZoneId getZone() {
        return zone;
    }

    @Override
    public Clock withZone(ZoneId other) {
        return other.equals(zone) ? this : new ScaledClock(originMillis, speed, wall, other);
    }

    @Override
    public String toString() {
        return "ScaledClock[" + speed + "x from " + Instant.ofEpochMilli(originMillis) + "]";
    }
}
