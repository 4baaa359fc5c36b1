package io.colocation.koordlet.collect;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KernelFileReaderTest {
    @TempDir
    Path tmp;

    @Test
    void aKeptFileIsReadFromTheStartEveryTimeAndClosedWhenNoLongerRead() throws Exception {
        Path a = tmp.resolve("cpuacct.usage");
        Path b = tmp.resolve("other");
        Files.writeString(a, "123456789\n");
        Files.writeString(b, "1\n");
        try (KernelFileReader reader = new KernelFileReader()) {
            assertEquals(10, reader.readKept(a));
            assertEquals(123456789L, reader.number());
            reader.readKept(b);
            Files.writeString(a, "42\n");
            assertEquals(3, reader.readKept(a), "the shorter new content, not the rest of the old");
            assertEquals(42L, reader.number());
            assertEquals(2, reader.keptOpen());
            for (int sweep = 0; sweep < 3; sweep++) {
                reader.readKept(a);
                reader.closeUnread(2);
            }
            assertEquals(1, reader.keptOpen(), "b, unread for three sweeps, is closed");
        }
    }

    @Test
    void aMissingFileIsNamedAndTriedAgain() throws Exception {
        Path a = tmp.resolve("memory.stat");
        try (KernelFileReader reader = new KernelFileReader()) {
            assertEquals(-1, reader.readKept(a));
            assertEquals("missing", reader.lastError());
            Files.writeString(a, "total_rss 5\n");
            assertTrue(reader.readKept(a) > 0);
            assertEquals(5, reader.field("total_rss"));
        }
    }

    @Test
    void aFileLargerThanTheBufferIsReadWhole() throws Exception {
        Path a = tmp.resolve("memory.stat");
        String big = "x".repeat(40_000) + "\nlast 7\n";
        Files.writeString(a, big);
        try (KernelFileReader reader = new KernelFileReader()) {
            assertEquals(big.length(), reader.readKept(a));
            assertEquals(7, reader.field("last"));
            assertEquals(big.length(), reader.readKept(a));
        }
    }
}
