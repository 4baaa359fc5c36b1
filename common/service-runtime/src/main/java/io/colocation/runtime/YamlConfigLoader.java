package io.colocation.runtime;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.ByteArrayOutputStream;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads a part's YAML settings file by the one convention every part follows (the broker's Dropwizard file too):
 * {@code ${VAR}} and {@code ${VAR:-default}} name environment variables (an unset one without a default is an error),
 * and {@code -D<prefix><path>=value} system properties override single values ({@code -Dkoordlet.status.port=0}, as
 * {@code -Ddw.server...} does for the broker). The file is read as a stream up to {@link #MAX_BYTES} (a pipe, a
 * {@code /dev/stdin}, never a {@code /dev/zero} read whole); an empty file means every default. Every problem is one
 * message naming the file and the field.
 */
public final class YamlConfigLoader<T> {
    /** No settings file is this big; a runaway input stops here. */
    public static final int MAX_BYTES = 1 << 20;
    private static final Pattern VARIABLE = Pattern.compile("\\$\\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?}");
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory())
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            // -D<prefix>list=value sets a one-element list
            .enable(DeserializationFeature.ACCEPT_SINGLE_VALUE_AS_ARRAY);

    private final Class<T> type;
    private final String overridePrefix;
    private final Function<T, List<String>> validate;
    private final Map<String, String> environment;
    private final Properties overrides;

    /**
     * @param overridePrefix {@code "koordlet."}: the system properties that override settings
     * @param validate       the problems of a read configuration, each naming the setting and the value
     */
    public YamlConfigLoader(Class<T> type, String overridePrefix, Function<T, List<String>> validate, Map<String, String> environment,
            Properties overrides) {
        this.type = type;
        this.overridePrefix = overridePrefix;
        this.validate = validate;
        this.environment = environment;
        this.overrides = overrides;
    }

    /** The process's environment and system properties. */
    public static <T> YamlConfigLoader<T> fromProcess(Class<T> type, String overridePrefix, Function<T, List<String>> validate) {
        return new YamlConfigLoader<>(type, overridePrefix, validate, System.getenv(), System.getProperties());
    }

    public T load(Path file) throws ConfigException {
        return parse(read(file), file.toString());
    }

    /** The file's text, read as a stream and at most {@link #MAX_BYTES}. */
    static String read(Path file) throws ConfigException {
        if (Files.isDirectory(file)) {
            throw new ConfigException("the configuration file '" + file + "' is a directory");
        }
        try (InputStream in = new FileInputStream(file.toFile())) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            byte[] buffer = new byte[8192];
            int n;
            while ((n = in.read(buffer)) > 0) {
                out.write(buffer, 0, n);
                if (out.size() > MAX_BYTES) {
                    throw new ConfigException("the configuration file '" + file + "' is larger than " + (MAX_BYTES >> 20)
                            + " MiB: not a settings file");
                }
            }
            return out.toString(StandardCharsets.UTF_8);
        } catch (NoSuchFileException | java.io.FileNotFoundException e) {
            throw new ConfigException("cannot read the configuration file '" + file + "': no such file or not readable");
        } catch (IOException e) {
            throw new ConfigException("cannot read the configuration file '" + file + "': " + e.getMessage());
        }
    }

    public T parse(String text, String source) throws ConfigException {
        if (text.indexOf('\0') >= 0) {
            throw new ConfigException(source + ": not a text file (it holds NUL bytes)");
        }
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
        T config;
        try {
            config = YAML.treeToValue(root, type);
        } catch (UnrecognizedPropertyException e) {
            throw new ConfigException(source + ": unknown setting '" + path(e) + "'");
        } catch (JsonProcessingException e) {
            throw new ConfigException(source + ": bad value for '" + path(e) + "': " + e.getOriginalMessage().lines().findFirst().orElse(""));
        }
        List<String> problems = validate.apply(config);
        if (!problems.isEmpty()) {
            throw new ConfigException(source + ": " + String.join("; ", problems));
        }
        return config;
    }

    private static String path(JsonProcessingException e) {
        if (e instanceof JsonMappingException m) {
            StringBuilder b = new StringBuilder();
            for (JsonMappingException.Reference r : m.getPath()) {
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

    /** Replaces variables outside comment lines (the shipped files' comments show the syntax). */
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
            if (!key.startsWith(overridePrefix)) {
                continue;
            }
            String[] path = key.substring(overridePrefix.length()).split("\\.");
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
