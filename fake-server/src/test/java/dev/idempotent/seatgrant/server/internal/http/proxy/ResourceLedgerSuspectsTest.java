package dev.idempotent.seatgrant.server.internal.http.proxy;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.idempotent.seatgrant.server.ProxyLedger;
import io.netty.handler.codec.http.DefaultHttpHeaders;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The suspect index stays within the ledger's own bounds, whatever the traffic: the shapes it remembers are the most
 * recently seen {@value ResourceLedger#MAX_TRACKED_OPERATIONS}, the groups at most
 * {@value ResourceLedger#MAX_DUPLICATES}, each listing at most {@value ResourceLedger#MAX_IDS_PER_OPERATION}
 * operations, with a path cut to {@value CreatedRule#MAX_ID_LENGTH} characters.
 */
class ResourceLedgerSuspectsTest {

    private static final UpstreamResult.Answer CREATED = new UpstreamResult.Answer(201, new DefaultHttpHeaders(),
            new byte[0]);

    private final ResourceLedger ledger = new ResourceLedger(new SuspectRule(List.of(), Duration.ofSeconds(10)));
    private int resources;

    private void create(String operation, String shape, String path) {
        ledger.record(operation, true, CREATED, "/r/" + ++resources, new ResourceLedger.Write("POST", path, shape, 0));
    }

    @Test
    void groupsStopAtTheBoundOfKeptDuplicatesAndTheTotalsAreUntouched() {
        for (int i = 0; i <= ResourceLedger.MAX_DUPLICATES; i++) {
            create("a" + i, "shape" + i, "/x");
            create("b" + i, "shape" + i, "/x");
        }
        ProxyLedger snapshot = ledger.snapshot();
        assertEquals(ResourceLedger.MAX_DUPLICATES, snapshot.suspected().size());
        assertEquals(2L * (ResourceLedger.MAX_DUPLICATES + 1), snapshot.created());
    }

    @Test
    void aGroupListsAtMostTheBoundOfResourcesPerOperation() {
        for (int i = 0; i < ResourceLedger.MAX_IDS_PER_OPERATION + 5; i++) {
            create("op" + i, "one-shape", "/x");
        }
        ProxyLedger.Suspected group = ledger.snapshot().suspected().get(0);
        assertEquals(ResourceLedger.MAX_IDS_PER_OPERATION, group.operations().size());
        assertEquals(ResourceLedger.MAX_IDS_PER_OPERATION, group.created().size());
        assertEquals("op0", group.operations().get(0));
    }

    @Test
    void theLeastRecentlySeenShapeIsForgottenPastTheBound() {
        create("first", "old-shape", "/x");
        for (int i = 0; i < ResourceLedger.MAX_TRACKED_OPERATIONS; i++) {
            create("filler" + i, "filler-shape" + i, "/x");
        }
        create("second", "old-shape", "/x");
        assertEquals(List.of(), ledger.snapshot().suspected(), "the first sighting was pushed out");

        create("third", "old-shape", "/x");
        assertEquals(List.of("second", "third"), ledger.snapshot().suspected().get(0).operations());
    }

    @Test
    void aLongPathIsCutInTheGroup() {
        String path = "/" + "p".repeat(5000);
        create("a", "s", path);
        create("b", "s", path);
        assertEquals(CreatedRule.MAX_ID_LENGTH, ledger.snapshot().suspected().get(0).path().length());
    }
}
