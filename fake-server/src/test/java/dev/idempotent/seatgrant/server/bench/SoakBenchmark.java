package dev.idempotent.seatgrant.server.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.idempotent.seatgrant.server.Main;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;

/**
 * A soak of the fake server (issue 8): N minutes of mixed traffic against a real server process on the default
 * file store, with {@code kill -9} and a restart on the same file every {@value #KILL_EVERY_SECONDS} s.
 * Not a test; run it with {@code ./mvnw -B -q -Psoak -pl fake-server -am verify -DskipTests} ({@code
 * -Dsoak.minutes=N}, default 3). It talks only to 127.0.0.1, and stops by itself.
 *
 * <p>With {@code -Dsoak.mode=reset} (issue 20) the server is never killed; instead {@code POST /__admin/reset}
 * empties the store every {@value #RESET_EVERY_MILLIS} ms while the keyed clients grant (the plan is installed
 * again after each, since a reset clears it), and there are no keyless clients. A reset that a group commit
 * could interleave with left seats whose keys were gone, and a client's retry of such a key then wrote a second
 * seat: so the ledger is read after every reset and must never show a duplicate, and once the traffic has
 * stopped every seat must have its key (seats = keys).
 *
 * <p>The traffic, from parallel clients: correct keyed grants under the {@code flaky} scenario, each retried
 * with its key until acknowledged (201, or a replay); keyless grants for fresh users, never retried; malformed
 * requests (bad JSON, bad escapes, bytes that are not UTF-8, odd framing); slow clients that trickle their
 * headers; pipelined bursts. At the end it checks, against the server that survived every kill: duplicates
 * (users with two seats; must be 0) and lost acknowledged seats (a seat a client was told about that is not in
 * the file; must be 0). It prints requests by outcome and the server's RSS over time.
 */
public final class SoakBenchmark {

    private static final int KILL_EVERY_SECONDS = 30;
    private static final long RESET_EVERY_MILLIS = 2_000;
    private static final int GRANT_CLIENTS = 12;
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Path dir;
    private final int port;
    private final URI base;
    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(2)).build();
    private final Map<String, LongAdder> outcomes = new ConcurrentHashMap<>();
    private final Map<String, String> acknowledged = new ConcurrentHashMap<>();
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final List<String> rss = new ArrayList<>();
    /** Resets instead of kills (see the class comment). */
    private final boolean resets;
    private int resetCount;
    private int ledgersWithDuplicates;
    private volatile Process server;

    private SoakBenchmark(Path dir, int port, boolean resets) {
        this.dir = dir;
        this.port = port;
        this.resets = resets;
        this.base = URI.create("http://127.0.0.1:" + port);
    }

    public static void main(String[] args) throws Exception {
        Duration length = Duration.ofMinutes(Long.getLong("soak.minutes", 3));
        Path dir = Files.createTempDirectory("soak");
        int port;
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort();
        }
        String mode = System.getProperty("soak.mode", "kill");
        if (!mode.equals("kill") && !mode.equals("reset")) {
            throw new IllegalArgumentException("soak.mode is kill or reset");
        }
        SoakBenchmark soak = new SoakBenchmark(dir, port, mode.equals("reset"));
        try {
            soak.run(length);
        } finally {
            // Whatever happened, nothing this started outlives it: the client loops stop, the server is killed.
            soak.running.set(false);
            if (soak.server != null) {
                soak.server.destroyForcibly();
            }
        }
        System.exit(0);
    }

    private void run(Duration length) throws Exception {
        System.out.printf("soak: %s, java %s, %d cores, store %s, %s%n", length,
                System.getProperty("java.version"), Runtime.getRuntime().availableProcessors(), dir.resolve("seats"),
                resets ? "POST /__admin/reset every " + RESET_EVERY_MILLIS + " ms"
                        : "kill -9 every " + KILL_EVERY_SECONDS + " s");
        startServer();
        Instant started = Instant.now();
        ExecutorService pool = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "soak-client");
            t.setDaemon(true);
            return t;
        });
        for (int i = 0; i < GRANT_CLIENTS; i++) {
            long seed = i;
            pool.submit(() -> loop(() -> keyedGrant(new Random(seed))));
        }
        if (!resets) {
            pool.submit(() -> loop(this::keylessGrant));
        }
        pool.submit(() -> loop(this::malformed));
        pool.submit(() -> loop(this::malformed));
        pool.submit(() -> loop(this::slowClient));
        pool.submit(() -> loop(this::slowClient));
        pool.submit(() -> loop(this::pipelined));
        Instant deadline = started.plus(length);
        Instant nextKill = started.plusSeconds(KILL_EVERY_SECONDS);
        Instant nextReset = started.plusMillis(RESET_EVERY_MILLIS);
        Instant nextSample = started;
        int kills = 0;
        while (Instant.now().isBefore(deadline)) {
            if (!Instant.now().isBefore(nextSample)) {
                sample(started);
                nextSample = nextSample.plusSeconds(15);
            }
            if (resets && !Instant.now().isBefore(nextReset)) {
                resetDuringGrants();
                nextReset = nextReset.plusMillis(RESET_EVERY_MILLIS);
            }
            if (!resets && !Instant.now().isBefore(nextKill)) {
                server.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
                kills++;
                startServer();
                nextKill = nextKill.plusSeconds(KILL_EVERY_SECONDS);
            }
            LockSupport.parkNanos(Duration.ofMillis(200).toNanos());
        }
        running.set(false);
        pool.shutdown();
        pool.awaitTermination(60, TimeUnit.SECONDS);
        sample(started);
        if (resets) {
            reportResets();
            server.destroy();
            server.waitFor(30, TimeUnit.SECONDS);
            return;
        }
        // One last kill -9 and restart, so every acknowledged seat is checked in the file, not in memory.
        server.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
        kills++;
        startServer();
        report(kills);
        server.destroy();
        server.waitFor(30, TimeUnit.SECONDS);
    }

    /** Empties the store while the keyed clients grant, installs the plan again, and reads the ledger. */
    private void resetDuringGrants() {
        try {
            HttpResponse<String> reset = admin("/__admin/reset", "{}");
            count("admin reset " + reset.statusCode());
            resetCount++;
            count("admin plan " + admin("/__admin/faults", "{\"scenario\": \"flaky\"}").statusCode());
            JsonNode ledger = JSON.readTree(client.send(HttpRequest.newBuilder(base.resolve("/__admin/ledger"))
                    .timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString()).body());
            if (ledger.get("duplicates").size() > 0) {
                ledgersWithDuplicates++;
                System.out.println("a duplicate after reset " + resetCount + ": " + ledger.get("duplicates"));
            }
        } catch (IOException e) {
            count("admin io error");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private HttpResponse<String> admin(String path, String json) throws IOException, InterruptedException {
        return client.send(HttpRequest.newBuilder(base.resolve(path)).timeout(Duration.ofSeconds(30))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(json)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private void reportResets() throws Exception {
        JsonNode ledger = JSON.readTree(client.send(HttpRequest.newBuilder(base.resolve("/__admin/ledger"))
                .timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString()).body());
        System.out.println();
        System.out.println("requests by outcome:");
        new TreeMap<>(outcomes).forEach((k, v) -> System.out.printf("  %-32s %8d%n", k, v.sum()));
        System.out.printf("resets during grants:      %d%n", resetCount);
        System.out.printf("acknowledged keyed grants: %d%n", acknowledged.size());
        System.out.printf("ledgers read after a reset showing a duplicate (must be 0): %d%n", ledgersWithDuplicates);
        System.out.printf("duplicates at the end (must be 0): %d%n", ledger.get("duplicates").size());
        System.out.printf("seats %d, keys %d: seats without their key (must be 0): %d%n", ledger.get("seats").asLong(),
                ledger.get("keys").asLong(), Math.max(0, ledger.get("seats").asLong() - ledger.get("keys").asLong()));
        System.out.println("RSS over time:");
        rss.forEach(r -> System.out.println("  " + r));
    }

    private void loop(Runnable step) {
        while (running.get()) {
            try {
                step.run();
            } catch (RuntimeException e) {
                count("client error " + e.getClass().getSimpleName());
            }
        }
    }

    private void count(String outcome) {
        outcomes.computeIfAbsent(outcome, o -> new LongAdder()).increment();
    }

    // ---------------------------------------------------------------- traffic

    private void keyedGrant(Random random) {
        String key = "soak-" + Long.toHexString(random.nextLong()) + Long.toHexString(System.nanoTime());
        String body = "{\"workspaceId\":\"ws_soak\",\"userId\":\"" + key + "\",\"role\":\"member\"}";
        for (int attempt = 1; attempt <= 40 && running.get(); attempt++) {
            try {
                HttpResponse<String> r = client.send(HttpRequest.newBuilder(base.resolve("/v1/seats"))
                        .timeout(Duration.ofSeconds(3)).header("Content-Type", "application/json")
                        .header("Idempotency-Key", key).POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                        HttpResponse.BodyHandlers.ofString());
                count("keyed " + r.statusCode());
                boolean replay = r.headers().firstValue("Idempotent-Replayed").isPresent();
                if (r.statusCode() == 201 || (r.statusCode() == 409 && replay)) {
                    acknowledged.put(key, JSON.readTree(r.body()).get("id").asText());
                    return;
                }
            } catch (java.net.ConnectException e) {
                count("keyed " + down());
            } catch (IOException e) {
                count("keyed " + (e instanceof java.net.http.HttpTimeoutException ? "timeout"
                        : e.getCause() instanceof java.net.ConnectException ? down() : "io error"));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            LockSupport.parkNanos(Duration.ofMillis(50L * Math.min(attempt, 10)).toNanos());
        }
    }

    private void keylessGrant() {
        String body = "{\"workspaceId\":\"ws_keyless\",\"userId\":\"k-" + System.nanoTime() + "\",\"role\":\"member\"}";
        String raw = "POST /v1/seats HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nConnection: close\r\n"
                + "Content-Length: " + body.length() + "\r\n\r\n" + body;
        count("keyless " + rawStatus(raw.getBytes(StandardCharsets.ISO_8859_1), 0));
    }

    private static final List<String> MALFORMED = List.of(
            "GET /v1/seats?userId=alice&token=S3CRET&q=% HTTP/1.1\r\nHost: x\r\n\r\n",
            "GET /%zz HTTP/1.1\r\nHost: x\r\n\r\n",
            "GET /v1/seats HTTP/9.9\r\nHost: x\r\n\r\n",
            "POST /v1/seats HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n",
            "POST /v1/seats HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 9\r\n\r\n{\"a\":\"\u00c0\u00af\"}",
            "POST /v1/seats HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 5\r\n\r\n{\"x\":",
            "POST /v1/seats HTTP/1.1\r\nHost: x\r\nExpect: foo\r\nContent-Length: 2\r\n\r\n{}",
            "HELLO\r\n\r\n");

    private void malformed() {
        String raw = MALFORMED.get((int) (System.nanoTime() % MALFORMED.size()));
        count("malformed " + rawStatus(raw.getBytes(StandardCharsets.ISO_8859_1), 0));
    }

    private void slowClient() {
        // One header byte every 100 ms: the header timeout (1 s here) must answer 408 and close.
        byte[] raw = "GET /__admin/health HTTP/1.1\r\nHost: localhost\r\nX-Slow: 0123456789012345678901234567890\r\n\r\n"
                .getBytes(StandardCharsets.ISO_8859_1);
        count("slow " + rawStatus(raw, 100));
    }

    private void pipelined() {
        StringBuilder burst = new StringBuilder();
        for (int i = 0; i < 5; i++) {
            burst.append("GET /v1/seats?workspaceId=ws_none HTTP/1.1\r\nHost: x\r\n\r\n");
        }
        // The admin API answers only under the server's own names, with its port.
        burst.append("GET /__admin/health HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\nConnection: close\r\n\r\n");
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(5_000);
            socket.getOutputStream().write(burst.toString().getBytes(StandardCharsets.ISO_8859_1));
            String all = new String(socket.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
            int answers = all.split("HTTP/1.1 200 ", -1).length - 1;
            count(answers == 6 ? "pipelined 6 of 6 in order" : "pipelined " + answers + " of 6");
        } catch (java.net.ConnectException e) {
            count("pipelined " + down());
        } catch (IOException e) {
            count("pipelined io error");
        }
    }

    /** Sends {@code raw}, a byte every {@code gapMs} when positive, and returns the status, or what happened. */
    private String rawStatus(byte[] raw, long gapMs) {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(5_000);
            OutputStream out = socket.getOutputStream();
            try {
                if (gapMs <= 0) {
                    out.write(raw);
                } else {
                    for (byte b : raw) {
                        out.write(b);
                        out.flush();
                        LockSupport.parkNanos(Duration.ofMillis(gapMs).toNanos());
                    }
                }
                out.flush();
            } catch (IOException e) {
                // The server may close first (a 408 or a refusal); read what it said.
            }
            InputStream in = socket.getInputStream();
            byte[] head = in.readNBytes(12);
            if (head.length < 12) {
                return "closed";
            }
            return new String(head, StandardCharsets.ISO_8859_1).substring(9, 12);
        } catch (java.net.SocketTimeoutException e) {
            return "silence";
        } catch (java.net.ConnectException e) {
            return down();
        } catch (IOException e) {
            return "io error";
        }
    }

    /** Counted apart from errors: the server is being restarted after a kill -9. Waits a little before retrying. */
    private static String down() {
        LockSupport.parkNanos(Duration.ofMillis(100).toNanos());
        return "refused (restarting)";
    }

    // ---------------------------------------------------------------- the server process

    private void startServer() throws Exception {
        List<String> command = List.of(ProcessHandle.current().info().command().orElse("java"), "-cp",
                System.getProperty("java.class.path"), Main.class.getName(), "serve", "--port", String.valueOf(port),
                "--db", dir.resolve("seats").toString(), "--scenario", "flaky", "--header-timeout", "1s",
                "--body-timeout", "1s", "--idle-timeout", "5s");
        Path log = dir.resolve("server.log");
        for (int attempt = 1; ; attempt++) {
            server = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
            BufferedReader out = new BufferedReader(new InputStreamReader(server.getInputStream(), StandardCharsets.UTF_8));
            String line = out.readLine();
            if (line != null && line.contains("listening on")) {
                return;
            }
            server.waitFor(10, TimeUnit.SECONDS);
            List<String> lines = Files.readAllLines(log);
            String why = lines.isEmpty() ? "nothing on stderr" : lines.get(lines.size() - 1);
            if (attempt == 5) {
                throw new IllegalStateException("the server did not start: " + why);
            }
            System.out.println("restart attempt " + attempt + " failed (" + why + "); retrying");
            LockSupport.parkNanos(Duration.ofSeconds(1).toNanos());
        }
    }

    /** Samples the server's RSS: its whole process tree, the own-heap child included. */
    private void sample(Instant started) {
        String kb;
        try {
            long total = rssKb(server.pid());
            for (ProcessHandle child : server.descendants().toList()) {
                total += rssKb(child.pid());
            }
            kb = total + " kB";
        } catch (IOException e) {
            kb = "unreadable";
        }
        long requests = outcomes.values().stream().mapToLong(LongAdder::sum).sum();
        String row = String.format("t=%4ds requests=%7d acknowledged=%6d rss=%s",
                Duration.between(started, Instant.now()).toSeconds(), requests, acknowledged.size(), kb);
        rss.add(row);
        System.out.println(row);
    }

    private static long rssKb(long pid) throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
            if (line.startsWith("VmRSS:")) {
                return Long.parseLong(line.substring(6).replace("kB", "").strip());
            }
        }
        return 0;
    }

    private void report(int kills) throws Exception {
        JsonNode ledger = JSON.readTree(client.send(HttpRequest.newBuilder(base.resolve("/__admin/ledger"))
                .timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString()).body());
        int lost = 0;
        for (Map.Entry<String, String> ack : acknowledged.entrySet()) {
            HttpResponse<String> r = client.send(HttpRequest.newBuilder(base.resolve("/v1/seats/" + ack.getValue()))
                    .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() != 200) {
                lost++;
            }
        }
        System.out.println();
        System.out.println("requests by outcome:");
        new TreeMap<>(outcomes).forEach((k, v) -> System.out.printf("  %-32s %8d%n", k, v.sum()));
        System.out.printf("kill -9 restarts:          %d%n", kills);
        System.out.printf("seats in the file:         %d%n", ledger.get("seats").asLong());
        System.out.printf("acknowledged keyed grants: %d%n", acknowledged.size());
        System.out.printf("duplicates (must be 0):    %d%n", ledger.get("duplicates").size());
        System.out.printf("lost acknowledged seats (must be 0): %d%n", lost);
        System.out.println("RSS over time:");
        rss.forEach(r -> System.out.println("  " + r));
    }
}
