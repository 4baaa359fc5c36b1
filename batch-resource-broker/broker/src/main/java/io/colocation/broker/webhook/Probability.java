package io.colocation.broker.webhook;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * A profile's {@code probability} as Koordinator reads it (KOORDINATOR-COMPAT.md §14.4, apimachinery's
 * {@code GetScaledValueFromIntOrPercent(p, 100, false)}): absent 100, an integer N or the string {@code "N%"} N percent;
 * any other string refuses the pod with Koordinator's words.
 */
final class Probability {
    private Probability() {
    }

    static int percent(JsonNode probability) throws PodMutation.Denied {
        if (probability == null) {
            return 100;
        }
        if (probability.isIntegralNumber()) {
            return probability.intValue();
        }
        String s = probability.asText();
        if (!s.endsWith("%")) {
            throw new PodMutation.Denied("invalid value for IntOrString: invalid type: string is not a percentage");
        }
        String digits = s.substring(0, s.length() - 1);
        try {
            return Integer.parseInt(digits);
        } catch (NumberFormatException e) {
            throw new PodMutation.Denied("invalid value for IntOrString: invalid value \"" + s + "\": strconv.Atoi: parsing \""
                    + digits + "\": " + (digits.matches("[+-]?\\d+") ? "value out of range" : "invalid syntax"));
        }
    }
}
