package dev.idempotent.seatgrant.server.junit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import dev.idempotent.seatgrant.server.Await;
import dev.idempotent.seatgrant.server.FaultPlan;
import dev.idempotent.seatgrant.server.JournalEntry;
import dev.idempotent.seatgrant.server.ServerConfig;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;

/**
 * The extension's lifecycle as JUnit users expect it, proved by running small test classes through the Jupiter
 * engine (the nested classes below, which run only that way) and counting the real servers they started and closed.
 */
class FakeServerExtensionLifecycleTest {

    @Test
    void aStaticFieldStartsOneServerForTheClassAndItsNestedClassesAndResetsItBeforeEachTest() {
        EngineExecutionResults results = run(PerClass.class);

        results.testEvents().assertStatistics(stats -> stats.started(3).succeeded(3));
        assertEquals(1, PerClass.STARTER.started().size(), "one server for the class and its nested class");
        assertEquals(1, PerClass.STARTER.closed(), "closed after all");
    }

    @Test
    void anInstanceFieldStartsAServerPerTestAndClosesItAfterTheTest() {
        EngineExecutionResults results = run(PerTest.class);

        results.testEvents().assertStatistics(stats -> stats.started(2).succeeded(2));
        List<CountingStarter.Counted> servers = PerTest.STARTER.started();
        assertEquals(2, servers.size());
        assertNotSame(servers.get(0), servers.get(1));
        assertEquals(2, PerTest.STARTER.closed());
    }

    @Test
    void anInstanceFieldOfAPerClassTestInstanceStartsOneServerForTheClass() {
        EngineExecutionResults results = run(PerClassInstance.class);

        results.testEvents().assertStatistics(stats -> stats.started(2).succeeded(2));
        assertEquals(1, PerClassInstance.STARTER.started().size(), "one test instance, one server");
        assertEquals(1, PerClassInstance.STARTER.closed());
    }

    @Test
    void testsThatShareAServerConcurrentlyTakeTurnsEachStartingClean() {
        EngineExecutionResults results = runConcurrently(TakingTurns.class);

        results.testEvents().assertStatistics(stats -> stats.started(2).succeeded(2));
        assertEquals(1, TakingTurns.STARTER.started().size());
        assertEquals(1, TakingTurns.STARTER.closed());
    }

    @Test
    void aTestThatWaitsTooLongForItsTurnFailsWithTheReason() {
        EngineExecutionResults results = runConcurrently(ConcurrentOnOneServer.class);

        results.testEvents().assertStatistics(stats -> stats.started(2).succeeded(1).failed(1));
        Throwable refused = failures(results).get(0);
        assertTrue(refused instanceof ExtensionConfigurationException, String.valueOf(refused));
        assertTrue(refused.getMessage().startsWith(
                "a FakeServerExtension with one server per class (a static field) serves one test at a time, and "),
                refused.getMessage());
        assertTrue(refused.getMessage().contains(" waited 300 ms for another test to finish with it; "),
                refused.getMessage());
        assertEquals(1, ConcurrentOnOneServer.STARTER.started().size());
        assertEquals(1, ConcurrentOnOneServer.STARTER.closed(), "the refused test did not close the other's server");
    }

    private static EngineExecutionResults runConcurrently(Class<?> testClass) {
        return EngineTestKit.engine("junit-jupiter")
                .selectors(selectClass(testClass))
                .configurationParameter(OnlyThroughTestKit.PARAMETER, "true")
                .configurationParameter("junit.jupiter.execution.parallel.enabled", "true")
                .configurationParameter("junit.jupiter.execution.parallel.config.strategy", "fixed")
                .configurationParameter("junit.jupiter.execution.parallel.config.fixed.parallelism", "2")
                .execute();
    }

    @Test
    void aUriParameterIsTheBaseUriInTestsAndLifecycleMethods() {
        run(UriParameters.class).testEvents().assertStatistics(stats -> stats.started(1).succeeded(1));
    }

    @Test
    void outsideATestTheAccessorsSayWhyThereIsNoServer() {
        FakeServerExtension fake = FakeServerExtension.server();

        IllegalStateException e = assertThrows(IllegalStateException.class, fake::baseUri);

        assertEquals("no fake server is running: FakeServerExtension starts one before all tests when registered "
                + "in a static field, before each test when in an instance field; use it from a test or a "
                + "@BeforeEach or @AfterEach method", e.getMessage());
        assertThrows(IllegalStateException.class, fake::assertNoDuplicates);
        assertThrows(IllegalStateException.class, () -> fake.scenario("incident"));
    }

    private static EngineExecutionResults run(Class<?> testClass) {
        return EngineTestKit.engine("junit-jupiter")
                .selectors(selectClass(testClass))
                .configurationParameter(OnlyThroughTestKit.PARAMETER, "true")
                .execute();
    }

    private static List<Throwable> failures(EngineExecutionResults results) {
        return results.testEvents().failed().stream()
                .map(event -> event.getRequiredPayload(TestExecutionResult.class).getThrowable().orElseThrow())
                .toList();
    }

    @ExtendWith(OnlyThroughTestKit.class)
    @TestMethodOrder(MethodOrderer.OrderAnnotation.class)
    static class PerClass {
        static final FaultPlan CONFIGURED = FaultPlan.scenario("reset");
        static final CountingStarter STARTER = new CountingStarter(ServerConfig.builder().faultPlan(CONFIGURED).build());

        @RegisterExtension
        static FakeServerExtension fake = new FakeServerExtension(STARTER);

        static URI firstBaseUri;

        @Test
        @Order(1)
        void first() throws Exception {
            firstBaseUri = fake.baseUri();
            assertEquals(CONFIGURED, fake.faultPlan());
            fake.faultPlan(FaultPlan.none());
            assertEquals(201, Grants.post(fake.baseUri(), "req_1", "ws_1", "user_1").statusCode());
            assertEquals(201, Grants.post(fake.baseUri(), null, "ws_1", "user_2").statusCode());
            assertEquals(201, Grants.post(fake.baseUri(), null, "ws_1", "user_2").statusCode());
            assertEquals(List.of(1, 1, 2), fake.journal().stream().map(JournalEntry::attempt).toList());
            assertEquals(1, fake.duplications().size(), "user_2 has two seats");
        }

        @Test
        @Order(2)
        void second() throws Exception {
            assertEquals(firstBaseUri, fake.baseUri(), "the same server");
            assertEquals(CONFIGURED, fake.faultPlan(), "the configured plan again");
            assertEquals(List.of(), fake.journal());
            assertEquals(List.of(), fake.duplications(), "no seat left");
            fake.faultPlan(FaultPlan.none());
            assertEquals(201, Grants.post(fake.baseUri(), "req_1", "ws_1", "user_1").statusCode(),
                    "a new grant, not a replay: the key is gone");
            assertEquals(201, Grants.post(fake.baseUri(), null, "ws_1", "user_2").statusCode());
            assertEquals(List.of(1, 1), fake.journal().stream().map(JournalEntry::attempt).toList(),
                    "the attempt counts are gone");
        }

        @Nested
        class Inner {
            @Test
            void third() {
                assertEquals(firstBaseUri, fake.baseUri(), "the outer class's server");
                assertEquals(List.of(), fake.journal());
                assertEquals(CONFIGURED, fake.faultPlan());
            }
        }
    }

    @ExtendWith(OnlyThroughTestKit.class)
    static class PerTest {
        static final CountingStarter STARTER = new CountingStarter(ServerConfig.builder().build());

        @RegisterExtension
        FakeServerExtension fake = new FakeServerExtension(STARTER);

        @Test
        void one() throws Exception {
            grantAndCheckThatOnlyThisTestsServerIsOpen();
        }

        @Test
        void another() throws Exception {
            grantAndCheckThatOnlyThisTestsServerIsOpen();
        }

        private void grantAndCheckThatOnlyThisTestsServerIsOpen() throws Exception {
            assertEquals(List.of(), fake.journal());
            assertEquals(201, Grants.post(fake.baseUri(), "req_1", "ws_1", "user_1").statusCode());
            List<CountingStarter.Counted> started = STARTER.started();
            assertEquals(started.size() - 1, STARTER.closed(), "every earlier test's server is closed");
            assertEquals(started.get(started.size() - 1).baseUri(), fake.baseUri());
        }
    }

    @ExtendWith(OnlyThroughTestKit.class)
    @TestInstance(TestInstance.Lifecycle.PER_CLASS)
    @TestMethodOrder(MethodOrderer.OrderAnnotation.class)
    static class PerClassInstance {
        static final CountingStarter STARTER = new CountingStarter(ServerConfig.builder().build());

        @RegisterExtension
        FakeServerExtension fake = new FakeServerExtension(STARTER);

        URI fromBeforeAll;

        @BeforeAll
        void before(URI baseUri) {
            fromBeforeAll = baseUri;
        }

        @Test
        @Order(1)
        void first() throws Exception {
            assertEquals(fromBeforeAll, fake.baseUri());
            assertEquals(201, Grants.post(fake.baseUri(), "req_1", "ws_1", "user_1").statusCode());
        }

        @Test
        @Order(2)
        void second() {
            assertEquals(fromBeforeAll, fake.baseUri());
            assertEquals(List.of(), fake.journal(), "reset before this test");
        }
    }

    @ExtendWith(OnlyThroughTestKit.class)
    @Execution(ExecutionMode.CONCURRENT)
    static class TakingTurns {
        static final CountingStarter STARTER = new CountingStarter(ServerConfig.builder().build());
        static final AtomicInteger USING = new AtomicInteger();
        static final AtomicBoolean FIRST = new AtomicBoolean();

        @RegisterExtension
        static FakeServerExtension fake = new FakeServerExtension(STARTER);

        @Test
        void one() throws Exception {
            takeTurn("user_1");
        }

        @Test
        void another() throws Exception {
            takeTurn("user_2");
        }

        /** The first test holds the server until the other is waiting for it, so they really did overlap. */
        private static void takeTurn(String user) throws Exception {
            assertEquals(1, USING.incrementAndGet(), "one test at a time on the server");
            try {
                assertEquals(List.of(), fake.journal(), "nothing of the other test is left");
                assertEquals(201, Grants.post(fake.baseUri(), null, "ws_1", user).statusCode());
                if (FIRST.compareAndSet(false, true)) {
                    Await.until(Duration.ofSeconds(30), "the other test to wait for its turn",
                            () -> fake.testsWaiting() == 1);
                }
                assertEquals(List.of(user), fake.journal().stream().map(JournalEntry::userId).toList());
            } finally {
                USING.decrementAndGet();
            }
        }
    }

    @ExtendWith(OnlyThroughTestKit.class)
    @Execution(ExecutionMode.CONCURRENT)
    static class ConcurrentOnOneServer {
        static final CountingStarter STARTER = new CountingStarter(ServerConfig.builder().build());
        /** Counted down after each test: the test holding the server waits for the other to give up. */
        static final CountDownLatch FINISHED = new CountDownLatch(1);

        @RegisterExtension
        static FakeServerExtension fake = new FakeServerExtension(STARTER, Duration.ofMillis(300));

        // A callback, not an @AfterEach method: JUnit skips a test's @AfterEach methods when an extension refused
        // it in beforeEach, but still calls every extension's afterEach.
        @RegisterExtension
        static AfterEachCallback finished = context -> FINISHED.countDown();

        @Test
        void one() throws InterruptedException {
            assertTrue(FINISHED.await(30, TimeUnit.SECONDS), "the other test ran at the same time");
        }

        @Test
        void another() throws InterruptedException {
            assertTrue(FINISHED.await(30, TimeUnit.SECONDS), "the other test ran at the same time");
        }
    }

    @ExtendWith(OnlyThroughTestKit.class)
    static class UriParameters {
        @RegisterExtension
        FakeServerExtension fake = FakeServerExtension.server();

        URI fromBeforeEach;

        @BeforeEach
        void before(URI baseUri) {
            fromBeforeEach = baseUri;
        }

        @Test
        void test(URI baseUri) {
            assertEquals(fake.baseUri(), baseUri);
            assertEquals(fake.baseUri(), fromBeforeEach);
            assertNotEquals(0, baseUri.getPort());
        }
    }
}
