package dev.idempotent.seatgrant.server.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idempotent.seatgrant.server.internal.OwnHeap.Store;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The launcher starts its child before it parses the flags, from a light look at them: the collector settings
 * for every store and a heap of its own for one outside the heap, none for help and the version, and only what
 * the user's own JVM flags did not choose already.
 */
class OwnHeapArgsTest {

    @Test
    void aDurableStoreIsFoundFromTheLastDb() {
        assertEquals(Store.DURABLE, OwnHeap.store(List.of()));
        assertEquals(Store.DURABLE, OwnHeap.store(List.of("--port", "0", "--db", "sqlite:/tmp/seats")));
        assertEquals(Store.DURABLE, OwnHeap.store(List.of("--db=jdbc:postgresql://db/seats")));
        assertEquals(Store.DURABLE, OwnHeap.store(List.of("--db", "mem", "--db", "/tmp/seats")), "the last --db wins");
    }

    @Test
    void aStoreInTheHeapOrHelpIsFound() {
        assertEquals(Store.IN_HEAP, OwnHeap.store(List.of("--db", "mem")));
        assertEquals(Store.IN_HEAP, OwnHeap.store(List.of("--db=MEM")));
        assertEquals(Store.IN_HEAP, OwnHeap.store(List.of("--db", "jdbc:h2:mem:x")));
        assertEquals(Store.NONE, OwnHeap.store(List.of("--port", "0", "--help")));
        assertEquals(Store.NONE, OwnHeap.store(List.of("--db", "mem", "--version")));
    }

    @Test
    void aProxyAskedForHelpOrTheVersionServesNothingSoGetsNoChild() {
        String upstream = "http://127.0.0.1:9000";
        assertFalse(OwnHeap.asksForHelpOrVersion(List.of("--upstream", upstream, "--scenario", "incident")));
        assertTrue(OwnHeap.asksForHelpOrVersion(List.of("--upstream", upstream, "--help")));
        assertTrue(OwnHeap.asksForHelpOrVersion(List.of("-h")));
        assertTrue(OwnHeap.asksForHelpOrVersion(List.of("--version", "--upstream", upstream)));
    }

    @Test
    void noCdsTurnsTheArchiveOff() {
        // FAKE_SERVER_NO_CDS, the same switch for every start, is read from the environment: RunnableJarTest sets it.
        org.junit.jupiter.api.Assumptions.assumeTrue(System.getenv(OwnHeap.NO_CDS_VARIABLE) == null);
        assertTrue(OwnHeap.archiveWanted(List.of("--db", "mem")));
        assertFalse(OwnHeap.archiveWanted(List.of("--db", "mem", "--no-cds")));
    }

    @Test
    void aFlagsValueThatLooksLikeHelpIsAValue() {
        // The parser reads these as a file, a host and an operation header named -h, and serves.
        assertEquals(Store.DURABLE, OwnHeap.store(List.of("--db", "-h")));
        assertFalse(OwnHeap.asksForHelpOrVersion(List.of("--upstream", "http://127.0.0.1:9", "--allowed-host", "-h")));
        assertFalse(OwnHeap.asksForHelpOrVersion(List.of("--operation", "-h", "--port", "0")));
        // A flag without a value does not take the next token; one given as --flag=value neither.
        assertTrue(OwnHeap.asksForHelpOrVersion(List.of("--require-key", "-h")));
        assertTrue(OwnHeap.asksForHelpOrVersion(List.of("--no-cds", "-h")));
        assertTrue(OwnHeap.asksForHelpOrVersion(List.of("--db=mem", "-h")));
        assertTrue(OwnHeap.asksForHelpOrVersion(List.of("--port", "0", "--db", "mem", "--version")));
        // A value that starts with -- is refused by the parser, so it is read as the flag it is.
        assertTrue(OwnHeap.asksForHelpOrVersion(List.of("--db", "--help")));
    }

    @Test
    void eachStoreGetsItsFlagsWhenNobodyChoseAny() {
        List<String> plain = List.of("-Dsome.property=1", "-XX:+UseCompressedOops");
        List<String> durable = new ArrayList<>(List.of("-Xmx" + OwnHeap.HEAP));
        durable.addAll(OwnHeap.COLLECTOR);
        assertEquals(Optional.of(durable), OwnHeap.childFlags(Store.DURABLE, plain));
        assertEquals(Optional.of(OwnHeap.COLLECTOR), OwnHeap.childFlags(Store.IN_HEAP, plain));
        assertEquals(Optional.empty(), OwnHeap.childFlags(Store.NONE, plain));
    }

    @Test
    void aHeapFlagTurnsEitherChildOff() {
        for (String flag : List.of("-Xmx1g", "-XX:MaxHeapSize=1g", "-XX:MaxRAMPercentage=50", "-XX:+AggressiveHeap",
                "-XX:Flags=.hotspotrc", "-XX:VMOptionsFile=jvm.options")) {
            assertEquals(Optional.empty(), OwnHeap.childFlags(Store.DURABLE, List.of(flag)), flag);
            assertEquals(Optional.empty(), OwnHeap.childFlags(Store.IN_HEAP, List.of(flag)), flag);
        }
    }

    @Test
    void aTuningFlagThatChoosesNoCollectorChangesNothing() {
        for (String flag : List.of("-XX:+UseMaximumCompactionOnSystemGC", "-XX:+UseStringDeduplication",
                "-XX:G1HeapRegionSize=4m")) {
            assertEquals(Optional.of(OwnHeap.COLLECTOR), OwnHeap.childFlags(Store.IN_HEAP, List.of(flag)), flag);
        }
    }

    @Test
    void aCollectorFlagTurnsTheInHeapChildOffAndCarriesOverToTheDurableOne() {
        for (String flag : List.of("-XX:+UseZGC", "-XX:-UseG1GC", "-XX:+UseSerialGC", "-Xmn32m",
                "-XX:MaxNewSize=128m", "-XX:NewRatio=3", "-XX:MaxTenuringThreshold=4")) {
            assertEquals(Optional.empty(), OwnHeap.childFlags(Store.IN_HEAP, List.of(flag)), flag);
            // The durable child still gets its heap but not our collector flags (a second collector on one
            // command line would stop the JVM); the user's flag reaches it among the parent's own flags.
            assertEquals(Optional.of(List.of("-Xmx" + OwnHeap.HEAP)), OwnHeap.childFlags(Store.DURABLE, List.of(flag)),
                    flag);
        }
    }
}
