package io.colocation.koordlet.config;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads {@code conf/koordlet.yml} the way the broker reads its file: {@code ${VAR}} and {@code ${VAR:-default}}
 * name environment variables, and {@code -Dkoordlet.<path>=value} system properties override single values
 * (the broker's {@code -Ddw.<path>}). Every problem is reported with the file and the field.
 */
public final class KoordletConfigLoader {
    public static final String OVERRIDE_PREFIX = "koordlet.";
    private static final Pattern VARIABLE = Pattern.compile("\\$\\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?}");
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory())
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    private final Map<String, String> environment;
    private final Properties overrides;

    public KoordletConfigLoader(Map<String, String> environment, Properties overrides) {
        this.environment = environment;
        this.overrides = overrides;
    }

    public static KoordletConfigLoader fromProcess() {
        return new KoordletConfigLoader(System.getenv(), System.getProperties());
    }

    public KoordletConfig load(Path file) throws ConfigException {
        String text;
        try {
            text = Files.readString(file);
        } catch (IOException e) {
            throw new ConfigException("cannot read the configuration file '" + file + "': " + e.getMessage());
        }
        return parse(text, file.toString());
    }

    public KoordletConfig parse(String text, String source) throws ConfigException {
        JsonNode tree;
        try {
            tree = YAML.readTree(substitute(text, source));
        } catch (JsonProcessingException e) {
            throw new ConfigException(source + ": not valid YAML: " + e.getOriginalMessage()
                    + (e.getLocation() == null ? "" : " (line " + e.getLocation().getLineNr() + ")"));
        }
        ObjectNode root = tree == null || tree.isMissingNode() || tree.isNull() ? YAML.createObjectNode()
                : tree instanceof ObjectNode o ? o : null;
        if (root == null) {
            throw new ConfigException(source + ": expected a map of settings at the top, found " + tree.getNodeType());
        }
        applyOverrides(root, source);
        KoordletConfig config;
        try {
            config = YAML.treeToValue(root, KoordletConfig.class);
        } catch (UnrecognizedPropertyException e) {
            throw new ConfigException(source + ": unknown setting '" + path(e) + "'");
        } catch (JsonProcessingException e) {
            throw new ConfigException(source + ": bad value for '" + path(e) + "': " + e.getOriginalMessage());
        }
        List<String> problems = config.validate();
        if (!problems.isEmpty()) {
            throw new ConfigException(source + ": " + String.join("; ", problems));
        }
        return config;
    }

    private static String path(JsonProcessingException e) {
        if (e instanceof com.fasterxml.jackson.databind.JsonMappingException m) {
            StringBuilder b = new StringBuilder();
            for (com.fasterxml.jackson.databind.JsonMappingException.Reference r : m.getPath()) {
                if (r.getFieldName() != null) {
                    b.append(b.length() == 0 ? "" : ".").append(r.getFieldName());
                } else {
                    b.append('[').append(r.getIndex()).append(']');
                }
            }
            return b.toString();
        }
        return "?";
    }

    /** Replaces variables outside comment lines (the shipped file's comments show the syntax). */
    private String substitute(String text, String source) throws ConfigException {
        StringBuilder out = new StringBuilder();
        for (String line : text.split("\n", -1)) {
            if (out.length() > 0) {
                out.append('\n');
            }
            if (line.stripLeading().startsWith("#")) {
                out.append(line);
                continue;
            }
            Matcher m = VARIABLE.matcher(line);
            while (m.find()) {
                String value = environment.get(m.group(1));
                if (value == null || value.isEmpty()) {
                    value = m.group(2);
                }
                if (value == null) {
                    throw new ConfigException(source + ": the environment variable " + m.group(1)
                            + " is not set (give a default with ${" + m.group(1) + ":-value})");
                }
                m.appendReplacement(out, Matcher.quoteReplacement(value));
            }
            m.appendTail(out);
        }
        return out.toString();
    }

    private void applyOverrides(ObjectNode root, String source) throws ConfigException {
        for (String key : overrides.stringPropertyNames()) {
            if (!key.startsWith(OVERRIDE_PREFIX)) {
                continue;
            }
            String[] path = key.substring(OVERRIDE_PREFIX.length()).split("\\.");
            ObjectNode at = root;
            for (int i = 0; i < path.length - 1; i++) {
                JsonNode next = at.get(path[i]);
                if (next == null || next.isNull()) {
                    next = at.putObject(path[i]);
                } else if (!(next instanceof ObjectNode)) {
                    throw new ConfigException("-D" + key + ": '" + path[i] + "' in " + source + " is not a section");
                }
                at = (ObjectNode) next;
            }
            at.set(path[path.length - 1], TextNode.valueOf(overrides.getProperty(key)));
        }
    }

    /** A configuration that cannot be used; the message names the file and the field. */
    public static final class ConfigException extends Exception {
        private static final long serialVersionUID = 1L;

        public ConfigException(String message) {
            super(message);
        }
    }
}
