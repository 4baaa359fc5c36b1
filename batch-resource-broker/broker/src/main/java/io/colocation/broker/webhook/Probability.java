package io.colocation.broker.webhook;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * A profile's {@code probability} as Koordinator reads it (docs/koordinator-compatibility.md §14.4, apimachinery's
 * {@code GetScaledValueFromIntOrPercent(p, 100, false)}): absent 100, an int32 N or the string {@code "N%"} N percent;
 * above 100 always applied, below 0 never. A value Koordinator cannot read ({@link #unreadable}) makes the profile
 * unusable; one outside 0 to 100 is refused only when the profile is applied ({@link #outOfRange}).
 */
final class Probability {
    private static final java.util.regex.Pattern PERCENT = java.util.regex.Pattern.compile("([+-]?\\d+)%");

    private Probability() {
    }

    /**
     * Why Koordinator cannot read the value: a number that is no int32 (its decoder fails on the whole profile) or a string
     * that is not an int32 followed by {@code %} (it refuses every matched pod); null when it can.
     */
    static String unreadable(JsonNode probability) {
        if (probability.isIntegralNumber()) {
            return probability.canConvertToInt() ? null : probability.asText() + " is not an int32 (Koordinator cannot decode the profile)";
        }
        String s = probability.asText();
        java.util.regex.Matcher m = PERCENT.matcher(s);
        if (!m.matches()) {
            return "\"" + s + "\" is not a percentage: give an integer or a string such as \"50%\" (Koordinator refuses every"
                    + " matched pod for it: invalid value for IntOrString: invalid " + (s.endsWith("%") ? "value" : "type: string is not a percentage") + ")";
        }
        try {
            Integer.parseInt(m.group(1));
            return null;
        } catch (NumberFormatException e) {
            return "\"" + s + "\" is not a percentage Koordinator reads (strconv.Atoi: value out of range)";
        }
    }

    /** Why a readable value is not 0 to 100 percent; null when it is. */
    static String outOfRange(JsonNode probability) {
        int p = percent(probability);
        return p >= 0 && p <= 100 ? null : (probability.isTextual() ? "\"" + probability.asText() + "\"" : probability.asText())
                + " is not from 0 to 100 percent (Koordinator applies the profile always above 100 and never below 0)";
    }

    /** The percent of a readable probability ({@link #unreadable} null); 100 when absent. */
    static int percent(JsonNode probability) {
        if (probability == null) {
            return 100;
        }
        if (probability.isIntegralNumber()) {
            return probability.intValue();
        }
        String s = probability.asText();
        return Integer.parseInt(s.substring(0, s.length() - 1));
    }
}
