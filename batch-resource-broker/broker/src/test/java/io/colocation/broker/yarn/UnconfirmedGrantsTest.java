package io.colocation.broker.yarn;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.colocation.api.yarn.YarnGrant;
import io.colocation.broker.yarn.UnconfirmedGrants.Confirmation;
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
        g.published(grant(4, 5, 2048), Confirmation.NONE);
        g.published(grant(5, 2, 4096), Confirmation.NONE);
        assertEquals(Optional.of(new Usage(5, 4096)), g.peak("n1:8041", Confirmation.NONE), "each resource's largest");
        assertEquals(Optional.of(new Usage(2, 4096)), g.peak("n1:8041", Confirmation.version(4)));
        assertEquals(Optional.empty(), g.peak("n1:8041", Confirmation.version(5)));
        assertEquals(Optional.empty(), g.peak("other:8041", Confirmation.NONE), "a node never granted");
    }

    @Test
    void readingSettlesNothingAPublicationDropsWhatWasSettled() {
        UnconfirmedGrants g = new UnconfirmedGrants();
        g.published(grant(1, 8, 8192), Confirmation.NONE);
        assertEquals(Optional.empty(), g.peak("n1:8041", Confirmation.version(1)));
        assertEquals(Optional.of(new Usage(8, 8192)), g.peak("n1:8041", Confirmation.NONE), "the read above changed nothing");
        g.published(grant(2, 2, 2048), Confirmation.version(1));
        assertEquals(Optional.of(new Usage(2, 2048)), g.peak("n1:8041", Confirmation.NONE), "version 1 was settled when 2 was published");
    }

    @Test
    void aCapacityWithoutVersionSettlesTheNewestGrantWithThoseFigures() {
        UnconfirmedGrants g = new UnconfirmedGrants();
        g.published(grant(1, 3, 1024), Confirmation.NONE);
        g.published(grant(2, 6, 1024), Confirmation.NONE);
        g.published(grant(3, 3, 1024), Confirmation.NONE);
        g.published(grant(4, 1, 512), Confirmation.NONE);
        assertEquals(Optional.of(new Usage(6, 1024)), g.peak("n1:8041", Confirmation.capacity(7, 7)), "a capacity no grant has settles nothing");
        assertEquals(Optional.of(new Usage(1, 512)), g.peak("n1:8041", Confirmation.capacity(3, 1024)), "versions 1 to 3 settled");
        assertEquals(Optional.of(new Usage(3, 1024)), g.peak("n1:8041", Confirmation.capacity(6, 1024)), "versions 1 and 2 settled");
    }

    @Test
    void aYarnThatNeverConfirmsIsBoundedAndStillCountsItsLargestGrant() {
        UnconfirmedGrants g = new UnconfirmedGrants();
        g.published(grant(1, 9, 9000), Confirmation.NONE);
        for (int v = 2; v <= 500; v++) {
            g.published(grant(v, 1, 100), Confirmation.NONE);
        }
        assertEquals(Optional.of(new Usage(9, 9000)), g.peak("n1:8041", Confirmation.NONE));
        assertEquals(Optional.of(new Usage(1, 100)), g.peak("n1:8041", Confirmation.version(499)));
    }
}
