package io.colocation.broker.kube;

import io.colocation.api.InvalidQuantityException;
import java.math.BigDecimal;

/** {@link io.colocation.api.Quantities} with the broker's input error. */
public final class Quantities {
    private Quantities() {
    }

    public static BigDecimal amount(String text, String where) throws InvalidInputException {
        try {
            return io.colocation.api.Quantities.amount(text, where);
        } catch (InvalidQuantityException e) {
            throw new InvalidInputException(e.getMessage());
        }
    }

    public static long milliValue(String text, String where) throws InvalidInputException {
        try {
            return io.colocation.api.Quantities.milliValue(text, where);
        } catch (InvalidQuantityException e) {
            throw new InvalidInputException(e.getMessage());
        }
    }

    public static long value(String text, String where) throws InvalidInputException {
        try {
            return io.colocation.api.Quantities.value(text, where);
        } catch (InvalidQuantityException e) {
            throw new InvalidInputException(e.getMessage());
        }
    }
}
