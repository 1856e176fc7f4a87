package dev.idempotent.seatgrant.server.internal;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The launcher starts its own-heap child before it parses the flags, from a light look at them: a child for a
 * store outside the heap, none for one inside it or for help and the version.
 */
class OwnHeapArgsTest {

    @Test
    void aDurableStoreGetsAChild() {
        assertTrue(OwnHeap.wantsOwnHeap(List.of()));
        assertTrue(OwnHeap.wantsOwnHeap(List.of("--port", "0", "--db", "sqlite:/tmp/seats")));
        assertTrue(OwnHeap.wantsOwnHeap(List.of("--db=jdbc:postgresql://db/seats")));
        assertTrue(OwnHeap.wantsOwnHeap(List.of("--db", "mem", "--db", "/tmp/seats")), "the last --db wins");
    }

    @Test
    void aStoreInTheHeapOrHelpGetsNone() {
        assertFalse(OwnHeap.wantsOwnHeap(List.of("--db", "mem")));
        assertFalse(OwnHeap.wantsOwnHeap(List.of("--db=MEM")));
        assertFalse(OwnHeap.wantsOwnHeap(List.of("--db", "jdbc:h2:mem:x")));
        assertFalse(OwnHeap.wantsOwnHeap(List.of("--port", "0", "--help")));
        assertFalse(OwnHeap.wantsOwnHeap(List.of("--version")));
    }
}
