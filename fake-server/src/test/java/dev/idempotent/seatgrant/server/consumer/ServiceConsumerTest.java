package dev.idempotent.seatgrant.server.consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.idempotent.seatgrant.server.Await;
import dev.idempotent.seatgrant.server.FakeSeatServer;
import dev.idempotent.seatgrant.server.Fault;
import dev.idempotent.seatgrant.server.FaultPlan;
import dev.idempotent.seatgrant.server.FaultRule;
import dev.idempotent.seatgrant.server.JournalEntry;
import dev.idempotent.seatgrant.server.Ledger;
import dev.idempotent.seatgrant.server.ServerConfig;
import dev.idempotent.seatgrant.worker.AttemptContext;
import dev.idempotent.seatgrant.worker.GrantExhaustedException;
import dev.idempotent.seatgrant.worker.GrantListener;
import dev.idempotent.seatgrant.worker.GrantListener.AttemptEvent;
import dev.idempotent.seatgrant.worker.GrantListener.Outcome;
import dev.idempotent.seatgrant.worker.GrantListener.OutcomeEvent;
import dev.idempotent.seatgrant.worker.GrantOutcome;
import dev.idempotent.seatgrant.worker.RequestCustomizer;
import dev.idempotent.seatgrant.worker.SeatGrantConfig;
import dev.idempotent.seatgrant.worker.SeatGrantWorker;
import dev.idempotent.seatgrant.worker.SeatRequested;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The worker as a service uses it: from another module, through the public API only, against the real fake server
 * under the {@code incident} scenario (every first POST is committed, then answered 504 after 1.5 s). The service
 * brings its own {@link HttpClient}, adds a rotating {@code Authorization} header and a {@code traceparent} per
 * event and attempt, grants seats of every role, counts outcomes and times attempts through a listener, bounds
 * calls by a message's deadline, runs grants asynchronously (and gives up on some with {@code orTimeout}), and
 * closes the worker. A recording proxy in front of the server sees what went over the wire.
 */
class ServiceConsumerTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final ExecutorService serviceThreads = Executors.newFixedThreadPool(2);

    @AfterEach
    void stopServiceThreads() {
        serviceThreads.shutdownNow();
    }

    /** The service's client: its executor, HTTP/1.1, and no redirects (the worker refuses any other). */
    private HttpClient serviceClient() {
        return HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .followRedirects(HttpClient.Redirect.NEVER)
                .connectTimeout(Duration.ofSeconds(2))
                .executor(serviceThreads)
                .build();
    }

    private static FakeSeatServer incidentServer() {
        return FakeSeatServer.start(ServerConfig.builder().faultPlan(FaultPlan.scenario("incident")).build());
    }

    /** The incident with the gateway holding each lost answer for {@code holdMs} instead of 1.5 s. */
    private static FakeSeatServer incidentServer(long holdMs) {
        FaultRule lost = FaultRule.of(Fault.STATUS_AFTER_COMMIT, 504).withMethodAndPath("POST", "/v1/seats")
                .withAttempt(1).withDelayMs(holdMs);
        return FakeSeatServer.start(ServerConfig.builder().faultPlan(FaultPlan.of(lost)).build());
    }

    /** What a metrics listener would count: every attempt and every outcome, per requestId. */
    private static final class Counting implements GrantListener {
        final Map<String, List<AttemptEvent>> attempts = new LinkedHashMap<>();
        final List<OutcomeEvent> outcomes = new CopyOnWriteArrayList<>();

        @Override
        public void onAttempt(AttemptEvent attempt) {
            synchronized (attempts) {
                attempts.computeIfAbsent(attempt.requestId(), k -> new ArrayList<>()).add(attempt);
            }
        }

        @Override
        public void onOutcome(OutcomeEvent outcome) {
            outcomes.add(outcome);
        }

        long count(Outcome outcome) {
            return outcomes.stream().filter(o -> o.outcome() == outcome).count();
        }
    }

    @Test
    void oneSeatPerRequestIdAndTheServicesHeadersOnEveryAttempt() throws Exception {
        try (FakeSeatServer server = FakeSeatServer.start(ServerConfig.builder()
                .faultPlan(FaultPlan.scenario("incident")).build());
                RecordingProxy proxy = new RecordingProxy(server.baseUri())) {

            HttpClient client = serviceClient();
            // A token that rotates on every read, as a short-lived credential would: it proves the customizer runs
            // per attempt, not once per worker. The traceparent names the event (its trace) and the attempt (its span).
            AtomicInteger tokenReads = new AtomicInteger();
            RequestCustomizer headers = (request, attempt) -> request
                    .header("Authorization", "Bearer svc-token-" + tokenReads.incrementAndGet())
                    .header("traceparent", traceparent(attempt));
            Counting metrics = new Counting();
            SeatGrantConfig config = SeatGrantConfig.builder(proxy.baseUri())
                    .httpClient(client)
                    .requestCustomizer(headers)
                    .listener(metrics)
                    .build();

            List<SeatRequested> viaAsync = List.of(event(1, "member"), event(2, "admin"), event(3, "viewer"));
            List<SeatRequested> viaHandle = List.of(event(4, "admin"), event(5));
            List<GrantOutcome> results = new ArrayList<>();
            try (SeatGrantWorker worker = new SeatGrantWorker(config)) {
                List<CompletableFuture<GrantOutcome>> pending = viaAsync.stream().map(worker::handleAsync).toList();
                for (SeatRequested e : viaHandle) {
                    // What is left of the message's visibility timeout.
                    results.add(worker.handle(e, Instant.now().plusSeconds(20)));
                }
                for (CompletableFuture<GrantOutcome> f : pending) {
                    results.add(f.get(30, TimeUnit.SECONDS));
                }
            }

            // Every grant: committed by its first POST, answer lost in a 504, replayed by the keyed retry.
            for (GrantOutcome o : results) {
                assertTrue(o instanceof GrantOutcome.Replayed, "replayed after the 504: " + o);
                assertEquals(2, o.attempts());
            }

            Set<String> requestIds = new HashSet<>();
            viaAsync.forEach(e -> requestIds.add(e.requestId()));
            viaHandle.forEach(e -> requestIds.add(e.requestId()));

            // One seat per requestId: five seats, no duplicate, each key committed exactly once.
            Ledger ledger = server.ledger();
            assertEquals(5, ledger.seats());
            assertEquals(List.of(), ledger.duplicates());
            List<JournalEntry> posts = server.journal().stream().filter(e -> e.method().equals("POST")).toList();
            Map<String, Long> commitsPerKey = posts.stream().filter(JournalEntry::committed)
                    .collect(Collectors.groupingBy(JournalEntry::idempotencyKey, Collectors.counting()));
            assertEquals(requestIds, commitsPerKey.keySet());
            commitsPerKey.values().forEach(n -> assertEquals(1L, n));
            Set<String> seatIds = results.stream().map(GrantOutcome::seatId).collect(Collectors.toSet());
            assertEquals(5, seatIds.size(), "each requestId has its own seat, the one its first POST committed");

            // The Authorization header on every attempt, as the server's socket received it.
            List<RecordingProxy.Recorded> wire = proxy.requests().stream()
                    .filter(r -> r.method().equals("POST") && r.target().equals("/v1/seats")).toList();
            assertEquals(posts.size(), wire.size(), "the proxy saw every POST the server journaled");
            assertEquals(10, wire.size(), "two attempts per requestId");
            Set<String> tokens = new HashSet<>();
            for (RecordingProxy.Recorded r : wire) {
                List<String> authorization = r.header("Authorization");
                assertEquals(1, authorization.size(), "one Authorization header on " + r.header("Idempotency-Key"));
                assertTrue(authorization.get(0).startsWith("Bearer svc-token-"), authorization.get(0));
                tokens.add(authorization.get(0));
                assertEquals(1, r.header("Idempotency-Key").size());
                assertTrue(requestIds.contains(r.header("Idempotency-Key").get(0)));
            }
            assertEquals(10, tokens.size(), "a fresh token read for every attempt");
            assertEquals(10, tokenReads.get());

            // A traceparent per event and attempt, in the order the attempts went out, as the customizer saw them.
            Map<String, List<String>> traceparents = new HashMap<>();
            for (RecordingProxy.Recorded r : wire) {
                assertEquals(1, r.header("traceparent").size());
                traceparents.computeIfAbsent(r.header("Idempotency-Key").get(0), k -> new ArrayList<>())
                        .add(r.header("traceparent").get(0));
            }
            for (String requestId : requestIds) {
                assertEquals(List.of(traceparent(new AttemptContext(requestId, 1)),
                        traceparent(new AttemptContext(requestId, 2))), traceparents.get(requestId), requestId);
            }

            // The listener heard the same story: a retry on the 504, then the replay; one outcome per grant.
            assertEquals(requestIds, metrics.attempts.keySet());
            for (OutcomeEvent outcome : metrics.outcomes) {
                List<AttemptEvent> its = metrics.attempts.get(outcome.requestId());
                assertEquals(List.of(Outcome.RETRY, Outcome.REPLAYED), its.stream().map(AttemptEvent::outcome).toList());
                // Each attempt timed by the worker: the first one waited out the gateway's 1.5 s before its 504.
                assertTrue(its.get(0).elapsed().compareTo(Duration.ofMillis(1500)) >= 0, its.get(0).toString());
                assertTrue(outcome.elapsed().compareTo(its.get(0).elapsed().plus(its.get(1).elapsed())) >= 0,
                        "the call's time holds both attempts' and the wait between them: " + outcome);
                assertEquals(Outcome.REPLAYED, outcome.outcome());
            }
            assertEquals(5, metrics.outcomes.size());

            // Each seat has the role its event asked for.
            for (SeatRequested e : concat(viaAsync, viaHandle)) {
                assertEquals(e.role(), seatOf(client, server, e).path("role").asText(), e.requestId());
            }

            // The worker closed, the service's client did not: it still sends.
            HttpRequest health = HttpRequest.newBuilder(server.baseUri().resolve("/v1/seats?workspaceId=ws_consumer"))
                    .GET().build();
            assertEquals(200, client.send(health, HttpResponse.BodyHandlers.ofString()).statusCode());
        }
    }

    /**
     * The report: 200 grants through {@code handleAsync(...).orTimeout(1, SECONDS)} under the incident.
     * Every first POST commits and its answer is held, here for 6 s rather than the scenario's 1.5 s, so that every
     * future times out first even when a busy machine runs the timeouts' timer late. Each grant must still
     * be counted, once, as cancelled by the timeout, and must stop there; the bus redelivers them and the key
     * replays each seat. The consumer's counters then match the server's ledger.
     */
    @Test
    void grantsEndedByOrTimeoutAreEachReportedOnceAndTheirRedeliveriesReplay() throws Exception {
        int events = 200;
        try (FakeSeatServer server = incidentServer(6_000)) {
            Counting metrics = new Counting();
            // Attempts may take up to the redelivery's 20 s deadline: 200 grants at once on a busy machine can take
            // longer than the default 5 s, and a timed-out attempt's resend would be a POST between the two.
            SeatGrantConfig config = SeatGrantConfig.builder(server.baseUri()).httpClient(serviceClient())
                    .requestTimeout(Duration.ofSeconds(30)).listener(metrics).build();
            List<SeatRequested> batch = new ArrayList<>();
            for (int i = 0; i < events; i++) {
                batch.add(new SeatRequested("timeout-req-" + i, "ws_timeout", "user_" + i, SeatRequested.ROLES.get(i % 3)));
            }
            try (SeatGrantWorker worker = new SeatGrantWorker(config)) {
                List<CompletableFuture<GrantOutcome>> gaveUp = batch.stream()
                        .map(e -> worker.handleAsync(e).orTimeout(1, TimeUnit.SECONDS)).toList();
                for (CompletableFuture<GrantOutcome> f : gaveUp) {
                    ExecutionException e = assertThrows(ExecutionException.class, () -> f.get(60, TimeUnit.SECONDS));
                    assertInstanceOf(TimeoutException.class, e.getCause());
                }

                // Counted at once, by whoever completed the future: one cancelled outcome per grant, no attempt.
                assertEquals(events, metrics.outcomes.size(), "every grant the consumer gave up on is counted");
                for (OutcomeEvent o : metrics.outcomes) {
                    assertEquals(Outcome.CANCELLED, o.outcome(), o.toString());
                    assertEquals(Optional.of("timeout"), o.endedBy(), o.toString());
                    assertEquals(1, o.attempts(), "the one POST in flight when the consumer gave up");
                }
                assertEquals(Map.of(), metrics.attempts, "no answer had arrived to classify");

                // The server answers every first POST 504 after its hold; the abandoned grants must not retry on it.
                Await.until(Duration.ofSeconds(60), "the server to have answered every first POST",
                        () -> server.journal().stream().filter(j -> "status-after-commit".equals(j.fault())).count()
                                == events);
                List<GrantOutcome> redelivered = new ArrayList<>();
                List<CompletableFuture<GrantOutcome>> again = batch.stream()
                        .map(e -> worker.handleAsync(e, Instant.now().plusSeconds(20))).toList();
                for (CompletableFuture<GrantOutcome> f : again) {
                    redelivered.add(f.get(60, TimeUnit.SECONDS));
                }
                redelivered.forEach(o -> assertInstanceOf(GrantOutcome.Replayed.class, o));
            }

            Ledger ledger = server.ledger();
            assertEquals(events, ledger.seats());
            assertEquals(List.of(), ledger.duplicates());
            assertEquals(ledger.seats(), metrics.count(Outcome.CANCELLED), "the counters match the ledger");
            assertEquals(events, metrics.count(Outcome.REPLAYED));
            assertEquals(2L * events, server.journal().stream().filter(j -> j.method().equals("POST")).count(),
                    "the first POST and the redelivery's replay, nothing between them");
        }
    }

    /**
     * A message's deadline through both entry points: the grant is still waiting for the 504 when the deadline
     * comes (the answer is held 6 s, the deadline is 0.8 s away, a margin no busy machine's timer overruns), so
     * it ends as the worker's own outcome, exhausted at the deadline, the same way sync and async.
     */
    @Test
    void aDeadlineEndsTheGrantTheSameWaySyncAndAsync() throws Exception {
        try (FakeSeatServer server = incidentServer(6_000)) {
            Counting metrics = new Counting();
            SeatGrantConfig config = SeatGrantConfig.builder(server.baseUri()).httpClient(serviceClient())
                    .listener(metrics).build();
            SeatRequested viaAsync = new SeatRequested("deadline-req-1", "ws_deadline", "user_1");
            SeatRequested viaHandle = new SeatRequested("deadline-req-2", "ws_deadline", "user_2");
            try (SeatGrantWorker worker = new SeatGrantWorker(config)) {
                CompletableFuture<GrantOutcome> pending = worker.handleAsync(viaAsync, Instant.now().plusMillis(800));
                GrantExhaustedException sync = assertThrows(GrantExhaustedException.class,
                        () -> worker.handle(viaHandle, Instant.now().plusMillis(800)));
                ExecutionException async = assertThrows(ExecutionException.class,
                        () -> pending.get(30, TimeUnit.SECONDS));

                for (GrantExhaustedException e : List.of(sync,
                        assertInstanceOf(GrantExhaustedException.class, async.getCause()))) {
                    assertEquals(GrantExhaustedException.Limit.DEADLINE, e.limit());
                    assertEquals(1, e.attempts());
                    assertInstanceOf(HttpTimeoutException.class, e.getCause(), "the attempt was cut to the deadline");
                }
                assertEquals(List.of(Outcome.EXHAUSTED, Outcome.EXHAUSTED),
                        metrics.outcomes.stream().map(OutcomeEvent::outcome).toList());

                // The first POST had committed: the redelivery replays it.
                assertInstanceOf(GrantOutcome.Replayed.class, worker.handleAsync(viaAsync).get(30, TimeUnit.SECONDS));
                assertInstanceOf(GrantOutcome.Replayed.class, worker.handle(viaHandle));
            }
            assertEquals(2, server.ledger().seats());
            assertEquals(List.of(), server.ledger().duplicates());
        }
    }

    private static SeatRequested event(int n) {
        return event(n, SeatRequested.DEFAULT_ROLE);
    }

    private static SeatRequested event(int n, String role) {
        return new SeatRequested("consumer-req-" + n, "ws_consumer", "user_" + n, role);
    }

    /** A W3C traceparent: the event's trace (from its requestId) and this attempt's span. */
    private static String traceparent(AttemptContext attempt) {
        String trace = UUID.nameUUIDFromBytes(attempt.requestId().getBytes(StandardCharsets.UTF_8)).toString()
                .replace("-", "");
        return "00-" + trace + "-" + String.format("%016x", attempt.attempt()) + "-01";
    }

    /** The one seat the server holds for the event's workspace and user, as a client lists it. */
    private static JsonNode seatOf(HttpClient client, FakeSeatServer server, SeatRequested e) throws Exception {
        HttpRequest list = HttpRequest.newBuilder(server.baseUri().resolve(
                "/v1/seats?workspaceId=" + e.workspaceId() + "&userId=" + e.userId())).GET().build();
        JsonNode seats = JSON.readTree(client.send(list, HttpResponse.BodyHandlers.ofString()).body()).path("seats");
        assertEquals(1, seats.size(), e.requestId());
        return seats.get(0);
    }

    private static List<SeatRequested> concat(List<SeatRequested> a, List<SeatRequested> b) {
        List<SeatRequested> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }
}
