package io.colocation.testsupport.kube;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.colocation.localclusters.kube.KubeletNode;
import java.util.Optional;

/** Tests that need a real kubelet on this host: skipped, with the reason printed, where there can be none. */
public final class RealNodes {
    private RealNodes() {
    }

    public static void assumeAvailable(String test) {
        Optional<String> why = "off".equals(System.getProperty("colocation.realNode"))
                ? Optional.of("colocation.realNode=off (the Hadoop-side suites: a real node does not depend on Hadoop's version)")
                : KubeletNode.unavailable();
        why.ifPresent(w -> System.out.println(test + " skipped: " + w));
        assumeTrue(why.isEmpty(), () -> why.get());
    }
}
