package dev.idempotent.client.bench;

import com.sun.net.httpserver.HttpServer;
import dev.idempotent.client.IdempotentClient;
import dev.idempotent.client.IdempotentRequest;
import dev.idempotent.client.IdempotentResponse;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What the client costs on top of the HTTP exchange it wraps: keyed POSTs, one at a time, through
 * {@link IdempotentClient} and through the same {@link HttpClient} bare, against one JDK HTTP server on loopback
 * that answers every POST with a {@code 201} and an id. The two loops alternate for several rounds on one
 * connection pool; each reports calls per second and bytes allocated per call (all threads of the JVM, server
 * included, so the difference between the loops is what the client adds). Not a test: a number measured once and
 * written down in docs/benchmarks.md. Run with {@code ./mvnw -B -q -o -Pbench -pl idempotent-client verify -DskipTests}.
 *
 * <p>Settings: {@code -Dbench.seconds} per round (default 5), {@code -Dbench.rounds} (default 5),
 * {@code -Dbench.warmup} seconds per loop before the first round (default 10), {@code -Dbench.logEvents=false} to
 * measure the client without its two log events per call (the listener is told either way).
 */
public final class ClientBenchmark {

    private static final byte[] BODY = "{\"sku\":\"book\",\"quantity\":1}".getBytes(StandardCharsets.UTF_8);

    private ClientBenchmark() {
    }

    interface Loop {
        void call(long n) throws Exception;
    }

    public static void main(String[] args) throws Exception {
        int seconds = Integer.getInteger("bench.seconds", 5);
        int rounds = Integer.getInteger("bench.rounds", 5);
        int warmup = Integer.getInteger("bench.warmup", 10);
        boolean logEvents = Boolean.parseBoolean(System.getProperty("bench.logEvents", "true"));

        // Without it the JDK's server leaves Nagle on, and every small answer waits out a delayed ACK (about 40 ms):
        // the loop would measure TCP timers, not the client.
        System.setProperty("sun.net.httpserver.nodelay", "true");
        AtomicLong ids = new AtomicLong();
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.setExecutor(Executors.newFixedThreadPool(2));
        server.createContext("/orders", x -> {
            x.getRequestBody().readAllBytes();
            byte[] answer = ("{\"id\":\"ord_" + ids.incrementAndGet() + "\"}").getBytes(StandardCharsets.UTF_8);
            x.getResponseHeaders().set("Content-Type", "application/json");
            x.sendResponseHeaders(201, answer.length);
            x.getResponseBody().write(answer);
            x.close();
        });
        server.start();
        URI orders = URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/orders");

        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .followRedirects(HttpClient.Redirect.NEVER).connectTimeout(Duration.ofSeconds(2)).build();
        IdempotentClient client = IdempotentClient.builder().httpClient(http).resourceIdPointer("/id")
                .logEvents(logEvents).build();

        Loop bare = n -> {
            HttpResponse<byte[]> r = http.send(HttpRequest.newBuilder(orders)
                    .timeout(Duration.ofSeconds(5))
                    .header("Content-Type", "application/json")
                    .header("Idempotency-Key", "bench-" + n)
                    .POST(HttpRequest.BodyPublishers.ofByteArray(BODY)).build(), HttpResponse.BodyHandlers.ofByteArray());
            if (r.statusCode() != 201) {
                throw new IllegalStateException("status " + r.statusCode());
            }
        };
        Loop keyed = n -> {
            IdempotentResponse r = client.send(IdempotentRequest.post(orders, "bench-" + n)
                    .body("application/json", BODY).build());
            if (r.status() != 201 || r.resourceId().isEmpty()) {
                throw new IllegalStateException("status " + r.status());
            }
        };

        run(bare, Duration.ofSeconds(warmup));
        run(keyed, Duration.ofSeconds(warmup));
        List<double[]> bareRounds = new ArrayList<>();
        List<double[]> keyedRounds = new ArrayList<>();
        for (int i = 0; i < rounds; i++) {
            // Odd rounds run the bare loop first, even rounds the client first: whatever the first loop of a round
            // leaves behind (garbage, a cooled cache, a timer firing) falls on each loop equally often.
            if (i % 2 == 0) {
                bareRounds.add(run(bare, Duration.ofSeconds(seconds)));
                keyedRounds.add(run(keyed, Duration.ofSeconds(seconds)));
            } else {
                keyedRounds.add(run(keyed, Duration.ofSeconds(seconds)));
                bareRounds.add(run(bare, Duration.ofSeconds(seconds)));
            }
            System.out.printf(Locale.ROOT, "round %d: bare %.0f calls/s %.0f B/call; idempotent-client %.0f calls/s"
                    + " %.0f B/call; ratio %.3f%n", i + 1, bareRounds.get(i)[0], bareRounds.get(i)[1],
                    keyedRounds.get(i)[0], keyedRounds.get(i)[1], keyedRounds.get(i)[0] / bareRounds.get(i)[0]);
        }
        double[] b = pooled(bareRounds);
        double[] k = pooled(keyedRounds);
        System.out.printf(Locale.ROOT, "all rounds: bare %.0f calls/s, %.0f B/call; idempotent-client %.0f calls/s,"
                + " %.0f B/call; ratio %.3f; client adds %.0f B/call (%.1f us/call); median round ratio %.3f%n",
                b[0], b[1], k[0], k[1], k[0] / b[0], k[1] - b[1], (1e6 / k[0]) - (1e6 / b[0]),
                medianRatio(keyedRounds, bareRounds));
        System.out.printf(Locale.ROOT, "java %s on %s, %d cpus; log events %s%n", System.getProperty("java.version"),
                System.getProperty("os.arch"), Runtime.getRuntime().availableProcessors(), logEvents ? "on" : "off");
        client.close();
        server.stop(0);
        System.exit(0);
    }

    /**
     * Calls the loop for {@code length}; returns calls per second, bytes allocated (all threads) per call, the calls
     * made and the nanoseconds taken.
     */
    private static double[] run(Loop loop, Duration length) throws Exception {
        long start = System.nanoTime();
        long end = start + length.toNanos();
        long allocatedBefore = allocated();
        long n = 0;
        while (System.nanoTime() < end) {
            loop.call(n++);
        }
        long took = System.nanoTime() - start;
        long allocated = allocated() - allocatedBefore;
        return new double[] {n * 1e9 / took, (double) allocated / n, n, took};
    }

    private static long allocated() {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long sum = 0;
        for (long a : threads.getThreadAllocatedBytes(threads.getAllThreadIds())) {
            sum += Math.max(a, 0);
        }
        return sum;
    }

    /** Calls per second and bytes per call over every round together: total calls over total time. */
    private static double[] pooled(List<double[]> rounds) {
        double calls = 0;
        double nanos = 0;
        double bytes = 0;
        for (double[] r : rounds) {
            calls += r[2];
            nanos += r[3];
            bytes += r[1] * r[2];
        }
        return new double[] {calls * 1e9 / nanos, bytes / calls};
    }

    /** The median of the rounds' client-over-bare ratios (each round's pair ran back to back). */
    private static double medianRatio(List<double[]> keyed, List<double[]> bare) {
        List<Double> ratios = new ArrayList<>();
        for (int i = 0; i < keyed.size(); i++) {
            ratios.add(keyed.get(i)[0] / bare.get(i)[0]);
        }
        ratios.sort(null);
        return ratios.get(ratios.size() / 2);
    }
}
