package dev.idempotent.seatgrant.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import dev.idempotent.seatgrant.server.internal.Journal;
import org.junit.jupiter.api.Test;

/**
 * Thousands of random and mutated requests, seeded, thrown at one real server over loopback: valid requests of
 * every kind, then bytes flipped, inserted, deleted, duplicated or cut off, hostile headers, odd versions, bodies
 * that are not UTF-8, pipelined bursts and random fault plans. It asserts what must hold for any input:
 *
 * <ul>
 *   <li>every answer is a well-formed HTTP/1.1 response, or the connection closes (a reset fault resets it);</li>
 *   <li>every 4xx and 5xx carries a problem+json body whose status matches; no 500 but an injected one;</li>
 *   <li>the ledger changes only through a committed grant, each committed grant was a 201, and every 201 a
 *       client read is a seat;</li>
 *   <li>the server still answers health afterwards;</li>
 *   <li>no log line holds a query string, the admin token, the base path, or a stack trace;</li>
 *   <li>the journal's bounds hold: no string a client chose is kept past 1 KiB (and an entry that was cut says
 *       so), no entry's JSON is larger than {@link JournalPagingTest#MAX_ENTRY_JSON}, the journal holds no more
 *       than {@link Journal#MAX_BYTES}, and a page of {@code /__admin/requests} holds at most 10,000 entries and
 *       no more bytes than its entries' bound.</li>
 * </ul>
 *
 * <p>The seed is fixed ({@value #DEFAULT_SEED}) and printed with every failure; {@code -Dfuzz.seed=N} replays
 * another, and {@code -Dfuzz.cases=N} runs more. Case {@code i} draws from {@code new Random(seed * 1_000_003 +
 * i)}, so one failing case can be replayed alone.
 */
class GenerativeHttpTest {

    private static final long DEFAULT_SEED = 20_261_129L;
    private static final String TOKEN = "adm_TOKEN_x7Qp2";
    private static final String BASE = "/t/tok_FUZZBASE123";
    private static final String QUERY_MARK = "qsecretQ9";

    private static final List<String> IDS = List.of("ws_1", "user_1", "alice", " lead", "trail ", "caf\u00e9",
            "\u00e9\u00e8", "x".repeat(255), "x".repeat(256), "", "  ", "a\\u0000b", "\\ud800", "\ud83d\ude00",
            "tab\\t", "slash/ok");
    private static final List<String> HEADERS = List.of("Transfer-Encoding: gzip, chunked", "Transfer-Encoding: chunked",
            "Content-Length: -1", "Content-Length: 99999999999", "Content-Length: 10, 11", "Expect: foo",
            "Expect: 100-continue", "Connection: close", "Connection: keep-alive", "Idempotency-Key: a b",
            "Idempotency-Key: ", "Idempotency-Key: k\u00e9", "Idempotency-Key: " + "k".repeat(300),
            "Content-Type: application/json; charset=utf-16", "Content-Type: text/plain",
            "Content-Type: application/problem+json", "Authorization: bearer " + TOKEN, "Authorization: Bearer wrong",
            "Host:", "X-Empty:", ": novalue", "Bad Header: x", "Transfer-Encoding: identity",
            "Transfer-Encoding: chunked, chunked", "Transfer-Encoding: \"chunked\"", "Transfer-Encoding: x-chunked",
            "Host: a b", "Host: x/y@z", "Host: attacker.example", "Origin: http://attacker.example", "Origin: null",
            "Content-Type: text/plain;charset=UTF-8");
    private static final List<String> VERSIONS = List.of("HTTP/1.1", "HTTP/1.0", "HTTP/9.9", "HTTP/1.2", "HTTP/2.0",
            "HTTP/1", "http/1.1", "HTTP/1.1 extra", "");

    private record Outcome(int status201s, List<String> failures) { }

    /** The Host the generated requests name: the server's own address and port, so the admin API answers. */
    private static volatile String host = "localhost";

    @Test
    void anyInputGetsAWellFormedAnswerOrACleanCloseAndNothingLeaks() throws Exception {
        long seed = Long.getLong("fuzz.seed", DEFAULT_SEED);
        int cases = Integer.getInteger("fuzz.cases", 2_000);
        String replay = " (seed " + seed + "; replay with -Dfuzz.seed=" + seed + ")";
        ServerConfig config = ServerConfig.builder().adminToken(TOKEN).basePath(BASE)
                .headerTimeout(Duration.ofMillis(250)).bodyTimeout(Duration.ofMillis(250))
                .idleTimeout(Duration.ofMillis(400)).defaultHang(Duration.ofMillis(200)).build();
        try (LogCapture log = new LogCapture(); FakeSeatServer server = FakeSeatServer.start(config)) {
            host = server.baseUri().getAuthority();
            ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
            AtomicInteger created = new AtomicInteger();
            ExecutorService pool = Executors.newFixedThreadPool(8);
            try {
                List<Future<?>> runs = new ArrayList<>();
                for (int i = 0; i < cases; i++) {
                    int index = i;
                    runs.add(pool.submit(() -> {
                        Random random = new Random(seed * 1_000_003 + index);
                        byte[] bytes = generate(random);
                        Outcome outcome = exchange(server, bytes);
                        created.addAndGet(outcome.status201s());
                        for (String f : outcome.failures()) {
                            failures.add("case " + index + ": " + f + "\n  sent: "
                                    + new String(bytes, StandardCharsets.ISO_8859_1).replace("\r\n", "\\r\\n"));
                        }
                    }));
                }
                for (Future<?> run : runs) {
                    run.get(120, TimeUnit.SECONDS);
                }
            } finally {
                pool.shutdownNow();
            }
            assertTrue(failures.isEmpty(), failures.size() + " failures" + replay + ", first: " + failures.peek());

            // The ledger changed only through committed grants, and each 201 a client read is one of them.
            Await.until(Duration.ofSeconds(10), "every request's outcome to be journaled" + replay, () -> {
                long committed = server.journal().stream().filter(JournalEntry::committed).count();
                return committed == server.ledger().seats();
            });
            assertTrue(server.ledger().seats() >= created.get(), "every 201 read is a seat" + replay);
            for (JournalEntry e : server.journal()) {
                if (e.committed()) {
                    assertEquals("POST", e.method(), e + replay);
                    assertEquals("/v1/seats", e.path(), e + replay);
                    assertTrue(e.fault() != null || Integer.valueOf(201).equals(e.status()), e + replay);
                }
                if (e.status() != null && e.status() == 500) {
                    assertEquals("status", e.fault() == null ? null : e.fault().replace("-after-commit", ""),
                            "a 500 only when injected: " + e + replay);
                }
            }
            assertTrue(server.journal().size() > cases / 4, "most cases reached the seat API" + replay);

            // The journal's bounds, whatever came in: every string a client chose at most 1 KiB, a cut one says so.
            long cut = 0;
            for (JournalEntry e : server.journal()) {
                for (String s : new String[] {e.method(), e.path(), e.idempotencyKey(), e.workspaceId(), e.userId()}) {
                    assertTrue(s == null || Http.JSON.writeValueAsBytes(s).length - 2 <= JournalEntry.MAX_CLIENT_STRING_BYTES,
                            "a client string over 1 KiB of JSON" + replay + ": " + e);
                }
                if (e.cut()) {
                    cut++;
                }
            }
            assertTrue(cut > 0, "some long paths were journaled, and cut" + replay);
            for (JsonNode e : new Http(server).getJson("/__admin/requests").path("requests")) {
                assertTrue(e.toString().getBytes(StandardCharsets.UTF_8).length <= JournalPagingTest.MAX_ENTRY_JSON,
                        "an entry's JSON over its bound" + replay + ": " + e);
            }
            assertTrue(journalOf(server).bytes() <= Journal.MAX_BYTES, replay);

            try (RawConnection c = new RawConnection(server.baseUri(), 5_000)) {
                RawConnection.Response health = c.send("GET /__admin/health HTTP/1.1\r\nHost: " + host + "\r\nAuthorization: Bearer "
                        + TOKEN + "\r\n\r\n").read();
                assertEquals(200, health.status(), "health afterwards" + replay);
            }

            for (String line : log.lines()) {
                // A mutation that deletes the '?' turns the query into path text, which a log line may show.
                assertTrue(!line.matches("(?s).*\\?\\S*" + QUERY_MARK + ".*"), "a query string in a log line" + replay + ": " + line);
                assertTrue(!line.contains(TOKEN), "the admin token in a log line" + replay + ": " + line);
                assertTrue(!line.contains("tok_FUZZBASE123"), "the base path in a log line" + replay + ": " + line);
                assertTrue(!line.contains("\tat "), "a stack trace in a log line" + replay + ": " + line);
                assertTrue(!line.startsWith("ERROR"), "an ERROR for a client's input" + replay + ": " + line);
            }
        }
    }

    // ---------------------------------------------------------------- generation

    private static byte[] generate(Random r) {
        int kind = r.nextInt(100);
        if (kind < 3) {
            byte[] junk = new byte[1 + r.nextInt(200)];
            r.nextBytes(junk);
            return junk;
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int requests = r.nextInt(10) < 8 ? 1 : 2 + r.nextInt(3);
        for (int i = 0; i < requests; i++) {
            out.writeBytes(mutate(r, request(r)));
        }
        return out.toByteArray();
    }

    private static byte[] request(Random r) {
        int pick = r.nextInt(100);
        String auth = r.nextInt(4) == 0 ? "" : "Authorization: Bearer " + (r.nextInt(5) == 0 ? "nope" : TOKEN) + "\r\n";
        if (pick < 45) {
            return post(r, (r.nextInt(10) == 0 ? "" : BASE) + "/v1/seats");
        }
        if (pick < 60) {
            return head(r, "GET", BASE + "/v1/seats?workspaceId=" + queryValue(r) + "&userId=" + queryValue(r) + "&"
                    + QUERY_MARK + "=" + r.nextInt(1000), "");
        }
        if (pick < 67) {
            return head(r, "GET", BASE + "/v1/seats/seat_" + Integer.toHexString(r.nextInt()) + "?" + QUERY_MARK, "");
        }
        if (pick < 75) {
            String[] admin = {"/__admin/health", "/__admin/ledger", "/__admin/faults",
                "/__admin/requests?after=" + r.nextInt(50) + "&" + QUERY_MARK, "/__admin/nope", "/__admin/requests?after=x",
                "/__admin/requests?after=" + r.nextInt(50) + "&limit=" + (1 + r.nextInt(5)), "/__admin/requests",
                "/__admin/requests?after=9223372036854775807", "/__admin/requests?limit=3"};
            return head(r, "GET", admin[r.nextInt(admin.length)], auth);
        }
        if (pick < 80) {
            byte[] plan = plan(r).getBytes(StandardCharsets.UTF_8);
            return withBody(head(r, "POST", "/__admin/faults", auth + "Content-Type: application/json\r\n"
                    + "Content-Length: " + plan.length + "\r\n"), plan);
        }
        if (pick < 82) {
            return head(r, "DELETE", "/__admin/faults", auth);
        }
        String[] odd = {"/%zz", BASE + "/v1/seats/%", BASE + "/v1/seats%G0", "/__admin/%zz", BASE + "/v1/seats?q=%",
            BASE + "/v1/seats/%C0%AF", "*", "http://x/v1/seats", BASE + "/v1/seats/../../__admin/ledger", "/",
            BASE + "/v1/seats/" + "L".repeat(1_000 + r.nextInt(7_000)), BASE + "/v1/" + "%E4%B8%AD".repeat(600),
            BASE + "/v1/seats?workspaceId=" + "w".repeat(3_000) + "&userId=%01" + "u".repeat(2_000)};
                // No HEAD: its answer has a Content-Length and no body, which this checker could not tell from the next.
        String[] methods = {"GET", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE", "BREW"};
        return head(r, methods[r.nextInt(methods.length)], odd[r.nextInt(odd.length)], "");
    }

    private static String queryValue(Random r) {
        String[] values = {"ws_1", "user_1", "%20lead", "trail+", "%00", "%C3%A9", "%ED%A0%80", "", "%", "%e", "a%2Fb"};
        return values[r.nextInt(values.length)];
    }

    private static byte[] head(Random r, String method, String target, String extra) {
        String version = r.nextInt(20) == 0 ? VERSIONS.get(r.nextInt(VERSIONS.size())) : "HTTP/1.1";
        return (method + " " + target + " " + version + "\r\nHost: " + host + "\r\n" + extra + "\r\n")
                .getBytes(StandardCharsets.ISO_8859_1);
    }

    private static byte[] post(Random r, String target) {
        byte[] body = body(r);
        String key = switch (r.nextInt(4)) {
            case 0 -> "";
            case 1 -> "Idempotency-Key: k-" + r.nextInt(40) + "\r\n";
            default -> "Idempotency-Key: k-" + Long.toHexString(r.nextLong()) + "\r\n";
        };
        return withBody(head(r, "POST", target, key + "Content-Type: application/json\r\nContent-Length: "
                + body.length + "\r\n"), body);
    }

    private static byte[] withBody(byte[] head, byte[] body) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(head);
        out.writeBytes(body);
        return out.toByteArray();
    }

    private static byte[] body(Random r) {
        String ws = IDS.get(r.nextInt(IDS.size()));
        String user = r.nextInt(3) == 0 ? IDS.get(r.nextInt(IDS.size())) : "u" + r.nextInt(200);
        String role = r.nextInt(10) == 0 ? "owner" : "member";
        String json = "{\"workspaceId\":\"" + ws + "\",\"userId\":\"" + user + "\",\"role\":\"" + role + "\"}";
        byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
        if (r.nextInt(12) == 0) {
            // Bytes that are not UTF-8: overlong, a lone surrogate, a bare continuation byte.
            String[] bad = {"c0af", "c181", "e080af", "eda080", "80", "ff"};
            byte[] b = HexFormat.of().parseHex(bad[r.nextInt(bad.length)]);
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            out.write(bytes, 0, 16);
            out.writeBytes(b);
            out.write(bytes, 16, bytes.length - 16);
            return out.toByteArray();
        }
        if (r.nextInt(20) == 0) {
            return json.getBytes(StandardCharsets.UTF_16LE);
        }
        return bytes;
    }

    private static String plan(Random r) {
        String[] faults = {"reset", "close", "status", "delay", "reset-after-commit", "close-after-commit",
            "hang-after-commit", "status-after-commit"};
        String fault = faults[r.nextInt(faults.length)];
        String status = fault.startsWith("status") ? ",\"status\":" + (new int[] {429, 500, 502, 503, 504})[r.nextInt(5)] : "";
        if (r.nextInt(8) == 0) {
            return "{\"scenario\":\"" + (new String[] {"incident", "reset", "flaky", "nope"})[r.nextInt(4)] + "\"}";
        }
        return "{\"seed\":" + r.nextInt(100) + ",\"rules\":[{\"probability\":0.3,\"fault\":\"" + fault + "\""
                + status + ",\"delayMs\":" + r.nextInt(150) + "}]}";
    }

    private static byte[] mutate(Random r, byte[] request) {
        byte[] bytes = request;
        int mutations = r.nextInt(10) < 4 ? 0 : 1 + r.nextInt(2);
        for (int m = 0; m < mutations && bytes.length > 0; m++) {
            int at = r.nextInt(bytes.length);
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            switch (r.nextInt(6)) {
                case 0 -> {
                    bytes = bytes.clone();
                    bytes[at] = (byte) r.nextInt(256);
                    continue;
                }
                case 1 -> {
                    byte[] noise = new byte[1 + r.nextInt(8)];
                    r.nextBytes(noise);
                    out.write(bytes, 0, at);
                    out.writeBytes(noise);
                    out.write(bytes, at, bytes.length - at);
                }
                case 2 -> {
                    int n = Math.min(1 + r.nextInt(8), bytes.length - at);
                    out.write(bytes, 0, at);
                    out.write(bytes, at + n, bytes.length - at - n);
                }
                case 3 -> {
                    int n = Math.min(1 + r.nextInt(8), bytes.length - at);
                    out.write(bytes, 0, at + n);
                    out.write(bytes, at, bytes.length - at);
                }
                case 4 -> {
                    // A hostile header, added after the request line.
                    String text = new String(bytes, StandardCharsets.ISO_8859_1);
                    int eol = text.indexOf("\r\n");
                    if (eol < 0) {
                        continue;
                    }
                    out.writeBytes(text.substring(0, eol + 2).getBytes(StandardCharsets.ISO_8859_1));
                    out.writeBytes((HEADERS.get(r.nextInt(HEADERS.size())) + "\r\n").getBytes(StandardCharsets.UTF_8));
                    out.writeBytes(text.substring(eol + 2).getBytes(StandardCharsets.ISO_8859_1));
                }
                default -> out.write(bytes, 0, at);
            }
            bytes = out.toByteArray();
        }
        return bytes;
    }

    // ---------------------------------------------------------------- checking

    /** The server's own journal; nothing public hands it out, and the test only reads its byte count. */
    private static Journal journalOf(FakeSeatServer running) throws ReflectiveOperationException {
        java.lang.reflect.Field core = FakeSeatServer.class.getDeclaredField("core");
        core.setAccessible(true);
        return ((dev.idempotent.seatgrant.server.internal.ServerCore) core.get(running)).journal();
    }

    private static Outcome exchange(FakeSeatServer server, byte[] bytes) {
        List<String> failures = new ArrayList<>();
        int created = 0;
        try (RawConnection c = new RawConnection(server.baseUri(), 4_000)) {
            try {
                c.send(bytes);
                // Done sending: the server answers everything it read, then closes, so no case waits for a timeout.
                c.socket().shutdownOutput();
            } catch (SocketException e) {
                return new Outcome(0, failures);
            }
            while (true) {
                RawConnection.Response r;
                try {
                    r = c.read();
                } catch (SocketTimeoutException e) {
                    failures.add("neither an answer nor a close within 4 s");
                    break;
                } catch (SocketException e) {
                    break; // a reset: the reset faults, or a close with the client's bytes unread
                } catch (IOException | RuntimeException e) {
                    failures.add("not a well-formed response: " + e.getMessage());
                    break;
                }
                if (r == null) {
                    break;
                }
                failures.addAll(check(r));
                if (r.status() == 201) {
                    created++;
                }
            }
        } catch (IOException e) {
            failures.add("could not connect: " + e);
        }
        return new Outcome(created, failures);
    }

    private static List<String> check(RawConnection.Response r) {
        List<String> failures = new ArrayList<>();
        if (r.status() == 100) {
            return failures;
        }
        if (r.status() >= 400) {
            if (!"application/problem+json".equals(r.header("content-type"))) {
                failures.add(r.status() + " without a problem body: " + r.header("content-type"));
                return failures;
            }
            JsonNode problem;
            try {
                problem = Http.json(r.body());
            } catch (RuntimeException e) {
                failures.add("a problem body that is not JSON: " + r.body());
                return failures;
            }
            if (problem.get("status") == null || problem.get("status").asInt() != r.status()
                    || problem.get("type") == null || problem.get("detail") == null) {
                failures.add("a malformed problem: " + r.body());
            }
            if (r.status() == 500 && !r.body().contains("problem:injected-fault")) {
                failures.add("a 500 the plan did not ask for: " + r.body());
            }
            if (r.body().contains("Exception") || r.body().contains("\tat ")) {
                failures.add("a stack trace in a body: " + r.body());
            }
        }
        if (r.status() == 200 && r.body().startsWith("{\"requests\":")) {
            // A journal answer: its size is bounded by its entries, and a page by its limit.
            JsonNode journal = Http.json(r.body());
            int entries = journal.path("requests").size();
            long bytes = r.body().getBytes(StandardCharsets.UTF_8).length;
            if (bytes > 64L + (long) entries * JournalPagingTest.MAX_ENTRY_JSON) {
                failures.add(bytes + " bytes for " + entries + " journal entries");
            }
            if (journal.has("next") && entries > 10_000) {
                failures.add("a page of " + entries + " entries");
            }
        }
        return failures;
    }
}
