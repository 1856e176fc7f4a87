package dev.idempotent.client;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idempotent.client.testing.FakeTime;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The protocol on a transport of the caller's: what the client hands it for each attempt, and the round-2 promises
 * (the body limit, the attempt's budget, {@code close()}) kept by the client above a transport that does nothing to
 * keep them itself. No socket: the transport is a function the test scripts.
 */
class TransportTest {

    private static final URI PAYMENTS = URI.create("http://127.0.0.1:9/v1/payments?token=t");
    private static final HttpHeaders NONE = HttpHeaders.of(Map.of(), (a, b) -> true);

    private final FakeTime time = new FakeTime();
    private final List<IdempotentClient> clients = new CopyOnWriteArrayList<>();
    private final List<Transport.Attempt> seen = new CopyOnWriteArrayList<>();
    private final List<CompletableFuture<Transport.Answer>> handed = new CopyOnWriteArrayList<>();

    @AfterEach
    void close() {
        clients.forEach(IdempotentClient::close);
    }

    /** A transport that records each attempt and answers with {@code script}; the futures it hands out are kept. */
    private Transport scripted(Function<Transport.Attempt, CompletableFuture<Transport.Answer>> script) {
        return attempt -> {
            seen.add(attempt);
            CompletableFuture<Transport.Answer> f = script.apply(attempt);
            handed.add(f);
            return f;
        };
    }

    private IdempotentClient client(IdempotentClient.Builder b) {
        IdempotentClient c = b.build();
        clients.add(c);
        return c;
    }

    private IdempotentClient.Builder builder(Transport transport) {
        return IdempotentClient.builder().transport(transport).sleeper(time).scheduler(time).clock(time)
                .jitter(() -> 0.5);
    }

    private static CompletableFuture<Transport.Answer> answer(int status, String body) {
        return CompletableFuture.completedFuture(
                new Transport.Answer(status, NONE, body.getBytes(StandardCharsets.UTF_8), false));
    }

    private static IdempotentRequest payment(String key) {
        return IdempotentRequest.post(PAYMENTS, key).json("{\"amount\":100}").header("X-Trace", "t1")
                .header("X-Trace", "t2").build();
    }

    @Test
    void eachAttemptCarriesTheRequestTheKeyAndItsLimits() {
        List<Integer> statuses = new CopyOnWriteArrayList<>(List.of(503, 201));
        IdempotentClient c = client(builder(scripted(a -> answer(statuses.remove(0), "{}")))
                .keyHeader("Cko-Idempotency-Key").attemptTimeout(Duration.ofSeconds(3)).maxBodyBytes(1000));
        IdempotentResponse r = c.send(payment("key-1"));
        assertEquals(201, r.status());
        assertEquals(2, seen.size());
        for (int i = 0; i < 2; i++) {
            Transport.Attempt a = seen.get(i);
            assertEquals("POST", a.method());
            assertEquals(PAYMENTS, a.uri());
            assertEquals(List.of("key-1"), a.headers().allValues("Cko-Idempotency-Key"));
            assertEquals(List.of("application/json"), a.headers().allValues("content-type"));
            assertEquals(List.of("t1", "t2"), a.headers().allValues("X-Trace"));
            assertEquals(Optional.empty(), a.headers().firstValue(IdempotentClient.DEFAULT_KEY_HEADER));
            assertEquals("{\"amount\":100}", new String(a.body(), StandardCharsets.UTF_8));
            assertEquals("key-1", a.key());
            assertEquals(i + 1, a.number());
            assertEquals(1000, a.maxBodyBytes());
            assertTrue(a.timeout().compareTo(Duration.ofSeconds(3)) <= 0 && !a.timeout().isZero(), a.toString());
            assertFalse(a.toString().contains("key-1") || a.toString().contains("token"), a.toString());
        }
    }

    @Test
    void aKeyInTheBodyReachesTheTransportWithoutAKeyHeader() {
        IdempotentClient c = client(builder(scripted(a -> answer(200, "{}"))).keyInBody("/idempotency_key"));
        c.send(IdempotentRequest.post(PAYMENTS, "key-1").json("{\"amount\":100}").build());
        Transport.Attempt a = seen.get(0);
        assertEquals("{\"amount\":100,\"idempotency_key\":\"key-1\"}", new String(a.body(), StandardCharsets.UTF_8));
        assertEquals(Optional.empty(), a.headers().firstValue(IdempotentClient.DEFAULT_KEY_HEADER));
    }

    @Test
    void aFailureOfTheTransportIsClassifiedAndRetriedOnBothPaths() {
        List<Integer> calls = new CopyOnWriteArrayList<>();
        Transport flaky = scripted(a -> {
            calls.add(a.number());
            return a.number() == 1 ? CompletableFuture.failedFuture(new ConnectException("refused"))
                    : answer(201, "{\"id\":\"p1\"}");
        });
        IdempotentClient c = client(builder(flaky).resourceIdPointer("/id"));
        assertEquals(Optional.of("p1"), c.send(payment("k1")).resourceId());
        IdempotentResponse async = c.sendAsync(payment("k2")).join();
        assertEquals(2, async.attempts());
        assertEquals(List.of(1, 2, 1, 2), calls);
    }

    @Test
    void aBodyOverTheLimitIsCutByTheClientWhateverTheTransportKept() {
        String big = "{\"id\":\"p1\",\"pad\":\"" + "x".repeat(200) + "\"}";
        IdempotentClient c = client(builder(scripted(a -> answer(201, big))).maxBodyBytes(16).resourceIdPointer("/id"));
        IdempotentResponse r = c.send(payment("k1"));
        assertTrue(r.bodyTruncated());
        assertEquals(16, r.body().length);
        assertEquals(Optional.empty(), r.resourceId());
    }

    @Test
    void anAttemptPastItsBudgetIsEndedAboveTheTransportAndItsFutureCancelled() {
        // A transport that never answers and cannot be interrupted: only the client's watchdog can end it.
        IdempotentClient c = client(builder(scripted(a -> new CompletableFuture<>()))
                .attemptTimeout(Duration.ofMillis(200)).maxAttempts(2));
        RetriesExhaustedException e = assertThrows(RetriesExhaustedException.class, () -> c.send(payment("k1")));
        assertEquals(2, e.attempts());
        assertEquals(2, handed.size());
        handed.forEach(f -> assertTrue(f.isCancelled()));
    }

    @Test
    void anAsyncAttemptPastItsBudgetIsEndedToo() throws Exception {
        IdempotentClient c = client(builder(scripted(a -> new CompletableFuture<>()))
                .attemptTimeout(Duration.ofMillis(200)).maxAttempts(1));
        ExecutionException e = assertThrows(ExecutionException.class,
                () -> c.sendAsync(payment("k1")).get(10, TimeUnit.SECONDS));
        assertInstanceOf(RetriesExhaustedException.class, e.getCause());
        // The watchdog fails the attempt, then cancels the exchange: the call may end between the two.
        assertTrue(cancelledWithin(handed.get(0), Duration.ofSeconds(5)));
    }

    @Test
    void closeEndsABlockingCallOnAHungTransportAndCancelsItsExchange() throws Exception {
        CountDownLatch sent = new CountDownLatch(1);
        IdempotentClient c = client(builder(scripted(a -> {
            sent.countDown();
            return new CompletableFuture<>();
        })).attemptTimeout(Duration.ofSeconds(30)).callTimeout(Duration.ofSeconds(60)));
        CompletableFuture<Throwable> thrown = CompletableFuture.supplyAsync(() -> {
            try {
                c.send(payment("k1"));
                return null;
            } catch (RuntimeException failure) {
                return failure;
            }
        });
        assertTrue(sent.await(10, TimeUnit.SECONDS));
        c.close();
        assertInstanceOf(IllegalStateException.class, thrown.get(5, TimeUnit.SECONDS));
        assertTrue(cancelledWithin(handed.get(0), Duration.ofSeconds(5)));
    }

    @Test
    void cancellingAnAsyncCallCancelsTheTransportsExchange() throws Exception {
        IdempotentClient c = client(builder(scripted(a -> new CompletableFuture<>())));
        CompletableFuture<IdempotentResponse> call = c.sendAsync(payment("k1"));
        call.cancel(true);
        assertTrue(handed.get(0).isCancelled());
    }

    @Test
    void theBuilderRefusesWhatOnlyTheJdkClientCanDoNamingTheSetting() {
        Transport t = scripted(a -> answer(200, "{}"));
        IllegalArgumentException both = assertThrows(IllegalArgumentException.class,
                () -> IdempotentClient.builder().transport(t).httpClient(HttpClient.newHttpClient()).build());
        assertTrue(both.getMessage().contains("httpClient") && both.getMessage().contains("transport"));
        IllegalArgumentException customizer = assertThrows(IllegalArgumentException.class,
                () -> IdempotentClient.builder().transport(t).requestCustomizer((h, k, n) -> { }).build());
        assertTrue(customizer.getMessage().contains("requestCustomizer"), customizer.getMessage());
        IllegalArgumentException connect = assertThrows(IllegalArgumentException.class,
                () -> IdempotentClient.builder().transport(t).connectTimeout(Duration.ofSeconds(1)).build());
        assertTrue(connect.getMessage().contains("connectTimeout"), connect.getMessage());
        // Each alone is fine.
        IdempotentClient.builder().transport(t).build().close();
        IdempotentClient.builder().connectTimeout(Duration.ofSeconds(1)).requestCustomizer((h, k, n) -> { })
                .build().close();
    }

    @Test
    void answerReadKeepsAtMostTheLimitAndSaysWhetherMoreCame() throws IOException {
        byte[] ten = "0123456789".getBytes(StandardCharsets.US_ASCII);
        Transport.Answer exact = Transport.Answer.read(200, NONE, new ByteArrayInputStream(ten), 10);
        assertArrayEquals(ten, exact.body());
        assertFalse(exact.truncated());
        Transport.Answer under = Transport.Answer.read(200, NONE, new ByteArrayInputStream(ten), 11);
        assertArrayEquals(ten, under.body());
        assertFalse(under.truncated());
        CountingStream endless = new CountingStream();
        Transport.Answer cut = Transport.Answer.read(200, NONE, endless, 20_000);
        assertEquals(20_000, cut.body().length);
        assertTrue(cut.truncated());
        assertEquals(20_001, endless.read, "one byte past the limit is read, no more");
        assertEquals(0, Transport.Answer.read(204, NONE, InputStream.nullInputStream(), 5).body().length);
    }

    private static boolean cancelledWithin(CompletableFuture<?> f, Duration limit) throws InterruptedException {
        long end = System.nanoTime() + limit.toNanos();
        while (!f.isCancelled() && System.nanoTime() < end) {
            Thread.sleep(5);
        }
        return f.isCancelled();
    }

    /** An endless body that counts what was read. */
    private static final class CountingStream extends InputStream {
        long read;

        @Override
        public int read() {
            read++;
            return 'x';
        }

        @Override
        public int read(byte[] b, int off, int len) {
            int n = Math.min(len, 1000);
            for (int i = 0; i < n; i++) {
                b[off + i] = 'x';
            }
            read += n;
            return n;
        }
    }
}
