package dev.idempotent.seatgrant.server.bench;

import dev.idempotent.seatgrant.server.JavaProcess;
import dev.idempotent.seatgrant.server.Pipelined;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What reading the journal costs everybody else (issue 20 item 2): the fake server as a user starts it
 * ({@code serve} on an H2 file, no heap flag, so its own 256 MB heap), a journal filled to its default 100,000
 * entries of the usual size, then {@link LoadGenerator} in its own process sending grants on
 * {@code bench.connections} connections for {@code bench.seconds}, three ways: with nobody reading the journal,
 * while one client reads the whole journal ({@code GET /__admin/requests}) back to back, and while one client
 * follows it page by page as the incident page does ({@code ?after=SEQ&limit=2000}, then {@code next}). It prints
 * the grants' p50 and p99 for each, the median of {@code bench.rounds} rounds, and how long a whole read took.
 *
 * <p>Not a test: {@code ./mvnw -B -q -Pjournal-read -pl fake-server -am verify -DskipTests} (settings through
 * {@code -Djournal.args="-Dbench.rounds=5"}). Everything binds 127.0.0.1, and every process it starts is
 * stopped when it ends. Results are in {@code docs/benchmarks.md}.
 */
public final class JournalReadBenchmark {

    private static final Pattern RESULT = Pattern.compile(
            "BENCH requests=(\\d+) duration_us=(\\d+) errors=(\\d+) p50_us=(\\d+) p99_us=(\\d+)");
    private static final int ENTRIES = 100_000;

    private final int seconds = Integer.getInteger("bench.seconds", 10);
    private final int rounds = Integer.getInteger("bench.rounds", 3);
    private final int connections = Integer.getInteger("bench.connections", 8);
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10)).build();

    /** One load run: the grants' latency, and what the reader managed meanwhile. */
    private record Run(long requests, long errors, long p50us, long p99us, int reads, long slowestReadMs, long bytes) { }

    private enum Reader { NONE, WHOLE, PAGES }

    private JournalReadBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        new JournalReadBenchmark().run();
    }

    private void run() throws Exception {
        Path dir = Files.createTempDirectory("journal-read-bench");
        System.out.printf(Locale.ROOT, "journal-read: java %s, %d cores, %d rounds of %d s, %d grant connections%n",
                System.getProperty("java.version"), Runtime.getRuntime().availableProcessors(), rounds, seconds,
                connections);
        try (JavaProcess.Server server = JavaProcess.startServer("--db", dir.resolve("seats").toString())) {
            fill(server.base());
            Map<Reader, List<Run>> runs = new java.util.EnumMap<>(Reader.class);
            for (int round = 0; round < rounds; round++) {
                for (Reader reader : Reader.values()) {
                    Run run = load(server.base(), reader, "r" + round + "-" + reader);
                    runs.computeIfAbsent(reader, r -> new ArrayList<>()).add(run);
                    System.out.printf(Locale.ROOT, "  round %d %-5s grants %6d errors %d p50 %6.1f ms p99 %7.1f ms"
                                    + "  reads %3d slowest %6d ms %,d bytes%n", round + 1, reader, run.requests(),
                            run.errors(), run.p50us() / 1e3, run.p99us() / 1e3, run.reads(), run.slowestReadMs(),
                            run.bytes());
                }
            }
            System.out.println();
            System.out.println("| reader | grants/s | p50 | p99 | whole reads or page sweeps | slowest |");
            System.out.println("| --- | --- | --- | --- | --- | --- |");
            for (Reader reader : Reader.values()) {
                Run m = median(runs.get(reader));
                System.out.printf(Locale.ROOT, "| %s | %,.0f | %.1f ms | %.1f ms | %d | %s |%n", describe(reader),
                        (double) m.requests() / seconds, m.p50us() / 1e3, m.p99us() / 1e3, m.reads(),
                        reader == Reader.NONE ? "" : m.slowestReadMs() + " ms");
            }
            assertServing(server.base());
        } finally {
            deleteQuietly(dir);
        }
    }

    private static String describe(Reader reader) {
        return switch (reader) {
            case NONE -> "nobody reads the journal";
            case WHOLE -> "one client reads the whole journal, back to back";
            case PAGES -> "one client follows it in pages of 2,000";
        };
    }

    /** 100,000 entries of the usual size: keyed grants with ids, answered 503 by a fault before the store. */
    private void fill(URI base) throws Exception {
        send(base, "POST", "/__admin/faults",
                "{\"rules\":[{\"method\":\"POST\",\"path\":\"/v1/seats\",\"fault\":\"status\",\"status\":503}]}");
        long started = System.nanoTime();
        Map<Integer, Long> filled = Pipelined.send(base, 4, ENTRIES, i -> {
            String id = String.format(Locale.ROOT, "0193a6c4-8f1e-7d2a-9b3c-%012d", i);
            String body = "{\"workspaceId\":\"ws_" + id + "\",\"userId\":\"user_" + id + "\",\"role\":\"member\"}";
            return ("POST /v1/seats HTTP/1.1\r\nHost: " + base.getAuthority() + "\r\nContent-Type: application/json\r\n"
                    + "Idempotency-Key: " + id + "\r\nContent-Length: " + body.length() + "\r\n\r\n" + body)
                    .getBytes(StandardCharsets.ISO_8859_1);
        }, 60_000);
        send(base, "DELETE", "/__admin/faults", null);
        System.out.printf(Locale.ROOT, "filled the journal with %s in %.1f s%n", filled,
                (System.nanoTime() - started) / 1e9);
    }

    private Run load(URI base, Reader reader, String prefix) throws Exception {
        List<String> command = List.of(ProcessHandle.current().info().command().orElse("java"), "-cp",
                System.getProperty("java.class.path"), LoadGenerator.class.getName(), base.getHost(),
                String.valueOf(base.getPort()), String.valueOf(seconds), String.valueOf(connections), prefix, "time");
        Process generator = new ProcessBuilder(command).redirectErrorStream(true).start();
        AtomicBoolean running = new AtomicBoolean(true);
        CompletableFuture<long[]> reading = CompletableFuture.supplyAsync(() -> read(base, reader, running));
        String out;
        try {
            out = new String(generator.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!generator.waitFor(seconds + 60L, TimeUnit.SECONDS)) {
                throw new IllegalStateException("the load generator did not finish");
            }
        } finally {
            running.set(false);
            generator.destroyForcibly();
        }
        long[] read = reading.get(5, TimeUnit.MINUTES);
        Matcher m = RESULT.matcher(out);
        if (!m.find()) {
            throw new IllegalStateException("the load generator printed no result:\n" + out);
        }
        return new Run(Long.parseLong(m.group(1)), Long.parseLong(m.group(3)), Long.parseLong(m.group(4)),
                Long.parseLong(m.group(5)), (int) read[0], read[1], read[2]);
    }

    /** Reads as {@code reader} says until told to stop; returns reads done, the slowest in ms, and bytes read. */
    private long[] read(URI base, Reader reader, AtomicBoolean running) {
        long reads = 0;
        long slowest = 0;
        long bytes = 0;
        try {
            while (running.get() && reader != Reader.NONE) {
                long started = System.nanoTime();
                if (reader == Reader.WHOLE) {
                    bytes += drain(base, "/__admin/requests");
                } else {
                    long after = 0;
                    while (true) {
                        HttpResponse<String> page = http.send(HttpRequest.newBuilder(
                                base.resolve("/__admin/requests?after=" + after + "&limit=2000"))
                                .timeout(Duration.ofMinutes(2)).build(), HttpResponse.BodyHandlers.ofString());
                        bytes += page.body().length();
                        Matcher next = Pattern.compile("\"next\":(\\d+)}$").matcher(page.body());
                        if (page.statusCode() != 200 || !next.find()) {
                            break;
                        }
                        after = Long.parseLong(next.group(1));
                    }
                }
                reads++;
                slowest = Math.max(slowest, (System.nanoTime() - started) / 1_000_000);
            }
        } catch (IOException e) {
            throw new IllegalStateException("the journal reader failed: " + e.getClass().getSimpleName(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return new long[] {reads, slowest, bytes};
    }

    private long drain(URI base, String path) throws IOException, InterruptedException {
        HttpResponse<InputStream> response = http.send(HttpRequest.newBuilder(base.resolve(path))
                .timeout(Duration.ofMinutes(2)).build(), HttpResponse.BodyHandlers.ofInputStream());
        long bytes = 0;
        byte[] buffer = new byte[1 << 16];
        try (InputStream in = response.body()) {
            int n;
            while ((n = in.read(buffer)) >= 0) {
                bytes += n;
            }
        }
        if (response.statusCode() != 200) {
            throw new IOException("the journal answered " + response.statusCode());
        }
        return bytes;
    }

    private void send(URI base, String method, String path, String json) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(base.resolve(path)).timeout(Duration.ofSeconds(30));
        if (json == null) {
            request.method(method, HttpRequest.BodyPublishers.noBody());
        } else {
            request.header("Content-Type", "application/json").method(method, HttpRequest.BodyPublishers.ofString(json));
        }
        HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() / 100 != 2) {
            throw new IllegalStateException(method + " " + path + " answered " + response.statusCode());
        }
    }

    private void assertServing(URI base) throws Exception {
        HttpResponse<String> health = http.send(HttpRequest.newBuilder(base.resolve("/__admin/health"))
                .timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
        System.out.println("health afterwards: " + health.statusCode());
    }

    private static Run median(List<Run> runs) {
        List<Run> byP99 = new ArrayList<>(runs);
        byP99.sort(Comparator.comparingLong(Run::p99us));
        return byP99.get(byP99.size() / 2);
    }

    private static void deleteQuietly(Path dir) {
        try (var walk = Files.walk(dir)) {
            walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException ignored) {
            // a leftover temp directory is harmless
        }
    }
}
