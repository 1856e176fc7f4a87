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
 * that answers every POST with a {@code 201} and an id. The two loops take turns in blocks of a hundred calls
 * (bare, client, client, bare, ...) on one connection pool, for several rounds; each loop reports calls per second
 * and bytes allocated per call (all threads of the JVM, server included, so the difference between the loops is
 * what the client adds). Not a test: a number measured once and
 * written down in docs/benchmarks.md. Run with {@code ./mvnw -B -q -o -Pbench -pl idempotent-client/core verify -DskipTests}.
 *
 * <p>Settings: {@code -Dbench.seconds} per round (default 5), {@code -Dbench.rounds} (default 5),
 * {@code -Dbench.warmup} seconds per loop before the first round (default 10), {@code -Dbench.block} calls per turn
 * (default 100), {@code -Dbench.logEvents=false} to
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
        int block = Integer.getInteger("bench.block", 100);
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
        long n = 0;
        for (int i = 0; i < rounds; i++) {
            // Within a round the loops take turns in short blocks, in the order bare, client, client, bare: the
            // machine's speed drifts over seconds (loopback rates here swing by half within a minute), and a drift
            // slower than a block falls on both loops alike instead of on whichever ran during it.
            // Per loop: nanoseconds, bytes allocated, calls, CPU nanoseconds of the whole process.
            double[] b = new double[4];
            double[] k = new double[4];
            long end = System.nanoTime() + Duration.ofSeconds(seconds).toNanos();
            for (int turn = 0; System.nanoTime() < end; turn++) {
                boolean bareFirst = turn % 2 == 0;
                n = block(bareFirst ? bare : keyed, bareFirst ? b : k, block, n);
                n = block(bareFirst ? keyed : bare, bareFirst ? k : b, block, n);
            }
            bareRounds.add(b);
            keyedRounds.add(k);
            System.out.printf(Locale.ROOT, "round %d: bare %.0f calls/s %.0f B/call; idempotent-client %.0f calls/s"
                    + " %.0f B/call; ratio %.3f%n", i + 1, rate(b), b[1] / b[2], rate(k), k[1] / k[2],
                    rate(k) / rate(b));
        }
        double[] b = pooled(bareRounds);
        double[] k = pooled(keyedRounds);
        System.out.printf(Locale.ROOT, "all rounds: bare %.0f calls/s, %.0f B/call; idempotent-client %.0f calls/s,"
                + " %.0f B/call; ratio %.3f; client adds %.0f B/call (%.1f us/call); median round ratio %.3f%n",
                rate(b), b[1] / b[2], rate(k), k[1] / k[2], rate(k) / rate(b), k[1] / k[2] - b[1] / b[2],
                (1e6 / rate(k)) - (1e6 / rate(b)), medianRatio(keyedRounds, bareRounds));
        System.out.printf(Locale.ROOT, "process CPU per call: bare %.1f us, idempotent-client %.1f us%n",
                b[3] / b[2] / 1e3, k[3] / k[2] / 1e3);
        System.out.printf(Locale.ROOT, "java %s on %s, %d cpus; log events %s%n", System.getProperty("java.version"),
                System.getProperty("os.arch"), Runtime.getRuntime().availableProcessors(), logEvents ? "on" : "off");
        client.close();
        server.stop(0);
        System.exit(0);
    }

    /** Calls the loop for {@code length}, to warm it up. */
    private static void run(Loop loop, Duration length) throws Exception {
        long end = System.nanoTime() + length.toNanos();
        for (long n = 0; System.nanoTime() < end; n++) {
            loop.call(n);
        }
    }

    /**
     * Calls the loop {@code calls} times and adds to {@code sum} the nanoseconds taken, the bytes allocated (all
     * threads) and the calls made; returns the next call number.
     */
    private static long block(Loop loop, double[] sum, int calls, long n) throws Exception {
        long allocatedBefore = allocated();
        long cpuBefore = PROCESS.getProcessCpuTime();
        long start = System.nanoTime();
        for (int i = 0; i < calls; i++) {
            loop.call(n++);
        }
        sum[0] += System.nanoTime() - start;
        sum[3] += PROCESS.getProcessCpuTime() - cpuBefore;
        sum[1] += allocated() - allocatedBefore;
        sum[2] += calls;
        return n;
    }

    private static final com.sun.management.OperatingSystemMXBean PROCESS =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

    private static long allocated() {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long sum = 0;
        for (long a : threads.getThreadAllocatedBytes(threads.getAllThreadIds())) {
            sum += Math.max(a, 0);
        }
        return sum;
    }

    private static double rate(double[] sum) {
        return sum[2] * 1e9 / sum[0];
    }

    /** Nanoseconds, bytes, calls and CPU nanoseconds over every round together. */
    private static double[] pooled(List<double[]> rounds) {
        double[] all = new double[4];
        for (double[] r : rounds) {
            for (int i = 0; i < all.length; i++) {
                all[i] += r[i];
            }
        }
        return all;
    }

    /** The median of the rounds' client-over-bare ratios. */
    private static double medianRatio(List<double[]> keyed, List<double[]> bare) {
        List<Double> ratios = new ArrayList<>();
        for (int i = 0; i < keyed.size(); i++) {
            ratios.add(rate(keyed.get(i)) / rate(bare.get(i)));
        }
        ratios.sort(null);
        return ratios.get(ratios.size() / 2);
    }
}
