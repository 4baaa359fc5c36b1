package io.colocation.api;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Kubernetes resource quantities ({@code 500m}, {@code 4}, {@code 1.5Gi}, {@code 2e3}) read as apimachinery
 * reads them: {@link #milliValue} and {@link #value} round up, as {@code MilliValue()} and {@code Value()}
 * do. Negative quantities are refused: no input of the calculation may be negative.
 */
public final class Quantities {
    private static final Pattern QUANTITY = Pattern.compile(
            "([+-]?)(\\d+\\.?\\d*|\\.\\d+)(Ki|Mi|Gi|Ti|Pi|Ei|n|u|m|k|M|G|T|P|E|[eE][+-]?\\d+)?");

    private static final int MAX_LENGTH = 64;
    private static final int MAX_EXPONENT = 100;
    /** Binary suffixes as powers of two; "" is no suffix. */
    private static final Map<String, Integer> BINARY_SHIFTS = suffixes("", 0, "Ki", 10, "Mi", 20, "Gi", 30, "Ti", 40, "Pi", 50, "Ei", 60);
    /** Decimal SI suffixes as powers of ten. */
    private static final Map<String, Integer> DECIMAL_EXPONENTS = suffixes("n", -9, "u", -6, "m", -3, "k", 3, "M", 6, "G", 9, "T", 12,
            "P", 15, "E", 18);
    /** Base units per suffix, × 1000, for the forms a fast reading takes. */
    private static final Map<String, Long> PLAIN_MILLI = plainMilliPerUnit();
    private static final long LARGEST_MILLI = Long.MAX_VALUE / 1000 * 1000;

    private Quantities() {
    }

    /** The amount in base units (cores, bytes). */
    public static BigDecimal amount(String text, String where) throws InvalidInputException {
        if (text == null) {
            throw new InvalidInputException(where + ": missing quantity");
        }
        String s = text.trim();
        if (s.length() > MAX_LENGTH) {
            throw new InvalidInputException(where + ": quantity of " + s.length() + " characters is too long (at most " + MAX_LENGTH + ")");
        }
        Matcher m = QUANTITY.matcher(s);
        if (!m.matches()) {
            throw new InvalidInputException(where + ": \"" + text + "\" is not a Kubernetes quantity (examples: 500m, 4, 1.5Gi)");
        }
        BigDecimal number = new BigDecimal(m.group(2).endsWith(".") ? m.group(2) + "0" : m.group(2));
        if ("-".equals(m.group(1)) && number.signum() != 0) {
            throw new InvalidInputException(where + ": negative quantity \"" + text + "\"");
        }
        String suffix = m.group(3) == null ? "" : m.group(3);
        BigDecimal amount;
        Integer binaryShift = BINARY_SHIFTS.get(suffix);
        Integer decimalExponent = DECIMAL_EXPONENTS.get(suffix);
        if (binaryShift != null) {
            amount = number.multiply(BigDecimal.valueOf(1L << binaryShift));
        } else if (decimalExponent != null) {
            amount = number.scaleByPowerOfTen(decimalExponent);
        } else {
            amount = number.scaleByPowerOfTen(exponent(suffix, text, where));
        }
        if (amount.compareTo(BigDecimal.valueOf(Long.MAX_VALUE / 1000)) > 0) {
            throw new InvalidInputException(where + ": quantity \"" + text + "\" is too large");
        }
        return amount;
    }

    private static Map<String, Long> plainMilliPerUnit() {
        Map<String, Long> out = new HashMap<>();
        BINARY_SHIFTS.forEach((suffix, shift) -> {
            if (shift <= 50) {
                out.put(suffix, 1000L << shift);
            }
        });
        DECIMAL_EXPONENTS.forEach((suffix, exponent) -> {
            if (exponent >= -3 && exponent <= 15) {
                out.put(suffix, BigDecimal.ONE.scaleByPowerOfTen(exponent + 3).longValueExact());
            }
        });
        return Collections.unmodifiableMap(out);
    }

    private static Map<String, Integer> suffixes(Object... pairs) {
        Map<String, Integer> out = new HashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            out.put((String) pairs[i], (Integer) pairs[i + 1]);
        }
        return Collections.unmodifiableMap(out);
    }

    /** A decimal exponent ({@code e3}) within ±{@value #MAX_EXPONENT}; further is no real amount, only a trap. */
    private static int exponent(String suffix, String text, String where) throws InvalidInputException {
        String digits = suffix.substring(1).replace("+", "");
        boolean negative = digits.startsWith("-");
        String magnitude = (negative ? digits.substring(1) : digits).replaceFirst("^0+(?=\\d)", "");
        if (magnitude.length() > 3 || Integer.parseInt(magnitude) > MAX_EXPONENT) {
            throw new InvalidInputException(where + ": quantity \"" + text + "\" has an exponent outside ±" + MAX_EXPONENT);
        }
        return negative ? -Integer.parseInt(magnitude) : Integer.parseInt(magnitude);
    }

    /** Base units × 1000, rounded up (CPU in milli-cores). */
    public static long milliValue(String text, String where) throws InvalidInputException {
        long milli = plainMilli(text);
        return milli >= 0 ? milli : amount(text, where).scaleByPowerOfTen(3).setScale(0, RoundingMode.CEILING).longValueExact();
    }

    /** Base units, rounded up (memory in bytes, extended resources as integers). */
    public static long value(String text, String where) throws InvalidInputException {
        long milli = plainMilli(text);
        if (milli >= 0) {
            return milli / 1000 + (milli % 1000 == 0 ? 0 : 1);
        }
        return amount(text, where).setScale(0, RoundingMode.CEILING).longValueExact();
    }

    /**
     * The quantity in base units × 1000 when it is a plain integer with a common suffix ({@code 500m}, {@code 4},
     * {@code 16Gi}), read without a regular expression or BigDecimal since pods and metrics are read all the time;
     * -1 for any other form, which {@link #amount} reads (and judges).
     */
    private static long plainMilli(String text) {
        if (text == null) {
            return -1;
        }
        int digits = 0;
        while (digits < text.length() && text.charAt(digits) >= '0' && text.charAt(digits) <= '9') {
            digits++;
        }
        if (digits == 0 || digits > 18) {
            return -1;
        }
        Long perUnit = PLAIN_MILLI.get(text.substring(digits));
        if (perUnit == null) {
            return -1;
        }
        long number = Long.parseLong(text.substring(0, digits));
        if (number > LARGEST_MILLI / perUnit) {
            return -1; // too large: amount says so
        }
        return number * perUnit;
    }
}
