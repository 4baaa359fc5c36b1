package io.colocation.model.labels;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/** apimachinery's syntax of label keys and values and of DNS subdomains, with its error texts. */
public final class LabelSyntax {
    private static final Pattern NAME = Pattern.compile("([A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?)?");
    private static final Pattern DNS_SUBDOMAIN = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");

    private LabelSyntax() {
    }

    /** apimachinery's {@code IsDNS1123Subdomain}. */
    public static boolean dnsSubdomain(String name) {
        return name.length() <= 253 && DNS_SUBDOMAIN.matcher(name).matches();
    }

    /** apimachinery's {@code IsQualifiedName}: an optional DNS-subdomain prefix and a name of up to 63 characters. */
    public static List<String> keyProblems(String key) {
        String prefix = null;
        String name = key;
        int slash = key.indexOf('/');
        if (slash >= 0) {
            prefix = key.substring(0, slash);
            name = key.substring(slash + 1);
        }
        List<String> out = new ArrayList<>();
        if (prefix != null && (prefix.isEmpty() || !dnsSubdomain(prefix))) {
            out.add("key \"" + key + "\": prefix part must be a DNS subdomain");
        }
        if (name.isEmpty() || name.length() > 63 || !NAME.matcher(name).matches() || name.contains("/")) {
            out.add("key \"" + key + "\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start"
                    + " and end with an alphanumeric character (at most 63)");
        }
        return out;
    }

    /** apimachinery's {@code IsValidLabelValue}: empty, or up to 63 characters of label syntax. */
    public static List<String> valueProblems(String value) {
        return value.length() <= 63 && NAME.matcher(value).matches() ? List.of()
                : List.of("value \"" + value + "\": a valid label must be an empty string or consist of alphanumeric characters,"
                        + " '-', '_' or '.', and must start and end with an alphanumeric character (at most 63)");
    }
}
