package com.example.orders;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A provider's orders API on the JDK's HTTP server, keyed the way one provider keys requests: which header holds the
 * key, whether it must be an RFC 8941 sf-string (the IETF draft) or is taken as it is (Stripe, PayPal), and how a
 * replay is marked. It keeps each key's body and answer, so a resend is answered from the store: a key reused with
 * another body is a 422, a key whose first request is still running is a 409 with Retry-After.
 */
final class OrdersApi implements AutoCloseable {

    enum Style {
        /** Bare key in Idempotency-Key; a replay is the stored answer, 200, marked Idempotent-Replayed: true. */
        STRIPE,
        /** Bare key in PayPal-Request-Id; a replay is the stored answer as it was. */
        PAYPAL,
        /** The draft: Idempotency-Key must be an sf-string (a bare key is a 400); a replay is the stored answer. */
        DRAFT,
        /** Every request is a 503: the provider is down. */
        OUTAGE
    }

    private record Stored(String body, int status, String answer) {
    }

    private final Style style;
    private final HttpServer server;
    private final ExecutorService executor = Executors.newCachedThreadPool();
    private final Map<String, Stored> done = new ConcurrentHashMap<>();
    private final Map<String, String> running = new ConcurrentHashMap<>();
    private final AtomicInteger orders = new AtomicInteger();
    private final List<String> keysSeen = new CopyOnWriteArrayList<>();
    private final AtomicInteger conflicts = new AtomicInteger();
    private final AtomicBoolean holdNext = new AtomicBoolean();
    private final CountDownLatch release = new CountDownLatch(1);
    private final CountDownLatch firstArrived = new CountDownLatch(1);
    private volatile boolean failFirstAfterCommit;

    OrdersApi(Style style) {
        this.style = style;
        try {
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        server.setExecutor(executor);
        server.createContext("/orders", this::handle);
        server.start();
    }

    URI uri() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    /** Holds the first request until {@link #releaseFirst()}, at most 30 s: an order that takes a while. */
    OrdersApi holdingFirst() {
        holdNext.set(true);
        return this;
    }

    /** Commits the first order, then answers it with a 500: the answer a retry must not turn into a second order. */
    OrdersApi failingFirstAfterCommit() {
        failFirstAfterCommit = true;
        return this;
    }

    void awaitFirstArrival() throws InterruptedException {
        if (!firstArrived.await(30, TimeUnit.SECONDS)) {
            throw new AssertionError("no request arrived within 30 s");
        }
    }

    void releaseFirst() {
        release.countDown();
    }

    int orders() {
        return orders.get();
    }

    int conflicts() {
        return conflicts.get();
    }

    /** The key header of every request, as it arrived. */
    List<String> keysSeen() {
        return List.copyOf(keysSeen);
    }

    private void handle(HttpExchange x) throws IOException {
        String body = new String(x.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
        String header = x.getRequestHeaders().getFirst(style == Style.PAYPAL ? "PayPal-Request-Id" : "Idempotency-Key");
        keysSeen.add(String.valueOf(header));
        if (style == Style.OUTAGE) {
            answer(x, 503, "application/problem+json", "{\"title\":\"down\"}", "Retry-After", "0");
            return;
        }
        String key = header == null ? null : style == Style.DRAFT ? sfString(header) : header;
        if (key == null) {
            answer(x, 400, "application/problem+json", "{\"title\":\"a valid idempotency key is required\"}");
            return;
        }
        Stored earlier = done.get(key);
        if (earlier != null) {
            if (!earlier.body().equals(body)) {
                answer(x, 422, "application/problem+json", "{\"title\":\"key reused with another body\"}");
            } else if (style == Style.STRIPE) {
                answer(x, 200, "application/json", earlier.answer(), "Idempotent-Replayed", "true");
            } else {
                answer(x, earlier.status(), "application/json", earlier.answer());
            }
            return;
        }
        if (running.putIfAbsent(key, body) != null) {
            conflicts.incrementAndGet();
            answer(x, 409, "application/problem+json", "{\"title\":\"a request with this key is in progress\"}",
                    "Retry-After", "1");
            return;
        }
        try {
            firstArrived.countDown();
            if (holdNext.compareAndSet(true, false)) {
                release.await(30, TimeUnit.SECONDS);
            }
            String order = "{\"id\":\"ord_" + orders.incrementAndGet() + "\"}";
            done.put(key, new Stored(body, 201, order));
            if (failFirstAfterCommit) {
                failFirstAfterCommit = false;
                answer(x, 500, "application/problem+json", "{\"title\":\"the answer was lost\"}");
                return;
            }
            answer(x, 201, "application/json", order);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            running.remove(key);
        }
    }

    /** The key an RFC 8941 sf-string carries, or null when the header is not one (parameters after it ignored). */
    private static String sfString(String header) {
        String v = header.strip();
        if (!v.startsWith("\"")) {
            return null;
        }
        StringBuilder out = new StringBuilder();
        for (int i = 1; i < v.length(); i++) {
            char c = v.charAt(i);
            if (c == '\\') {
                if (++i == v.length() || (v.charAt(i) != '"' && v.charAt(i) != '\\')) {
                    return null;
                }
                out.append(v.charAt(i));
            } else if (c == '"') {
                String rest = v.substring(i + 1);
                return rest.isEmpty() || rest.startsWith(";") ? out.toString() : null;
            } else if (c < 0x20 || c > 0x7E) {
                return null;
            } else {
                out.append(c);
            }
        }
        return null;
    }

    private static void answer(HttpExchange x, int status, String type, String body, String... headers)
            throws IOException {
        x.getResponseHeaders().set("Content-Type", type);
        for (int i = 0; i < headers.length; i += 2) {
            x.getResponseHeaders().set(headers[i], headers[i + 1]);
        }
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        x.sendResponseHeaders(status, bytes.length);
        x.getResponseBody().write(bytes);
        x.close();
    }

    @Override
    public void close() {
        release.countDown();
        server.stop(0);
        executor.shutdownNow();
    }
}
