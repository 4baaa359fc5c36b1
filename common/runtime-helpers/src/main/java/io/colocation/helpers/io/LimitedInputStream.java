package io.colocation.helpers.io;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * A stream that fails once more than its limit was read: what a reader of an untrusted or runaway input ({@code
 * /dev/zero}, an endless pipe, a peer that never stops) wraps its input in, so the input ends at the limit, with a
 * message that names it, whatever parses it.
 */
public final class LimitedInputStream extends FilterInputStream {
    /** The limit was passed; the message says what was read and its limit. */
    public static final class TooLarge extends IOException {
        private static final long serialVersionUID = 1L;

        public TooLarge(String message) {
            super(message);
        }
    }

    private final long max;
    private final String message;
    private long read;

    /** @param message the {@link TooLarge}'s message when more than {@code max} bytes are read */
    public LimitedInputStream(InputStream in, long max, String message) {
        super(in);
        this.max = max;
        this.message = message;
    }

    @Override
    public int read() throws IOException {
        int c = super.read();
        if (c >= 0) {
            count(1);
        }
        return c;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        int n = super.read(b, off, len);
        if (n > 0) {
            count(n);
        }
        return n;
    }

    private void count(int n) throws TooLarge {
        read += n;
        if (read > max) {
            throw new TooLarge(message);
        }
    }
}
