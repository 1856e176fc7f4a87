package dev.idempotent.seatgrant.server.consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idempotent.seatgrant.server.FakeSeatServer;
import dev.idempotent.seatgrant.server.FaultPlan;
import dev.idempotent.seatgrant.server.JournalEntry;
import dev.idempotent.seatgrant.server.Ledger;
import dev.idempotent.seatgrant.server.ServerConfig;
import dev.idempotent.seatgrant.worker.GrantListener;
import dev.idempotent.seatgrant.worker.GrantOutcome;
import dev.idempotent.seatgrant.worker.SeatGrantConfig;
import dev.idempotent.seatgrant.worker.SeatGrantWorker;
import dev.idempotent.seatgrant.worker.SeatRequested;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The worker as a service uses it: from another module, through the public API only, against the real fake server
 * under the {@code incident} scenario (every first POST is committed, then answered 504 after 1.5 s). The service
 * brings its own {@link HttpClient}, adds a rotating {@code Authorization} header, counts outcomes through a
 * listener, bounds synchronous calls by a message's deadline, runs some grants asynchronously, and closes the
 * worker. A recording proxy in front of the server sees what went over the wire.
 */
class ServiceConsumerTest {

    @Test
    void oneSeatPerRequestIdAndTheAuthorizationHeaderOnEveryAttempt() throws Exception {
        ExecutorService serviceThreads = Executors.newFixedThreadPool(2);
        try (FakeSeatServer server = FakeSeatServer.start(ServerConfig.builder()
                .faultPlan(FaultPlan.scenario("incident")).build());
                RecordingProxy proxy = new RecordingProxy(server.baseUri())) {

            // The service's client: its executor, HTTP/1.1, and no redirects (the worker refuses any other).
            HttpClient client = HttpClient.newBuilder()
                    .version(HttpClient.Version.HTTP_1_1)
                    .followRedirects(HttpClient.Redirect.NEVER)
                    .connectTimeout(Duration.ofSeconds(2))
                    .executor(serviceThreads)
                    .build();
            // A token that rotates on every read, as a short-lived credential would: it proves the customizer runs
            // per attempt, not once per worker.
            AtomicInteger tokenReads = new AtomicInteger();
            Consumer<HttpRequest.Builder> auth = request ->
                    request.header("Authorization", "Bearer svc-token-" + tokenReads.incrementAndGet());
            Map<String, List<GrantListener.Outcome>> attempts = new LinkedHashMap<>();
            List<GrantListener.OutcomeEvent> outcomes = new CopyOnWriteArrayList<>();
            GrantListener metrics = new GrantListener() {
                @Override
                public void onAttempt(GrantListener.AttemptEvent attempt) {
                    synchronized (attempts) {
                        attempts.computeIfAbsent(attempt.requestId(), k -> new ArrayList<>()).add(attempt.outcome());
                    }
                }

                @Override
                public void onOutcome(GrantListener.OutcomeEvent outcome) {
                    outcomes.add(outcome);
                }
            };
            SeatGrantConfig config = SeatGrantConfig.builder(proxy.baseUri())
                    .httpClient(client)
                    .requestCustomizer(auth)
                    .listener(metrics)
                    .build();

            List<SeatRequested> viaAsync = List.of(event(1), event(2), event(3));
            List<SeatRequested> viaHandle = List.of(event(4), event(5));
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

            // The listener heard the same story: a retry on the 504, then the replay; one outcome per grant.
            assertEquals(requestIds, attempts.keySet());
            attempts.values().forEach(a -> assertEquals(
                    List.of(GrantListener.Outcome.RETRY, GrantListener.Outcome.REPLAYED), a));
            assertEquals(5, outcomes.size());
            outcomes.forEach(o -> assertEquals(GrantListener.Outcome.REPLAYED, o.outcome()));

            // The worker closed, the service's client did not: it still sends.
            HttpRequest health = HttpRequest.newBuilder(server.baseUri().resolve("/v1/seats?workspaceId=ws_consumer"))
                    .GET().build();
            assertEquals(200, client.send(health, HttpResponse.BodyHandlers.ofString()).statusCode());
        } finally {
            serviceThreads.shutdownNow();
        }
    }

    private static SeatRequested event(int n) {
        return new SeatRequested("consumer-req-" + n, "ws_consumer", "user_" + n);
    }
}
