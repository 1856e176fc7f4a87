package dev.idempotent.client.testing;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * A JDK HTTP server on loopback that answers each request from a script and records the key header of each; it can
 * hold a request until released (bounded), to show what the client does while an attempt is in flight.
 */
public final class ScriptedServer implements AutoCloseable {

    /** One scripted answer. */
    public record Answer(int status, String body, String... headers) {
    }

    private final HttpServer server;
    private final ExecutorService executor = Executors.newCachedThreadPool();
    private final List<String> keys = new ArrayList<>();
    private volatile CountDownLatch release = new CountDownLatch(1);
    private int arrivals;
    private volatile boolean hold;
    private final Function<Integer, Answer> script;

    /** A server answering request {@code n} (from 1) with {@code script.apply(n)}. */
    public ScriptedServer(Function<Integer, Answer> script) {
        this.script = script;
        try {
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        server.setExecutor(executor);
        server.createContext("/", this::handle);
        server.start();
    }

    /** Holds every request from now until the next {@link #release()} (at most 30 s); may be called again after it. */
    public ScriptedServer holding() {
        release = new CountDownLatch(1);
        hold = true;
        return this;
    }

    public URI uri(String path) {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + path);
    }

    /** Waits (at most 30 s) until a request has arrived. */
    public void awaitArrival() throws InterruptedException {
        awaitArrivals(1);
    }

    /** Waits (at most 30 s) until {@code n} requests have arrived. */
    public synchronized void awaitArrivals(int n) throws InterruptedException {
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (arrivals < n) {
            long left = until - System.nanoTime();
            if (left <= 0) {
                throw new AssertionError(arrivals + " of " + n + " requests arrived within 30 s");
            }
            TimeUnit.NANOSECONDS.timedWait(this, left);
        }
    }

    public void release() {
        release.countDown();
    }

    public synchronized List<String> keys() {
        return List.copyOf(keys);
    }

    private void handle(HttpExchange exchange) throws IOException {
        int n;
        synchronized (this) {
            keys.add(exchange.getRequestHeaders().getFirst("Idempotency-Key"));
            n = keys.size();
        }
        exchange.getRequestBody().readAllBytes();
        synchronized (this) {
            arrivals++;
            notifyAll();
        }
        if (hold) {
            try {
                release.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        Answer a = script.apply(n);
        for (int i = 0; i < a.headers().length; i += 2) {
            exchange.getResponseHeaders().add(a.headers()[i], a.headers()[i + 1]);
        }
        byte[] body = a.body().getBytes(StandardCharsets.UTF_8);
        exchange.sendResponseHeaders(a.status(), body.length == 0 ? -1 : body.length);
        if (body.length > 0) {
            exchange.getResponseBody().write(body);
        }
        exchange.close();
    }

    @Override
    public void close() {
        release.countDown();
        server.stop(0);
        executor.shutdownNow();
    }
}
