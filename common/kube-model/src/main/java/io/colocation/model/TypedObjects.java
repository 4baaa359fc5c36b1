package io.colocation.model;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import io.colocation.api.InvalidInputException;
import java.util.Collection;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Turns a Kubernetes object read as a tree (a document, a watch event of a custom resource) into its typed model, one
 * object at a time: a field of the wrong shape (a CRD accepts anything its schema leaves open) is an error naming the
 * object and the field, never an exception that stops whoever reads the next object.
 */
public final class TypedObjects {
    private static final ObjectMapper JSON = new ObjectMapper().disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    private TypedObjects() {
    }

    /** @param what names the object in the error ({@code "file.yaml: NodeMetric n1"}) */
    public static <T> T decode(Object object, Class<T> type, String what) throws InvalidInputException {
        String prefix = what + ": not a valid " + type.getSimpleName();
        try {
            JsonNode tree = object instanceof JsonNode n ? n : JSON.valueToTree(object);
            return JSON.treeToValue(tree, type);
        } catch (JsonMappingException e) {
            String field = e.getPath().stream()
                    .map(r -> r.getFieldName() != null ? r.getFieldName() : "[" + r.getIndex() + "]")
                    .collect(Collectors.joining(".")).replace(".[", "[");
            throw new InvalidInputException(prefix + (field.isEmpty() ? "" : ": " + field + " has the wrong shape")
                    + (e instanceof MismatchedInputException m && m.getTargetType() != null ? " (expected " + shape(m.getTargetType()) + ")" : ""));
        } catch (com.fasterxml.jackson.core.JsonProcessingException | IllegalArgumentException e) {
            throw new InvalidInputException(prefix);
        }
    }

    /** A Java target type in the words of a Kubernetes object: a map, a list, a string, a number. */
    private static String shape(Class<?> type) {
        if (Map.class.isAssignableFrom(type)) {
            return "a map";
        }
        if (Collection.class.isAssignableFrom(type) || type.isArray()) {
            return "a list";
        }
        if (type == String.class) {
            return "a string";
        }
        if (Number.class.isAssignableFrom(type) || type.isPrimitive()) {
            return "a number or true/false";
        }
        return "an object";
    }
}
