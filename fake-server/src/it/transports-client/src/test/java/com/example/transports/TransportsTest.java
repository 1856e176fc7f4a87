package com.example.transports;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.idempotent.client.IdempotentClient;
import dev.idempotent.client.IdempotentRequest;
import dev.idempotent.client.IdempotentResponse;
import dev.idempotent.client.RequestRejectedException;
import dev.idempotent.client.RetriesExhaustedException;
import dev.idempotent.client.okhttp.OkHttpTransport;
import dev.idempotent.client.spring.RestClientTransport;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import okhttp3.OkHttpClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.web.client.RestClient;

/**
 * The same scenarios on the JDK's HttpClient, OkHttp and RestClient, as a service would wire each: a lost answer
 * after the commit gives one resource, a 422 one attempt, an outage maxAttempts, a GiB body is cut under a 256 MiB
 * heap, close() ends a call in flight within a second, and the stack's own interceptor sees every attempt with the
 * same key.
 */
class TransportsTest {

    private static final long GIB = 1L << 30;
    private static HttpServer provider;
    private static final Map<String, String> committed = new ConcurrentHashMap<>();
    private static final AtomicInteger resources = new AtomicInteger();
    private static final Map<String, AtomicInteger> requests = new ConcurrentHashMap<>();
    private static final CountDownLatch hanging = new CountDownLatch(3);

    @BeforeAll
    static void start() throws IOException {
        provider = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        provider.setExecutor(Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "provider");
            t.setDaemon(true);
            return t;
        }));
        provider.createContext("/", TransportsTest::handle);
        provider.start();
    }

    @AfterAll
    static void stop() {
        provider.stop(0);
    }

    private static void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            exchange.getRequestBody().readAllBytes();
            String path = exchange.getRequestURI().getPath();
            String key = exchange.getRequestHeaders().getFirst("Idempotency-Key");
            requests.computeIfAbsent(path, p -> new AtomicInteger()).incrementAndGet();
            if (path.endsWith("/lost") || path.endsWith("/again")) {
                String id = committed.get(key);
                if (id == null) {
                    committed.put(key, "pay_" + resources.incrementAndGet());
                    return;   // committed, then the answer is lost: the connection closes with nothing written
                }
                answer(exchange, 201, "{\"id\":\"" + id + "\"}");
            } else if (path.endsWith("/reject")) {
                answer(exchange, 422, "{\"error\":\"key reused\"}");
            } else if (path.endsWith("/outage")) {
                answer(exchange, 503, "");
            } else if (path.endsWith("/big")) {
                exchange.sendResponseHeaders(201, GIB);
                byte[] chunk = new byte[64 * 1024];
                OutputStream out = exchange.getResponseBody();
                try {
                    for (long sent = 0; sent < GIB; sent += chunk.length) {
                        out.write(chunk);
                    }
                } catch (IOException clientLeft) {
                    // the client stopped reading at its limit
                }
            } else if (path.endsWith("/hang")) {
                hanging.countDown();
                try {
                    Thread.sleep(20_000);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }
    }

    private static void answer(HttpExchange exchange, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
        if (bytes.length > 0) {
            exchange.getResponseBody().write(bytes);
        }
    }

    /** A client on {@code stack}, its own interceptor recording the key of every attempt. */
    private static IdempotentClient client(String stack, List<String> seen,
            Function<IdempotentClient.Builder, IdempotentClient.Builder> settings) {
        IdempotentClient.Builder b = IdempotentClient.builder().resourceIdPointer("/id")
                .baseDelay(Duration.ofMillis(1)).maxDelay(Duration.ofMillis(5));
        switch (stack) {
            case "jdk":
                b.httpClient(HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER).build())
                        .requestCustomizer((request, key, attempt) -> seen.add(key));
                break;
            case "okhttp":
                b.transport(OkHttpTransport.of(new OkHttpClient.Builder()
                        .retryOnConnectionFailure(false)
                        .followRedirects(false)
                        .addInterceptor(chain -> {
                            seen.add(chain.request().header("Idempotency-Key"));
                            return chain.proceed(chain.request());
                        })
                        .build()));
                break;
            default:
                b.transport(RestClientTransport.of(RestClient.builder()
                        .requestInterceptor((request, body, execution) -> {
                            seen.add(request.getHeaders().getFirst("Idempotency-Key"));
                            return execution.execute(request, body);
                        })
                        .build()));
        }
        return settings.apply(b).build();
    }

    private static IdempotentRequest post(String stack, String path, String key) {
        URI uri = URI.create("http://127.0.0.1:" + provider.getAddress().getPort() + "/" + stack + path);
        return IdempotentRequest.post(uri, key).json("{\"amount\":100}").build();
    }

    @ParameterizedTest
    @ValueSource(strings = {"jdk", "okhttp", "restclient"})
    void aLostAnswerGivesOneResourceAndTheInterceptorSeesEveryAttemptWithTheKey(String stack) {
        List<String> seen = new CopyOnWriteArrayList<>();
        String key = "lost-" + stack;
        try (IdempotentClient c = client(stack, seen, b -> b)) {
            IdempotentResponse r = c.send(post(stack, "/lost", key));
            assertEquals(2, r.attempts());
            assertEquals(Optional.of(committed.get(key)), r.resourceId());
        }
        assertEquals(List.of(key, key), seen);
        assertEquals(2, requests.get("/" + stack + "/lost").get());
    }

    @ParameterizedTest
    @ValueSource(strings = {"jdk", "okhttp", "restclient"})
    void a422IsOneAttempt(String stack) {
        try (IdempotentClient c = client(stack, new CopyOnWriteArrayList<>(), b -> b)) {
            RequestRejectedException e = assertThrows(RequestRejectedException.class,
                    () -> c.send(post(stack, "/reject", "k")));
            assertEquals(1, e.attempts());
        }
        assertEquals(1, requests.get("/" + stack + "/reject").get());
    }

    @ParameterizedTest
    @ValueSource(strings = {"jdk", "okhttp", "restclient"})
    void anOutageUsesMaxAttempts(String stack) {
        try (IdempotentClient c = client(stack, new CopyOnWriteArrayList<>(), b -> b.maxAttempts(4))) {
            RetriesExhaustedException e = assertThrows(RetriesExhaustedException.class,
                    () -> c.send(post(stack, "/outage", "k")));
            assertEquals(4, e.attempts());
        }
        assertEquals(4, requests.get("/" + stack + "/outage").get());
    }

    @ParameterizedTest
    @ValueSource(strings = {"jdk", "okhttp", "restclient"})
    void aGibBodyIsCutUnderA256MibHeap(String stack) {
        assertTrue(Runtime.getRuntime().maxMemory() <= 300L * 1024 * 1024, "the tests run under -Xmx256m");
        try (IdempotentClient c = client(stack, new CopyOnWriteArrayList<>(), b -> b.maxBodyBytes(1 << 20)
                .attemptTimeout(Duration.ofSeconds(20)).callTimeout(Duration.ofSeconds(30)))) {
            IdempotentResponse r = c.send(post(stack, "/big", "k"));
            assertTrue(r.bodyTruncated());
            assertEquals(1 << 20, r.body().length);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"jdk", "okhttp", "restclient"})
    void closeEndsACallInFlightWithinASecond(String stack) throws Exception {
        IdempotentClient c = client(stack, new CopyOnWriteArrayList<>(), b -> b
                .attemptTimeout(Duration.ofSeconds(30)).callTimeout(Duration.ofSeconds(60)));
        int before = requests.getOrDefault("/" + stack + "/hang", new AtomicInteger()).get();
        CompletableFuture<Throwable> call = CompletableFuture.supplyAsync(() -> {
            try {
                c.send(post(stack, "/hang", "k"));
                return null;
            } catch (RuntimeException e) {
                return e;
            }
        });
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (requests.getOrDefault("/" + stack + "/hang", new AtomicInteger()).get() == before
                && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        long closing = System.nanoTime();
        c.close();
        assertInstanceOf(IllegalStateException.class, call.get(1, TimeUnit.SECONDS));
        assertTrue(System.nanoTime() - closing < TimeUnit.SECONDS.toNanos(1));
    }

    @ParameterizedTest
    @ValueSource(strings = {"jdk", "okhttp", "restclient"})
    void aSecondCallWithTheKeyIsTheSameResource(String stack) {
        String key = "again-" + stack;
        try (IdempotentClient c = client(stack, new CopyOnWriteArrayList<>(), b -> b)) {
            IdempotentResponse first = c.send(post(stack, "/again", key));
            IdempotentResponse again = c.send(post(stack, "/again", key));
            assertEquals(first.resourceId(), again.resourceId());
            assertEquals(1, again.attempts());
        }
    }
}
