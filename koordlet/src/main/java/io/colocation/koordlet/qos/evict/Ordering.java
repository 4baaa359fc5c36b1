package io.colocation.koordlet.qos.evict;

import java.util.ArrayList;
import java.util.List;

/**
 * Sorting with Koordinator's "less" functions. Some are not total orders (a pod without spec.priority compares
 * differently), which a comparator-based sort may reject; a stable insertion sort never does, keeps the input order
 * for ties, and is fast enough for the pods of one node.
 */
final class Ordering {
    interface Less {
        boolean less(Candidate a, Candidate b);
    }

    private Ordering() {
    }

    static List<Candidate> sort(List<Candidate> in, Less less) {
        List<Candidate> out = new ArrayList<>(in);
        for (int i = 1; i < out.size(); i++) {
            Candidate x = out.get(i);
            int j = i - 1;
            while (j >= 0 && less.less(x, out.get(j))) {
                out.set(j + 1, out.get(j));
                j--;
            }
            out.set(j + 1, x);
        }
        return out;
    }

    /** ApplicationMasters last: losing one loses the application attempt, not just a task. */
    static List<Candidate> mastersLast(List<Candidate> sorted) {
        List<Candidate> out = new ArrayList<>();
        sorted.stream().filter(c -> !c.applicationMaster()).forEach(out::add);
        sorted.stream().filter(Candidate::applicationMaster).forEach(out::add);
        return out;
    }
}
