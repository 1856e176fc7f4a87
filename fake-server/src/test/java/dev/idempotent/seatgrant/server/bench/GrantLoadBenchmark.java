package dev.idempotent.seatgrant.server.bench;

import dev.idempotent.seatgrant.server.FakeSeatServer;
import dev.idempotent.seatgrant.server.ServerConfig;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A load generator on loopback: how many grants per second the fake server takes, and what the idempotency key
 * costs. Not a test; run it with {@code ./mvnw -B -q -Pbench -pl fake-server -am verify -DskipTests}. Results and
 * how to read them: {@code docs/benchmarks.md}.
 *
 * <p>For each store (in-memory H2, the default H2 file) it measures three request shapes, after a warm-up, in
 * interleaved rounds:
 * a keyless POST (one insert), a POST with a fresh key (claim, insert, complete in one transaction), and a replay
 * of a completed key (one read, answered 409). Every run is bounded in requests and time and talks only to
 * 127.0.0.1.
 */
public final class GrantLoadBenchmark {

    private static final int CLIENTS = 16;
    private static final int WARMUP_REQUESTS = 2_000;
    private static final int MEASURED_REQUESTS = 10_000;
    private static final int ROUNDS = 3;
    private static final Duration RUN_LIMIT = Duration.ofMinutes(2);

    private enum Shape { KEYLESS, FRESH_KEY, REPLAY }

    private record Result(String store, Shape shape, int requests, double seconds, long[] micros, int errors) {
        double perSecond() {
            return requests / seconds;
        }

        long percentile(double p) {
            return micros[Math.min(micros.length - 1, (int) Math.ceil(p * micros.length) - 1)];
        }
    }

    private GrantLoadBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        Path dir = Files.createTempDirectory("grant-bench");
        List<Result> results = new ArrayList<>();
        for (String store : List.of("mem", dir.resolve("seats").toString())) {
            String label = store.equals("mem") ? "H2 in memory" : "H2 file";
            try (FakeSeatServer server = FakeSeatServer.start(ServerConfig.builder().port(0).db(store).build())) {
                for (Shape shape : Shape.values()) {
                    run(server.baseUri(), shape, WARMUP_REQUESTS, "warm-" + shape);
                }
                // Rounds interleave the shapes so JIT and store growth do not favour whichever runs last;
                // each row reports its median round.
                List<List<Measured>> rounds = new ArrayList<>();
                for (Shape shape : Shape.values()) {
                    rounds.add(new ArrayList<>());
                }
                for (int round = 0; round < ROUNDS; round++) {
                    for (Shape shape : Shape.values()) {
                        rounds.get(shape.ordinal()).add(
                                run(server.baseUri(), shape, MEASURED_REQUESTS, "run" + round + "-" + shape));
                    }
                }
                for (Shape shape : Shape.values()) {
                    List<Measured> byTime = new ArrayList<>(rounds.get(shape.ordinal()));
                    byTime.sort(java.util.Comparator.comparingDouble(Measured::seconds));
                    Measured m = byTime.get(byTime.size() / 2);
                    results.add(new Result(label, shape, MEASURED_REQUESTS, m.seconds(), m.micros(), m.errors()));
                }
            }
        }
        deleteTree(dir);
        System.out.printf(Locale.ROOT, "java %s, %d cores, %d clients, %d requests per round, median of %d rounds%n%n",
                System.getProperty("java.version"), Runtime.getRuntime().availableProcessors(), CLIENTS,
                MEASURED_REQUESTS, ROUNDS);
        System.out.println("| store | request | grants/s | p50 ms | p99 ms | max ms | errors |");
        System.out.println("| --- | --- | ---: | ---: | ---: | ---: | ---: |");
        for (Result r : results) {
            System.out.printf(Locale.ROOT, "| %s | %s | %.0f | %.2f | %.2f | %.2f | %d |%n", r.store(),
                    r.shape().name().toLowerCase(Locale.ROOT).replace('_', ' '), r.perSecond(),
                    r.percentile(0.50) / 1000.0, r.percentile(0.99) / 1000.0, r.micros()[r.micros().length - 1] / 1000.0,
                    r.errors());
        }
    }

    /** One timed batch: {@code requests} POSTs from {@link #CLIENTS} threads, each reusing its connection. */
    private static Measured run(URI base, Shape shape, int requests, String prefix) throws Exception {
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        URI seats = base.resolve("/v1/seats");
        if (shape == Shape.REPLAY) {
            send(http, seats, prefix + "-replayed", 0);
        }
        long[] micros = new long[requests];
        AtomicInteger next = new AtomicInteger();
        AtomicInteger errors = new AtomicInteger();
        ExecutorService clients = Executors.newFixedThreadPool(CLIENTS);
        long started = System.nanoTime();
        List<Future<?>> running = new ArrayList<>();
        for (int c = 0; c < CLIENTS; c++) {
            running.add(clients.submit(() -> {
                for (int i = next.getAndIncrement(); i < requests; i = next.getAndIncrement()) {
                    String key = switch (shape) {
                        case KEYLESS -> null;
                        case FRESH_KEY -> prefix + "-" + i;
                        case REPLAY -> prefix + "-replayed";
                    };
                    long t0 = System.nanoTime();
                    int status;
                    try {
                        status = send(http, seats, key, shape == Shape.REPLAY ? 0 : i);
                    } catch (IOException e) {
                        status = -1;
                    }
                    micros[i] = (System.nanoTime() - t0) / 1_000;
                    int expected = shape == Shape.REPLAY ? 409 : 201;
                    if (status != expected) {
                        errors.incrementAndGet();
                    }
                }
                return null;
            }));
        }
        for (Future<?> f : running) {
            f.get(RUN_LIMIT.toSeconds(), TimeUnit.SECONDS);
        }
        double seconds = (System.nanoTime() - started) / 1e9;
        clients.shutdown();
        Arrays.sort(micros);
        return new Measured(seconds, micros, errors.get());
    }

    private static int send(HttpClient http, URI seats, String key, int user) throws IOException {
        String body = "{\"workspaceId\":\"ws_bench\",\"userId\":\"user_" + user + "\",\"role\":\"member\"}";
        HttpRequest.Builder request = HttpRequest.newBuilder(seats)
                .timeout(Duration.ofSeconds(10))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (key != null) {
            request.header("Idempotency-Key", key);
        }
        try {
            return http.send(request.build(), HttpResponse.BodyHandlers.discarding()).statusCode();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted");
        }
    }

    private static void deleteTree(Path dir) throws IOException {
        try (var paths = Files.walk(dir)) {
            for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }

    private record Measured(double seconds, long[] micros, int errors) { }
}
