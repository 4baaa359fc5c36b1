package io.colocation.broker.yarn;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.colocation.api.yarn.YarnGrant;
import io.colocation.broker.yarn.YarnSide.Usage;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** {@link UnconfirmedGrants}: what YARN may still enforce between a publication and its confirmation. */
class UnconfirmedGrantsTest {
    private static YarnGrant grant(long version, int vcores, long memoryMB) {
        return new YarnGrant("n1:8041", 1, version, vcores, memoryMB, 0);
    }

    @Test
    void aGrowThenAShrinkKeepsTheGrowUntilALaterVersionIsConfirmed() {
        UnconfirmedGrants g = new UnconfirmedGrants();
        g.published(grant(4, 5, 2048));
        g.published(grant(5, 2, 4096));
        assertEquals(Optional.of(new Usage(5, 4096)), g.peak("n1:8041"), "each resource's largest");
        g.confirmedVersion("n1:8041", 4);
        assertEquals(Optional.of(new Usage(2, 4096)), g.peak("n1:8041"));
        g.confirmedVersion("n1:8041", 5);
        assertEquals(Optional.empty(), g.peak("n1:8041"));
        assertEquals(Optional.empty(), g.peak("other:8041"), "a node never granted");
    }

    @Test
    void aCapacityWithoutVersionSettlesTheNewestGrantWithThoseFigures() {
        UnconfirmedGrants g = new UnconfirmedGrants();
        g.published(grant(1, 3, 1024));
        g.published(grant(2, 6, 1024));
        g.published(grant(3, 3, 1024));
        g.published(grant(4, 1, 512));
        g.confirmedCapacity("n1:8041", 7, 7);
        assertEquals(Optional.of(new Usage(6, 1024)), g.peak("n1:8041"), "a capacity no grant has settles nothing");
        g.confirmedCapacity("n1:8041", 3, 1024);
        assertEquals(Optional.of(new Usage(1, 512)), g.peak("n1:8041"), "versions 1 to 3 settled");
    }

    @Test
    void aYarnThatNeverConfirmsIsBoundedAndStillCountsItsLargestGrant() {
        UnconfirmedGrants g = new UnconfirmedGrants();
        g.published(grant(1, 9, 9000));
        for (int v = 2; v <= 500; v++) {
            g.published(grant(v, 1, 100));
        }
        assertEquals(Optional.of(new Usage(9, 9000)), g.peak("n1:8041"));
        g.confirmedVersion("n1:8041", 499);
        assertEquals(Optional.of(new Usage(1, 100)), g.peak("n1:8041"));
    }
}
