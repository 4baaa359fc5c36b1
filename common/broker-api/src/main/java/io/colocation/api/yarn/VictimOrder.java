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
    public static final class Candidate {
        private final String containerId;
        private final boolean applicationMaster;
        private final int applicationPriority;
        private final int requestPriority;
        private final long startedAtMillis;
        private final long memoryMB;
        private final int vcores;

        public Candidate(
                String containerId,
                boolean applicationMaster,
                int applicationPriority,
                int requestPriority,
                long startedAtMillis,
                long memoryMB,
                int vcores) {
            this.containerId = containerId;
            this.applicationMaster = applicationMaster;
            this.applicationPriority = applicationPriority;
            this.requestPriority = requestPriority;
            this.startedAtMillis = startedAtMillis;
            this.memoryMB = memoryMB;
            this.vcores = vcores;
        }

        public String containerId() {
            return containerId;
        }

        public boolean applicationMaster() {
            return applicationMaster;
        }

        public int applicationPriority() {
            return applicationPriority;
        }

        public int requestPriority() {
            return requestPriority;
        }

        public long startedAtMillis() {
            return startedAtMillis;
        }

        public long memoryMB() {
            return memoryMB;
        }

        public int vcores() {
            return vcores;
        }

        @Override
        public boolean equals(Object o) {
            if (this == o) {
                return true;
            }
            if (!(o instanceof Candidate)) {
                return false;
            }
            Candidate other = (Candidate) o;
            return java.util.Objects.equals(containerId, other.containerId)
                    && applicationMaster == other.applicationMaster
                    && applicationPriority == other.applicationPriority
                    && requestPriority == other.requestPriority
                    && startedAtMillis == other.startedAtMillis
                    && memoryMB == other.memoryMB
                    && vcores == other.vcores;
        }

        @Override
        public int hashCode() {
            return java.util.Objects.hash(containerId, applicationMaster, applicationPriority, requestPriority, startedAtMillis, memoryMB, vcores);
        }

        @Override
        public String toString() {
            return "Candidate[containerId=" + containerId
                    + ", applicationMaster=" + applicationMaster
                    + ", applicationPriority=" + applicationPriority
                    + ", requestPriority=" + requestPriority
                    + ", startedAtMillis=" + startedAtMillis
                    + ", memoryMB=" + memoryMB
                    + ", vcores=" + vcores + "]";
        }
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
