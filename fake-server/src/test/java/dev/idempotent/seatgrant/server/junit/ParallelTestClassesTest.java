package dev.idempotent.seatgrant.server.junit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import dev.idempotent.seatgrant.server.JournalEntry;
import java.net.URI;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.platform.testkit.engine.EngineTestKit;

/**
 * Test classes that JUnit runs in parallel each get their own server: three classes, each with a static
 * extension, run at once (a barrier holds each until all three are inside a test), each writes its own seat and
 * finds only its own in its server.
 */
class ParallelTestClassesTest {

    static final CyclicBarrier ALL_THREE_RUNNING = new CyclicBarrier(3);
    static final Set<URI> SERVERS = ConcurrentHashMap.newKeySet();

    @Test
    void parallelClassesEachHaveTheirOwnServer() {
        EngineTestKit.engine("junit-jupiter")
                .selectors(selectClass(Alpha.class), selectClass(Beta.class), selectClass(Gamma.class))
                .configurationParameter(OnlyThroughTestKit.PARAMETER, "true")
                // The parallel configuration of this test set: classes side by side, three threads.
                .configurationParameter("junit.jupiter.execution.parallel.enabled", "true")
                .configurationParameter("junit.jupiter.execution.parallel.mode.default", "same_thread")
                .configurationParameter("junit.jupiter.execution.parallel.mode.classes.default", "concurrent")
                .configurationParameter("junit.jupiter.execution.parallel.config.strategy", "fixed")
                .configurationParameter("junit.jupiter.execution.parallel.config.fixed.parallelism", "3")
                .execute()
                .testEvents().assertStatistics(stats -> stats.started(3).succeeded(3));

        assertEquals(3, SERVERS.size(), "three servers: " + SERVERS);
    }

    /** Writes this class's seat, waits until all three classes are inside a test, then reads its own server. */
    static void grantWhileTheOthersDoTheSame(FakeServerExtension fake, String user) throws Exception {
        SERVERS.add(fake.baseUri());
        assertEquals(201, Grants.post(fake.baseUri(), "req_" + user, "ws_1", user).statusCode());
        ALL_THREE_RUNNING.await(30, TimeUnit.SECONDS);
        assertEquals(1, fake.ledger().seats());
        assertEquals(List.of(user), fake.journal().stream().map(JournalEntry::userId).toList());
        fake.assertNoDuplicates();
    }

    @ExtendWith(OnlyThroughTestKit.class)
    static class Alpha {
        @RegisterExtension
        static FakeServerExtension fake = FakeServerExtension.server();

        @Test
        void grant() throws Exception {
            grantWhileTheOthersDoTheSame(fake, "alpha");
        }
    }

    @ExtendWith(OnlyThroughTestKit.class)
    static class Beta {
        @RegisterExtension
        static FakeServerExtension fake = FakeServerExtension.server();

        @Test
        void grant() throws Exception {
            grantWhileTheOthersDoTheSame(fake, "beta");
        }
    }

    @ExtendWith(OnlyThroughTestKit.class)
    static class Gamma {
        @RegisterExtension
        static FakeServerExtension fake = FakeServerExtension.server();

        @Test
        void grant() throws Exception {
            grantWhileTheOthersDoTheSame(fake, "gamma");
        }
    }
}
