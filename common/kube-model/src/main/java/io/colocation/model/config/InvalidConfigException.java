package io.colocation.model.config;

import java.util.List;

/** The colocation configuration cannot be used; every problem names the key and the value. */
public final class InvalidConfigException extends Exception {
    private static final long serialVersionUID = 1L;
    private final List<String> problems;

    public InvalidConfigException(String source, List<String> problems) {
        super(source + ": " + String.join("; ", problems));
        this.problems = List.copyOf(problems);
    }

    public List<String> problems() {
        return problems;
    }
}
