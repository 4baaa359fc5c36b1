package io.colocation.api.yarn;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The one answer to "which YARN containers give resources back first", used by the RM plugin's graceful
 * preemption, the copilot's kill-to-free and the koordlet: never an
 * ApplicationMaster while a task container can still help (losing an AM loses the attempt), then the
 * lowest application priority, then the least important request (the highest YARN priority number: a
 * MapReduce map before a reduce), then the most recently started (least work lost); and never more than
 * needed: once one container covers what is still missing the choice ends, and any pick the others
 * already cover is dropped again.
 */
public final class VictimOrder {
    /** One running container as the chooser sees it. */
    public record Candidate(String containerId, boolean applicationMaster, int applicationPriority, int requestPriority,
            long startedAtMillis, long memoryMB, int vcores) {
    }

    public static final Comparator<Candidate> LEAST_VALUABLE_FIRST = Comparator
            .comparing(Candidate::applicationMaster)
            .thenComparingInt(Candidate::applicationPriority)
            .thenComparing(Comparator.comparingInt(Candidate::requestPriority).reversed())
            .thenComparing(Comparator.comparingLong(Candidate::startedAtMillis).reversed())
            .thenComparing(Candidate::containerId, Comparator.reverseOrder());

    private VictimOrder() {
    }

    /** The containers to preempt so that at least {@code memoryMB} and {@code vcores} are freed (when possible). */
    public static List<Candidate> choose(List<Candidate> running, long memoryMB, int vcores) {
        List<Candidate> ordered = new ArrayList<>(running);
        ordered.sort(LEAST_VALUABLE_FIRST);
        List<Candidate> chosen = new ArrayList<>();
        long needMemory = memoryMB;
        long needVcores = vcores;
        while ((needMemory > 0 || needVcores > 0) && !ordered.isEmpty()) {
            final long mem = needMemory;
            final long cpu = needVcores;
            boolean amsOnly = ordered.get(0).applicationMaster();
            Candidate pick = ordered.stream()
                    .filter(c -> c.applicationMaster() == amsOnly)
                    .filter(c -> c.memoryMB() >= mem && c.vcores() >= cpu)
                    .findFirst().orElse(ordered.get(0));
            if (!helps(pick, needMemory, needVcores)) {
                ordered.remove(pick);
                continue;
            }
            ordered.remove(pick);
            chosen.add(pick);
            needMemory -= pick.memoryMB();
            needVcores -= pick.vcores();
        }
        // Drop picks the others already cover, most valuable first.
        List<Candidate> mostValuableFirst = new ArrayList<>(chosen);
        mostValuableFirst.sort(LEAST_VALUABLE_FIRST.reversed());
        for (Candidate c : mostValuableFirst) {
            long memWithout = chosen.stream().filter(o -> o != c).mapToLong(Candidate::memoryMB).sum();
            long cpuWithout = chosen.stream().filter(o -> o != c).mapToLong(Candidate::vcores).sum();
            if (memWithout >= memoryMB && cpuWithout >= vcores) {
                chosen.remove(c);
            }
        }
        return chosen;
    }

    /** A container helps only if it frees something still missing. */
    private static boolean helps(Candidate c, long needMemory, long needVcores) {
        return (needMemory > 0 && c.memoryMB() > 0) || (needVcores > 0 && c.vcores() > 0);
    }
}
