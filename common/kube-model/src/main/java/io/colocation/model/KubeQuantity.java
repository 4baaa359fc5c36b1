package io.colocation.model;

import io.colocation.api.InvalidInputException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A Kubernetes quantity as apimachinery's {@code resource.Quantity} holds it: its exact value (rounded up to nano
 * units, as {@code ParseQuantity} does) and its format (binary {@code Ki}/{@code Mi}/..., decimal SI {@code m}/{@code k}
 * /..., or a decimal exponent {@code e3}) and the decimal scale it was written with ({@code 1k} is 1 at scale 3,
 * {@code 1000} is 1000 at scale 0: the same value, two representations, as Go's {@code int64Amount} keeps them), printed
 * in Go's canonical form ({@code 1000} is {@code 1k}, {@code 1.5Gi} is
 * {@code 1536Mi}, {@code 0.5} is {@code 500m}). Signs are kept: this is the syntax, what a field allows is its reader's.
 */
public record KubeQuantity(BigDecimal value, Format format, int scale) {
    public enum Format { BINARY_SI, DECIMAL_SI, DECIMAL_EXPONENT }

    private static final Pattern SYNTAX = Pattern.compile(
            "([+-]?)(\\d+\\.?\\d*|\\.\\d+)(Ki|Mi|Gi|Ti|Pi|Ei|n|u|m|k|M|G|T|P|E|[eE][+-]?\\d+)?");
    private static final Map<String, Integer> BINARY = Map.of("Ki", 10, "Mi", 20, "Gi", 30, "Ti", 40, "Pi", 50, "Ei", 60);
    private static final Map<String, Integer> DECIMAL = Map.of("n", -9, "u", -6, "m", -3, "k", 3, "M", 6, "G", 9, "T", 12, "P", 15,
            "E", 18);
    private static final Map<Integer, String> DECIMAL_SUFFIX = Map.of(-9, "n", -6, "u", -3, "m", 0, "", 3, "k", 6, "M", 9, "G", 12, "T",
            15, "P", 18, "E");
    private static final String[] BINARY_SUFFIX = {"", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"};
    private static final BigDecimal BINARY_LIMIT = BigDecimal.valueOf(1024);
    private static final int MAX_EXPONENT = 100;

    /** Parses {@code text}; an error naming {@code where} when it is not a quantity. */
    public static KubeQuantity parse(String text, String where) throws InvalidInputException {
        Matcher m = text == null || text.length() > 64 ? null : SYNTAX.matcher(text.trim().equals(text) ? text : "\u0000");
        if (m == null || !m.matches()) {
            throw new InvalidInputException(where + ": \"" + text + "\" is not a Kubernetes quantity (examples: 500m, 4, 1.5Gi)");
        }
        String digits = m.group(2);
        BigDecimal number = new BigDecimal(digits.endsWith(".") ? digits + "0" : digits.startsWith(".") ? "0" + digits : digits);
        if ("-".equals(m.group(1))) {
            number = number.negate();
        }
        String suffix = m.group(3) == null ? "" : m.group(3);
        BigDecimal value;
        Format format;
        int fraction = number.scale() > 0 ? Math.max(number.stripTrailingZeros().scale(), 0) : 0;
        int exponent10 = 0;
        if (BINARY.containsKey(suffix)) {
            value = number.multiply(new BigDecimal(BigInteger.ONE.shiftLeft(BINARY.get(suffix))));
            format = Format.BINARY_SI;
            fraction = 0;
        } else if (suffix.isEmpty() || DECIMAL.containsKey(suffix)) {
            exponent10 = suffix.isEmpty() ? 0 : DECIMAL.get(suffix);
            value = number.scaleByPowerOfTen(exponent10);
            format = Format.DECIMAL_SI;
        } else {
            String e = suffix.substring(1).replace("+", "");
            int exponent;
            try {
                exponent = Integer.parseInt(e);
            } catch (NumberFormatException ex) {
                exponent = Integer.MAX_VALUE;
            }
            if (Math.abs((long) exponent) > MAX_EXPONENT) {
                throw new InvalidInputException(where + ": quantity \"" + text + "\" has an exponent outside ±" + MAX_EXPONENT);
            }
            exponent10 = exponent;
            value = number.scaleByPowerOfTen(exponent);
            format = Format.DECIMAL_EXPONENT;
        }
        // apimachinery keeps nothing finer than nano units: finer values are rounded up.
        value = value.setScale(Math.min(Math.max(value.scale(), 0), 9), RoundingMode.CEILING);
        return new KubeQuantity(value, format, Math.max(exponent10 - fraction, -9));
    }

    /** A plain integer in the decimal SI format ({@code resource.NewQuantity(v, DecimalSI)}). */
    public static KubeQuantity integer(long v) {
        return new KubeQuantity(BigDecimal.valueOf(v), Format.DECIMAL_SI, 0);
    }

    /** {@code MilliValue()}: thousandths, rounded up. */
    public long milliValue() {
        return value.scaleByPowerOfTen(3).setScale(0, RoundingMode.CEILING).longValueExact();
    }

    /** Go's {@code Quantity.String()}: the canonical form. */
    public String canonical() {
        if (value.signum() == 0) {
            return "0";
        }
        Format f = format;
        if (f == Format.BINARY_SI) {
            boolean small = value.abs().compareTo(BINARY_LIMIT) < 0;
            boolean whole = value.stripTrailingZeros().scale() <= 0;
            if (small || !whole) {
                f = Format.DECIMAL_SI; // shown exactly, never rounded to a binary unit
            }
        }
        if (f == Format.BINARY_SI) {
            BigInteger amount = value.toBigIntegerExact();
            int exponent = 0;
            BigInteger k = BigInteger.valueOf(1024);
            while (exponent < BINARY_SUFFIX.length - 1 && amount.mod(k).signum() == 0) {
                amount = amount.divide(k);
                exponent++;
            }
            return amount + BINARY_SUFFIX[exponent];
        }
        BigDecimal stripped = value.stripTrailingZeros();
        BigInteger mantissa = stripped.unscaledValue();
        int exponent = -stripped.scale();
        int rest = Math.floorMod(exponent, 3);
        if (rest != 0) {
            mantissa = mantissa.multiply(BigInteger.TEN.pow(rest));
            exponent -= rest;
        }
        if (f == Format.DECIMAL_EXPONENT) {
            return mantissa + (exponent == 0 ? "" : "e" + exponent);
        }
        String suffix = DECIMAL_SUFFIX.get(exponent);
        if (suffix == null) {
            // beyond E (or below n, which parsing rounded away): Go falls back to the exponent form too
            return mantissa + "e" + exponent;
        }
        return mantissa + suffix;
    }

    /**
     * Held the same way (Go's {@code reflect.DeepEqual} on two parsed quantities): same format and value, and for decimal
     * forms the same scale ({@code 1000} and {@code 1k} are equal in value, not in representation).
     */
    public boolean sameRepresentation(KubeQuantity other) {
        return format == other.format && value.compareTo(other.value) == 0 && (format == Format.BINARY_SI || scale == other.scale);
    }
}
