package io.colocation.koordlet.cache;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The ring a metric cache keeps per thing: bounded, oldest first, a window by time, missing values left out. */
class SeriesTest {
    @Test
    void anEmptySeriesHasNoPointsAndNoLastTime() {
        Series s = new Series(3);
        assertEquals(Long.MIN_VALUE, s.lastTime());
        assertTrue(s.points(true, Long.MIN_VALUE, Long.MAX_VALUE).isEmpty());
    }

    @Test
    void theRingKeepsTheNewestCapacityOldestFirst() {
        Series s = new Series(3);
        for (int i = 1; i <= 7; i++) {
            s.add(i * 1000L, i, i * 10.0);
        }
        assertEquals(7000, s.lastTime());
        Points cpu = s.points(true, 0, Long.MAX_VALUE);
        assertArrayEquals(new double[] {5, 6, 7}, cpu.values());
        assertEquals(5000, cpu.firstMillis());
        assertEquals(7000, cpu.lastMillis());
        assertArrayEquals(new double[] {50, 60, 70}, s.points(false, 0, Long.MAX_VALUE).values());
    }

    @Test
    void aWindowIsInclusiveAndMissingValuesAreLeftOut() {
        Series s = new Series(10);
        s.add(1000, 1, 100);
        s.add(2000, 2, Double.NaN);
        s.add(3000, -0.0, 300);
        s.add(4000, 4, 400);
        Points cpu = s.points(true, 2000, 3000);
        assertArrayEquals(new double[] {2, -0.0}, cpu.values());
        assertEquals(Double.doubleToRawLongBits(-0.0), Double.doubleToRawLongBits(cpu.values()[1]), "stored bit for bit");
        Points memory = s.points(false, 2000, 4000);
        assertArrayEquals(new double[] {300, 400}, memory.values());
        assertEquals(3000, memory.firstMillis());
        assertEquals(4000, memory.lastMillis());
    }
}
