package io.colocation.koordlet.collect;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

/**
 * A child process for the real-kernel test: waits for "go" on stdin (so the test can move it into a cgroup
 * first, and the kernel charges what follows to that cgroup), then burns one CPU ({@code cpu [seconds]}) or allocates
 * and touches the given MiB ({@code memory N}), says "ready", and keeps going until killed (at most 120 s, or the
 * seconds given).
 */
public final class KernelBurner {
    private KernelBurner() {
    }

    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.US_ASCII));
        if (!"go".equals(in.readLine())) {
            return;
        }
        long seconds = args[0].equals("cpu") && args.length > 1 ? Long.parseLong(args[1]) : 120;
        long deadline = System.nanoTime() + seconds * 1_000_000_000L;
        if (args[0].equals("memory")) {
            byte[][] chunks = new byte[Integer.parseInt(args[1])][];
            for (int i = 0; i < chunks.length; i++) {
                chunks[i] = new byte[1 << 20];
                java.util.Arrays.fill(chunks[i], (byte) 1);
            }
            System.out.println("ready " + chunks.length);
            System.out.flush();
            while (System.nanoTime() < deadline) {
                Thread.sleep(1000);
            }
            return;
        }
        System.out.println("ready");
        System.out.flush();
        long x = 0;
        while (System.nanoTime() < deadline) {
            x += System.nanoTime() % 7;
        }
        System.out.println(x);
    }
}
