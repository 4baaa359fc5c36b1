package io.colocation.yarn.plugin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.colocation.api.yarn.YarnGrant;
import org.junit.jupiter.api.Test;

class GrantBookTest {
    private static YarnGrant grant(long epoch, long version, int vcores) {
        return new YarnGrant("host-1:8041", epoch, version, vcores, 1024L * vcores, 0);
    }

    @Test
    void newerVersionsAndEpochsReplaceTheGrantOlderOnesDoNot() {
        GrantBook book = new GrantBook();
        assertEquals(GrantBook.Verdict.ACCEPTED, book.offer(grant(1, 5, 2)));
        assertEquals(GrantBook.Verdict.NOT_NEWER, book.offer(grant(1, 5, 3)));
        assertEquals(GrantBook.Verdict.NOT_NEWER, book.offer(grant(1, 4, 3)));
        assertEquals(GrantBook.Verdict.ACCEPTED, book.offer(grant(2, 1, 3)), "a new leader may restart versions");
        assertEquals(GrantBook.Verdict.STALE_EPOCH, book.offer(grant(1, 99, 8)), "the deposed leader is fenced");
        assertEquals(3, book.grant("host-1:8041").orElseThrow().vcores());
    }

    @Test
    void theAnnouncedEpochFencesGrantsOfEveryNode() {
        GrantBook book = new GrantBook();
        book.raiseEpoch(7);
        assertEquals(GrantBook.Verdict.STALE_EPOCH, book.offer(grant(6, 1, 2)));
        assertEquals(GrantBook.Verdict.ACCEPTED, book.offer(grant(7, 1, 2)));
        book.raiseEpoch(3);
        assertEquals(7, book.fencingEpoch(), "the epoch never goes back");
    }
}
