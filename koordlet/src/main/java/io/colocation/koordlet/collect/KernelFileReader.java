package io.colocation.koordlet.collect;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;

/**
 * Reads small kernel files (/proc, cgroup) into one reused buffer and parses numbers in place, so a sample of a
 * host with hundreds of cgroups allocates next to nothing. Files read every sample are kept open ({@link #readKept})
 * and re-read from offset 0: the kernel regenerates a seq_file at every read from the start, and the open and path
 * walk, most of a read's cost, happen once. Not thread-safe: one per collecting thread.
 * A failed read returns a negative length and leaves the reason in {@link #lastError()}.
 */
public final class KernelFileReader implements AutoCloseable {
    private static final int MAX_SIZE = 4 * 1024 * 1024;

    private byte[] buffer = new byte[16 * 1024];
    private ByteBuffer view = ByteBuffer.wrap(buffer);
    private int length;
    private String lastError = "";
    /** Kept-open files → the sweep in which they were last read. */
    private final Map<Path, Kept> kept = new HashMap<>();
    private long sweep;

    private static final class Kept {
        final FileChannel channel;
        long lastSweep;

        Kept(FileChannel channel) {
            this.channel = channel;
        }
    }

    /** Reads the file once (opened and closed); returns its length, or -1 when it cannot be read. */
    public int read(Path file) {
        length = -1;
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            return readFrom(channel);
        } catch (IOException e) {
            return failed(e);
        }
    }

    /**
     * Reads a file that is read every sample through a handle kept open between samples; a handle that fails is
     * closed and the next call opens the file again (a cgroup re-created, a file that appeared).
     */
    public int readKept(Path file) {
        length = -1;
        Kept k = kept.get(file);
        try {
            if (k == null) {
                k = new Kept(FileChannel.open(file, StandardOpenOption.READ));
                kept.put(file, k);
            }
            k.lastSweep = sweep;
            return readFrom(k.channel);
        } catch (IOException e) {
            if (k != null) {
                kept.remove(file);
                closeQuietly(k.channel);
            }
            return failed(e);
        }
    }

    /** Closes the kept files not read in the last {@code sweeps} calls of this method (pods and containers gone). */
    public void closeUnread(int sweeps) {
        sweep++;
        for (Iterator<Kept> it = kept.values().iterator(); it.hasNext(); ) {
            Kept k = it.next();
            if (sweep - k.lastSweep > sweeps) {
                it.remove();
                closeQuietly(k.channel);
            }
        }
    }

    int keptOpen() {
        return kept.size();
    }

    @Override
    public void close() {
        kept.values().forEach(k -> closeQuietly(k.channel));
        kept.clear();
    }

    private int readFrom(FileChannel channel) throws IOException {
        int total = 0;
        while (true) {
            if (total == buffer.length) {
                if (buffer.length >= MAX_SIZE) {
                    lastError = "larger than 4 MiB";
                    return -1;
                }
                buffer = Arrays.copyOf(buffer, buffer.length * 2);
                view = ByteBuffer.wrap(buffer);
            }
            view.limit(buffer.length).position(total);
            // Positional read: from offset 0 on every call, whatever an earlier read left.
            int n = channel.read(view, total);
            if (n < 0) {
                break;
            }
            total += n;
        }
        length = total;
        return total;
    }

    private int failed(IOException e) {
        lastError = e instanceof NoSuchFileException ? "missing"
                : e instanceof AccessDeniedException ? "permission denied" : String.valueOf(e.getMessage());
        return -1;
    }

    private static void closeQuietly(FileChannel channel) {
        try {
            channel.close();
        } catch (IOException e) {
            // Closing a read-only kernel file: nothing to lose.
        }
    }

    public String lastError() {
        return lastError;
    }

    /** The whole file as one number (cpuacct.usage, memory.usage_in_bytes); -1 when it is not one. Call after {@link #read}. */
    public long number() {
        return length < 0 ? -1 : parseNumber(0);
    }

    /**
     * In a {@code key value} file (memory.stat, cpu.stat, meminfo), the number after {@code key} at the start of a
     * line followed by a space or ':'; -1 when absent. Call after {@link #read}.
     */
    public long field(String key) {
        byte[] k = key.getBytes(StandardCharsets.US_ASCII);
        int i = 0;
        while (i < length) {
            if (matchesAt(i, k) && i + k.length < length && (buffer[i + k.length] == ' ' || buffer[i + k.length] == ':')) {
                return parseNumber(i + k.length + 1);
            }
            while (i < length && buffer[i] != '\n') {
                i++;
            }
            i++;
        }
        return -1;
    }

    /** The keys of {@link #fields}, encoded once. */
    public static byte[][] keys(String... names) {
        byte[][] k = new byte[names.length][];
        for (int i = 0; i < names.length; i++) {
            k[i] = names[i].getBytes(StandardCharsets.US_ASCII);
        }
        return k;
    }

    /**
     * In one pass over a {@code key value} file read by {@link #read}, the number after each key (-1 when absent);
     * cheaper than one {@link #field} per key for memory.stat's dozens of lines.
     */
    public void fields(byte[][] keys, long[] out) {
        Arrays.fill(out, -1);
        int i = 0;
        while (i < length) {
            for (int k = 0; k < keys.length; k++) {
                byte[] key = keys[k];
                if (out[k] < 0 && matchesAt(i, key) && i + key.length < length
                        && (buffer[i + key.length] == ' ' || buffer[i + key.length] == ':')) {
                    out[k] = parseNumber(i + key.length + 1);
                    break;
                }
            }
            while (i < length && buffer[i] != '\n') {
                i++;
            }
            i++;
        }
    }

    /** The index just after the first line starting with {@code prefix}, or -1. */
    public int lineAfter(String prefix) {
        byte[] k = prefix.getBytes(StandardCharsets.US_ASCII);
        int i = 0;
        while (i < length) {
            if (matchesAt(i, k)) {
                return i + k.length;
            }
            while (i < length && buffer[i] != '\n') {
                i++;
            }
            i++;
        }
        return -1;
    }

    /**
     * Parses up to {@code out.length} whitespace-separated unsigned numbers from {@code from} on the same line;
     * returns how many were read.
     */
    public int numbers(int from, long[] out) {
        int i = from;
        int count = 0;
        while (count < out.length && i < length && buffer[i] != '\n') {
            while (i < length && buffer[i] == ' ') {
                i++;
            }
            if (i >= length || buffer[i] == '\n') {
                break;
            }
            long v = 0;
            boolean digits = false;
            while (i < length && buffer[i] >= '0' && buffer[i] <= '9') {
                v = v * 10 + (buffer[i] - '0');
                digits = true;
                i++;
            }
            if (!digits) {
                break;
            }
            out[count++] = v;
        }
        return count;
    }

    /** The decimal after {@code key=} on the line starting with {@code linePrefix} (PSI's {@code avg10=1.23}); NaN if absent. */
    public double decimalAfter(String linePrefix, String key) {
        int at = lineAfter(linePrefix);
        if (at < 0) {
            return Double.NaN;
        }
        byte[] k = key.getBytes(StandardCharsets.US_ASCII);
        for (int i = at; i < length && buffer[i] != '\n'; i++) {
            if (matchesAt(i, k)) {
                int start = i + k.length;
                int end = start;
                while (end < length && (buffer[end] == '.' || (buffer[end] >= '0' && buffer[end] <= '9'))) {
                    end++;
                }
                try {
                    return Double.parseDouble(new String(buffer, start, end - start, StandardCharsets.US_ASCII));
                } catch (NumberFormatException e) {
                    return Double.NaN;
                }
            }
        }
        return Double.NaN;
    }

    /** The text read, for rare, small files (cgroup.procs of one container). */
    public String text() {
        return length < 0 ? "" : new String(buffer, 0, length, StandardCharsets.US_ASCII);
    }

    private boolean matchesAt(int at, byte[] k) {
        if (at + k.length > length) {
            return false;
        }
        for (int j = 0; j < k.length; j++) {
            if (buffer[at + j] != k[j]) {
                return false;
            }
        }
        return true;
    }

    private long parseNumber(int from) {
        int i = from;
        while (i < length && (buffer[i] == ' ' || buffer[i] == '\t')) {
            i++;
        }
        long v = 0;
        boolean digits = false;
        while (i < length && buffer[i] >= '0' && buffer[i] <= '9') {
            if (v > (Long.MAX_VALUE - 9) / 10) {
                return -1;
            }
            v = v * 10 + (buffer[i] - '0');
            digits = true;
            i++;
        }
        return digits ? v : -1;
    }
}
