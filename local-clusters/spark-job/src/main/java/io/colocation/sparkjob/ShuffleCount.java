package io.colocation.sparkjob;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.spark.SparkConf;
import org.apache.spark.TaskFailedReason;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerExecutorRemoved;
import org.apache.spark.scheduler.SparkListenerTaskEnd;
import scala.Tuple2;

/**
 * A word count with a shuffle whose answer is known: {@code partitions} map tasks each emit {@code WORDS} distinct
 * words {@code PER_WORD} times, sleeping {@code taskMillis} first so executors are busy when a grant shrinks; the
 * reduce side counts them over as many partitions. The driver writes one line of {@code key=value} pairs to
 * {@code resultFile}: whether every count is right, and Spark's own view of what was lost: task failures that count
 * against the job ({@code TaskFailedReason.countTowardsTaskFailures}), task ends that do not (an executor lost
 * through no fault of the application, as YARN's PREEMPTED exit status is), and executors removed.
 * Arguments: resultFile partitions taskMillis.
 */
public final class ShuffleCount {
    static final int WORDS = 50;
    static final int PER_WORD = 200;

    private ShuffleCount() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length != 3) {
            throw new IllegalArgumentException("usage: ShuffleCount RESULT_FILE PARTITIONS TASK_MILLIS");
        }
        Path result = Paths.get(args[0]);
        int partitions = Integer.parseInt(args[1]);
        long taskMillis = Long.parseLong(args[2]);
        SparkConf conf = new SparkConf().setAppName("colocation-shuffle-count");
        long started = System.nanoTime();
        try (JavaSparkContext sc = new JavaSparkContext(conf)) {
            Losses losses = new Losses();
            sc.sc().addSparkListener(losses);
            List<Integer> seeds = new ArrayList<>();
            for (int p = 0; p < partitions; p++) {
                seeds.add(p);
            }
            Map<String, Integer> counts = sc.parallelize(seeds, partitions)
                    .flatMap(p -> {
                        Thread.sleep(taskMillis);
                        List<String> words = new ArrayList<>(WORDS * PER_WORD);
                        for (int i = 0; i < WORDS * PER_WORD; i++) {
                            words.add("w" + (i % WORDS));
                        }
                        return words.iterator();
                    })
                    .mapToPair(w -> new Tuple2<>(w, 1))
                    .reduceByKey(Integer::sum, partitions)
                    .collectAsMap();
            int expected = partitions * PER_WORD;
            boolean correct = counts.size() == WORDS && counts.values().stream().allMatch(c -> c == expected);
            String line = "correct=" + correct + " words=" + counts.size() + " countPerWord=" + expected
                    + " failedTasksCounted=" + losses.counted.get() + " failedTasksNotCounted=" + losses.notCounted.get()
                    + " executorsRemoved=" + losses.executorsRemoved.get() + " seconds=" + (System.nanoTime() - started) / 1_000_000_000L
                    + "\n";
            Files.write(result, line.getBytes(StandardCharsets.UTF_8));
        }
    }

    /** Spark's own accounting of lost work, as its scheduler decides it. */
    static final class Losses extends SparkListener {
        final AtomicInteger counted = new AtomicInteger();
        final AtomicInteger notCounted = new AtomicInteger();
        final AtomicInteger executorsRemoved = new AtomicInteger();

        @Override
        public void onTaskEnd(SparkListenerTaskEnd end) {
            if (end.reason() instanceof TaskFailedReason) {
                if (((TaskFailedReason) end.reason()).countTowardsTaskFailures()) {
                    counted.incrementAndGet();
                } else {
                    notCounted.incrementAndGet();
                }
            }
        }

        @Override
        public void onExecutorRemoved(SparkListenerExecutorRemoved removed) {
            executorsRemoved.incrementAndGet();
        }
    }
}
