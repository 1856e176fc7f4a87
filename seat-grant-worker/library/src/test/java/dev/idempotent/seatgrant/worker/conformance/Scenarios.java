package dev.idempotent.seatgrant.worker.conformance;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.stubbing.Scenario.STARTED;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder;
import com.github.tomakehurst.wiremock.http.Fault;
import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import dev.idempotent.seatgrant.worker.SeatRequested;
import dev.idempotent.seatgrant.worker.conformance.Implementation.Kind;
import dev.idempotent.seatgrant.worker.conformance.Implementation.Observed;
import dev.idempotent.seatgrant.worker.testing.CapturedEvents;
import dev.idempotent.seatgrant.worker.testing.FakeTime;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.DynamicTest;
import org.opentest4j.AssertionFailedError;

/**
 * The conformance suite: one set of scenarios, scripted with WireMock over loopback sockets, and a table of which
 * kind of implementation is expected to pass which. The answer key (through {@code handle} and through
 * {@code handleAsync}) passes everything; the lab's minimal patch passes the seed's five numbered outcomes and
 * the table records exactly where a 15-minute patch stops short; the bare fixture fails what it is meant to fail.
 * Each (scenario, implementation) pair asserts its own verdict, so a fixture that passed an outcome it should
 * fail would break the suite: the packet would no longer fail closed.
 *
 * <p>Shipped in this module's test-jar: the library runs the answer key's rows, the lab runs the fixture's and
 * the minimal patch's.
 */
public final class Scenarios {

    private static final String SEAT = "{\"id\":\"seat_1\",\"workspaceId\":\"ws_1\",\"userId\":\"u_1\",\"role\":\"member\"}";
    private static final String PROBLEM = "{\"type\":\"about:blank\",\"title\":\"Bad Request\",\"status\":400}";
    private static final String IN_PROGRESS =
            "{\"type\":\"about:blank\",\"title\":\"Idempotency key in progress\",\"status\":409}";
    private static final Duration DEFAULT_CALL_TIMEOUT = Duration.ofSeconds(30);
    private static final SeatRequested EVENT = new SeatRequested("req_1", "ws_1", "u_1");

    private Scenarios() {
    }

    /** Everything a scenario can script and observe for one implementation. */
    public static final class Harness {
        final WireMockExtension wm;
        final Implementation impl;
        final FakeTime time = new FakeTime();
        final Instant start = time.instant();
        final CapturedEvents events;

        Harness(WireMockExtension wm, Implementation impl, CapturedEvents events) {
            this.wm = wm;
            this.impl = impl;
            this.events = events;
        }

        Observed run(SeatRequested event) {
            return run(event, DEFAULT_CALL_TIMEOUT);
        }

        Observed run(SeatRequested event, Duration callTimeout) {
            return impl.run(URI.create(wm.baseUrl()), time, events, event, callTimeout);
        }

        int posts() {
            return wm.countRequestsMatching(postRequestedFor(urlPathEqualTo("/v1/seats")).build()).getCount();
        }

        List<LoggedRequest> requests() {
            return wm.findAll(postRequestedFor(urlPathEqualTo("/v1/seats")));
        }

        void sequence(String name, ResponseDefinitionBuilder... answers) {
            String state = STARTED;
            for (int i = 0; i < answers.length; i++) {
                String next = i == answers.length - 1 ? state : "step-" + (i + 1);
                wm.stubFor(post(urlPathEqualTo("/v1/seats")).inScenario(name).whenScenarioStateIs(state)
                        .willSetStateTo(next).willReturn(answers[i]));
                state = next;
            }
        }
    }

    @FunctionalInterface
    interface Play {
        void play(Harness h);
    }

    /**
     * One scenario and the kinds of implementation expected to pass it.
     *
     * @param name   what it checks
     * @param passes who passes; everyone else is expected to fail
     * @param play   script, act, verify
     */
    record Scenario(String name, Set<Kind> passes, Play play) {}

    private static final Map<String, Scenario> SCENARIOS = new LinkedHashMap<>();

    private static void scenario(String name, Set<Kind> passes, Play play) {
        SCENARIOS.put(name, new Scenario(name, passes, play));
    }

    /** @return every scenario name, in order */
    public static List<String> names() {
        return List.copyOf(SCENARIOS.keySet());
    }

    /**
     * @param kind a kind of implementation
     * @return the names of the scenarios that kind is expected to pass
     */
    public static List<String> passedBy(Kind kind) {
        return SCENARIOS.values().stream().filter(s -> s.passes().contains(kind)).map(Scenario::name).toList();
    }

    /**
     * One dynamic test per (scenario, implementation): each asserts that the implementation passes or fails the
     * scenario exactly as the table says.
     *
     * @param wm              the WireMock server the scenarios script (reset before each)
     * @param implementations who to run
     * @return the tests
     */
    public static List<DynamicTest> tests(WireMockExtension wm, Collection<? extends Implementation> implementations) {
        List<DynamicTest> tests = new ArrayList<>();
        for (Scenario s : SCENARIOS.values()) {
            for (Implementation impl : implementations) {
                boolean expectPass = s.passes().contains(impl.kind());
                tests.add(DynamicTest.dynamicTest(impl + (expectPass ? " passes: " : " fails: ") + s.name(), () -> {
                    wm.resetAll();
                    AssertionError failure = null;
                    try (CapturedEvents events = new CapturedEvents()) {
                        s.play().play(new Harness(wm, impl, events));
                    } catch (AssertionError e) {
                        failure = e;
                    }
                    if (expectPass && failure != null) {
                        throw new AssertionFailedError(impl + " should pass '" + s.name() + "' but: " + failure.getMessage(), failure);
                    }
                    if (!expectPass && failure == null) {
                        fail(impl + " passed '" + s.name() + "', which it must fail: the packet no longer fails closed");
                    }
                }));
            }
        }
        return Collections.unmodifiableList(tests);
    }

    private static ResponseDefinitionBuilder status(int status) {
        return aResponse().withStatus(status);
    }

    private static ResponseDefinitionBuilder seat(int status) {
        return aResponse().withStatus(status).withHeader("Content-Type", "application/json").withBody(SEAT);
    }

    private static ResponseDefinitionBuilder replay() {
        return seat(409).withHeader("Idempotent-Replayed", "true");
    }

    private static void assertNoError(Observed o) {
        o.error().ifPresent(e -> fail("expected success, got " + e, e));
    }

    static {
        Set<Kind> all = EnumSet.allOf(Kind.class);
        Set<Kind> keyAndPatch = EnumSet.of(Kind.ANSWER_KEY, Kind.MINIMAL_PATCH);
        Set<Kind> keyOnly = EnumSet.of(Kind.ANSWER_KEY);

        // The seed's five numbered outcomes, as numbered.
        scenario("outcome 1: 201 once, exits after one attempt, records replayed=false", keyAndPatch, h -> {
            h.wm.stubFor(post(urlPathEqualTo("/v1/seats")).willReturn(seat(201)));
            Observed o = h.run(EVENT);
            assertNoError(o);
            assertEquals(1, h.posts(), "one attempt");
            assertEquals(Optional.of("granted"), o.outcome(), "outcome recorded as granted, not replayed");
            assertEquals(Optional.of("seat_1"), o.seatId());
        });
        scenario("outcome 2: dropped connection, then 409 with the same id, no third call", keyAndPatch, h -> {
            h.sequence("o2", aResponse().withFault(Fault.CONNECTION_RESET_BY_PEER), replay());
            Observed o = h.run(EVENT);
            assertNoError(o);
            assertEquals(2, h.posts(), "no third call");
            assertEquals(Optional.of("replayed"), o.outcome());
            assertEquals(Optional.of("seat_1"), o.seatId());
        });
        scenario("outcome 3: 400 is not retried and not slept on", keyAndPatch, h -> {
            h.wm.stubFor(post(urlPathEqualTo("/v1/seats")).willReturn(status(400)
                    .withHeader("Content-Type", "application/problem+json").withBody(PROBLEM)));
            Observed o = h.run(EVENT);
            assertTrue(o.error().isPresent(), "a 400 must surface as an error");
            assertEquals(1, h.posts(), "no retry");
            assertEquals(List.of(), h.time.sleeps(), "no sleep");
        });
        scenario("outcome 4: 503 then 201, both attempts recorded under one requestId", keyAndPatch, h -> {
            h.sequence("o4", status(503), seat(201));
            Observed o = h.run(EVENT);
            assertNoError(o);
            assertEquals(2, h.posts());
            assertEquals(Optional.of("granted"), o.outcome());
            Set<Object> attempts = h.events.forRequest(EVENT.requestId()).stream()
                    .map(e -> e.get("attempt")).collect(Collectors.toSet());
            assertTrue(attempts.containsAll(Set.of(1, 2)), "attempts 1 and 2 both recorded for req_1: " + attempts);
        });
        scenario("outcome 5: five retryable failures end in exhausted_retries, never swallowed", all, h -> {
            h.wm.stubFor(post(urlPathEqualTo("/v1/seats")).willReturn(status(503)));
            Observed o = h.run(EVENT);
            Throwable error = o.error().orElseThrow(() -> new AssertionFailedError("the failure was swallowed"));
            assertEquals(5, h.posts(), "five attempts");
            assertTrue(String.valueOf(error.getMessage()).startsWith("exhausted_retries:req_1"), error.getMessage());
        });

        // Beyond the seed.
        scenario("every attempt carries the same Idempotency-Key: the requestId", keyAndPatch, h -> {
            h.sequence("key", status(503), aResponse().withFault(Fault.CONNECTION_RESET_BY_PEER), seat(201));
            assertNoError(h.run(EVENT));
            List<LoggedRequest> requests = h.requests();
            assertEquals(3, requests.size());
            for (LoggedRequest r : requests) {
                assertEquals("req_1", r.getHeader("Idempotency-Key"), "attempt without the key");
            }
        });
        scenario("504 then 409 is a replay", keyAndPatch, h -> {
            h.sequence("504", status(504), replay());
            Observed o = h.run(EVENT);
            assertNoError(o);
            assertEquals(Optional.of("replayed"), o.outcome());
            assertEquals(Optional.of("seat_1"), o.seatId());
            assertEquals(2, h.posts());
        });
        scenario("422, 401 and 403 give up at once", keyAndPatch, h -> {
            for (int s : new int[] {422, 401, 403}) {
                h.wm.resetAll();
                h.wm.stubFor(post(urlPathEqualTo("/v1/seats")).willReturn(status(s)
                        .withHeader("Content-Type", "application/problem+json").withBody(PROBLEM)));
                Observed o = h.run(new SeatRequested("req_" + s, "ws_1", "u_1"));
                assertTrue(o.error().isPresent(), s + " must surface as an error");
                assertEquals(1, h.posts(), s + " must not be retried");
            }
            assertEquals(List.of(), h.time.sleeps(), "no sleep");
        });
        scenario("Retry-After: 2 waits two seconds on the injected clock", keyOnly, h -> {
            h.sequence("ra", status(503).withHeader("Retry-After", "2"), seat(201));
            assertNoError(h.run(EVENT));
            assertEquals(List.of(Duration.ofSeconds(2)), h.time.sleeps());
            assertEquals(Duration.ofSeconds(2), Duration.between(h.start, h.time.instant()));
        });
        scenario("in-progress 409 (no seat) waits, then the 409 with the seat is the replay", keyOnly, h -> {
            h.sequence("busy", status(409).withHeader("Content-Type", "application/problem+json")
                    .withHeader("Retry-After", "1").withBody(IN_PROGRESS), replay());
            Observed o = h.run(EVENT);
            assertNoError(o);
            assertEquals(2, h.posts(), "the in-progress answer is not the end");
            assertEquals(Optional.of("replayed"), o.outcome());
            assertEquals(Optional.of("seat_1"), o.seatId());
        });
        scenario("201 with Idempotent-Replayed: true is a replay", keyOnly, h -> {
            h.wm.stubFor(post(urlPathEqualTo("/v1/seats")).willReturn(seat(201).withHeader("Idempotent-Replayed", "true")));
            Observed o = h.run(EVENT);
            assertNoError(o);
            assertEquals(Optional.of("replayed"), o.outcome());
            assertEquals(1, h.posts());
        });
        scenario("an unreadable 201 body is retried, and the replay ends it", keyAndPatch, h -> {
            h.sequence("garbled", status(201).withHeader("Content-Type", "application/json").withBody("{\"id\": \"se"),
                    replay());
            Observed o = h.run(EVENT);
            assertNoError(o);
            assertEquals(2, h.posts());
            assertEquals(Optional.of("replayed"), o.outcome());
            assertEquals(Optional.of("seat_1"), o.seatId());
        });
        scenario("the call timeout stops retries before the attempts run out", keyOnly, h -> {
            h.wm.stubFor(post(urlPathEqualTo("/v1/seats")).willReturn(status(503).withHeader("Retry-After", "2")));
            Observed o = h.run(EVENT, Duration.ofSeconds(3));
            assertTrue(o.error().isPresent(), "must end in an error");
            // t=0 attempt 1, wait 2 s; t=2 attempt 2; a second wait would end at t=4, past the 3 s call timeout.
            assertEquals(2, h.posts(), "stopped by the call timeout, not by the attempt count");
            assertEquals(List.of(Duration.ofSeconds(2)), h.time.sleeps(), "never slept past the call timeout");
        });
    }

}
