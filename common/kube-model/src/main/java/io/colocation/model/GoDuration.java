package io.colocation.model;

import io.colocation.api.InvalidInputException;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Go's {@code time.Duration} text, as Koordinator's CRDs and flags use it: {@code 5m}, {@code 1h30m},
 * {@code 1.5h}, {@code 300ms}; printed back the way Go prints it ({@code 5m0s}).
 */
public final class GoDuration {
    private static final Pattern PART = Pattern.compile("(\\d+(?:\\.\\d*)?|\\.\\d+)(ns|us|µs|ms|s|m|h)");
    private static final int MAX_TEXT = 64;

    private GoDuration() {
    }

    /** Parses a non-negative duration; {@code where} names the input in the error. */
    public static Duration parse(String text, String where) throws InvalidInputException {
        if (text == null || text.isBlank()) {
            throw new InvalidInputException(where + ": empty duration (use Go's form, for example 5m or 24h)");
        }
        if (text.length() > MAX_TEXT) {
            throw new InvalidInputException(where + ": duration text longer than " + MAX_TEXT + " characters");
        }
        if (text.equals("0")) {
            return Duration.ZERO;
        }
        Matcher m = PART.matcher(text);
        int at = 0;
        BigDecimal nanos = BigDecimal.ZERO;
        while (at < text.length()) {
            if (!m.find(at) || m.start() != at) {
                throw new InvalidInputException(where + ": '" + text + "' is not a duration (use Go's form, for example 5m, 1h30m or 300ms)");
            }
            nanos = nanos.add(new BigDecimal(m.group(1)).multiply(BigDecimal.valueOf(unitNanos(m.group(2)))));
            at = m.end();
        }
        if (nanos.compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) > 0) {
            throw new InvalidInputException(where + ": '" + text + "' is longer than Go's longest duration (about 290 years)");
        }
        return Duration.ofNanos(nanos.longValue());
    }

    private static long unitNanos(String unit) {
        return switch (unit) {
            case "ns" -> 1L;
            case "us", "µs" -> 1_000L;
            case "ms" -> 1_000_000L;
            case "s" -> 1_000_000_000L;
            case "m" -> 60_000_000_000L;
            default -> 3_600_000_000_000L;
        };
    }

    /** Whole seconds as Go prints them: {@code 5m0s}, {@code 1h0m0s}, {@code 0s}. */
    public static String format(Duration d) {
        long seconds = d.getSeconds();
        if (seconds == 0) {
            return "0s";
        }
        long h = seconds / 3600;
        long m = seconds % 3600 / 60;
        long s = seconds % 60;
        return h > 0 ? h + "h" + m + "m" + s + "s" : m > 0 ? m + "m" + s + "s" : s + "s";
    }
}
