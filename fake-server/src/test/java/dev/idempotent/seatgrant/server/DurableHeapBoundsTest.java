package dev.idempotent.seatgrant.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 20 items 1 and 2 against the server as a user starts it: {@code serve} on its default H2 file store with no
 * heap flag, so it serves from a child JVM with its own 256 MB heap ({@code OwnHeap}). Before, about 31,000
 * requests for unique 8 KB paths ran that heap out ({@code OutOfMemoryError}, then no answers), and so did about
 * 30,000 list requests with a unique 8 KB query (the fault planner kept each whole query); and reading the whole
 * journal at its default 100,000 entries answered 500. Each test is bounded in time and fails, rather than hangs,
 * when the server stops answering.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class DurableHeapBoundsTest {

    /** Well past the roughly 31,000 that filled the heap before, in each of the two ways. */
    private static final int HOSTILE = 40_000;
    private static final int READ_TIMEOUT_MS = 60_000;

    @TempDir
    Path dir;

    private static String unique(int i, int length) {
        String n = Integer.toString(i);
        return n + "-" + "x".repeat(length - n.length() - 1);
    }

    private static void assertServing(JavaProcess.Server server, Http http) {
        assertTrue(server.process().isAlive(), "the server process is alive");
        assertEquals(200, http.get("/__admin/health").statusCode());
    }

    @Test
    void uniqueLongPathsAndQueriesDoNotFillTheHeap() throws Exception {
        try (JavaProcess.Server server = JavaProcess.startServer("--db", dir.resolve("seats").toString())) {
            URI base = server.base();
            Http http = new Http(base);
            String host = "Host: " + base.getAuthority() + "\r\n\r\n";

            Map<Integer, Long> paths = Pipelined.send(base, 4, HOSTILE, i -> ("GET /v1/" + unique(i, 8_100)
                    + " HTTP/1.1\r\n" + host).getBytes(StandardCharsets.ISO_8859_1), READ_TIMEOUT_MS);
            assertEquals(Map.of(404, (long) HOSTILE), paths);
            assertServing(server, http);

            Map<Integer, Long> queries = Pipelined.send(base, 4, HOSTILE, i -> ("GET /v1/seats?workspaceId=w&x="
                    + unique(i, 8_100) + " HTTP/1.1\r\n" + host).getBytes(StandardCharsets.ISO_8859_1), READ_TIMEOUT_MS);
            assertEquals(Map.of(200, (long) HOSTILE), queries);
            assertServing(server, http);

            // What the journal kept of the paths: the first 1 KiB of each, marked as cut.
            var page = http.getJson("/__admin/requests?after=0&limit=10");
            page.path("requests").forEach(e -> {
                if (e.path("path").asText().startsWith("/v1/") && !e.path("path").asText().equals("/v1/seats")) {
                    assertEquals(JournalEntry.MAX_CLIENT_STRING_BYTES, e.path("path").asText().length());
                    assertTrue(e.path("cut").asBoolean(), e.toString());
                }
            });
            assertEquals(201, http.grant("k-still-granting", Http.BODY).statusCode());
        }
    }

    @Test
    void theWholeJournalAtItsDefaultCapacityIsReadWhileOthersAreServed() throws Exception {
        try (JavaProcess.Server server = JavaProcess.startServer("--db", dir.resolve("seats").toString())) {
            URI base = server.base();
            Http http = new Http(base);
            int entries = 100_000;
            // Entries of the usual size (about 400 bytes of JSON each): keyed grants with ids, each answered 503 by
            // a fault before the store, so the store is not what bounds the test's time.
            HttpResponse<String> plan = http.send(HttpRequest.newBuilder(base.resolve("/__admin/faults"))
                    .header("Content-Type", "application/json").timeout(Duration.ofSeconds(30))
                    .POST(HttpRequest.BodyPublishers.ofString(
                            "{\"rules\":[{\"method\":\"POST\",\"path\":\"/v1/seats\",\"fault\":\"status\",\"status\":503}]}"))
                    .build());
            assertEquals(200, plan.statusCode(), plan.body());
            Map<Integer, Long> filled = Pipelined.send(base, 4, entries, i -> {
                String id = String.format("0193a6c4-8f1e-7d2a-9b3c-%012d", i);
                String body = "{\"workspaceId\":\"ws_" + id + "\",\"userId\":\"user_" + id + "\",\"role\":\"member\"}";
                return ("POST /v1/seats HTTP/1.1\r\nHost: " + base.getAuthority() + "\r\nContent-Type: application/json\r\n"
                        + "Idempotency-Key: " + id + "\r\nContent-Length: " + body.length() + "\r\n\r\n" + body)
                        .getBytes(StandardCharsets.ISO_8859_1);
            }, READ_TIMEOUT_MS);
            assertEquals(Map.of(503, (long) entries), filled);

            // Other clients keep being answered while the whole journal is read, slowly, by one reader.
            AtomicBoolean reading = new AtomicBoolean(true);
            CompletableFuture<List<Long>> others = CompletableFuture.supplyAsync(() -> {
                List<Long> micros = new ArrayList<>();
                while (reading.get()) {
                    long started = System.nanoTime();
                    assertEquals(200, http.get("/__admin/health").statusCode());
                    micros.add((System.nanoTime() - started) / 1_000);
                }
                return micros;
            });
            HttpResponse<InputStream> whole = http.client().send(HttpRequest.newBuilder(base.resolve("/__admin/requests"))
                    .timeout(Duration.ofMinutes(5)).build(), HttpResponse.BodyHandlers.ofInputStream());
            long count;
            try (InputStream body = whole.body()) {
                assertEquals(200, whole.statusCode());
                count = countEntries(body);
            } finally {
                reading.set(false);
            }
            assertEquals(entries, count);
            assertTrue(others.get(60, TimeUnit.SECONDS).size() > 0, "other clients were answered meanwhile");
            assertServing(server, http);
        }
    }

    /** The entries in a {@code {"requests": [...]}} body, counted as it streams in, never held whole. */
    private static long countEntries(InputStream body) throws Exception {
        long count = 0;
        try (JsonParser parser = Http.JSON.getFactory().createParser(body)) {
            assertEquals(JsonToken.START_OBJECT, parser.nextToken());
            assertEquals("requests", parser.nextFieldName());
            assertEquals(JsonToken.START_ARRAY, parser.nextToken());
            while (parser.nextToken() == JsonToken.START_OBJECT) {
                parser.skipChildren();
                count++;
            }
        }
        return count;
    }
}
