package dev.idempotent.seatgrant.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Issue 20 item 5: a client that stops reading must not hide later requests from a follower of the journal. It
 * pipelines list requests whose answers (a hundred kilobytes each) fill the socket's buffers; the answer that can
 * no longer be written leaves its entry unsettled, and {@code ?after=} stops before an unsettled entry. Before, a
 * later client's {@code 201} reached the follower only when the idle timeout (60 s by default) closed the stalled
 * connection; now the stalled answer's entry is settled as not sent after a second, for good.
 */
class JournalFollowTest {

    private static final int SEATS = 300;
    private static final int PIPELINED = 100;

    @Test
    void aReaderThatStopsReadingHoldsLaterEntriesBackForAboutASecondAtMost() throws Exception {
        try (FakeSeatServer server = FakeSeatServer.start(ServerConfig.builder().build())) {
            Http http = new Http(server);
            grantManySeatsWithLongIds(server, http);
            long before = server.journal().get(server.journal().size() - 1).seq();

            AtomicReference<Socket> stalledRef = new AtomicReference<>();
            try (Socket stalled = new Socket()) {
                stalledRef.set(stalled);
                // A small receive window, so that the server's send buffer fills and a write cannot complete.
                stalled.setReceiveBufferSize(4096);
                stalled.connect(new InetSocketAddress(server.baseUri().getHost(), server.port()), 5_000);
                StringBuilder burst = new StringBuilder();
                for (int i = 0; i < PIPELINED; i++) {
                    burst.append(Wire.get(server.baseUri(), "/v1/seats?workspaceId=ws_big"));
                }
                stalled.getOutputStream().write(burst.toString().getBytes(StandardCharsets.ISO_8859_1));
                stalled.getOutputStream().flush();
                // The socket's buffers hold a few megabytes: the answers stop going out, and no new entry comes.
                long[] last = {-1, System.nanoTime()};
                Await.until(Duration.ofSeconds(60), "the answers to stop going out", () -> {
                    long now = server.journal().stream().filter(e -> e.seq() > before).count();
                    if (now != last[0]) {
                        last[0] = now;
                        last[1] = System.nanoTime();
                    }
                    return now >= 3 && now < PIPELINED && System.nanoTime() - last[1] > 1_500_000_000L;
                });

                HttpResponse<String> created = http.grant("k-after-the-stall", Http.BODY);
                assertEquals(201, created.statusCode());

                // The follower reads pages as the page does; the 201 must reach it well before the idle timeout.
                long started = System.nanoTime();
                JsonNode[] seen = new JsonNode[1];
                Await.until(Duration.ofSeconds(15), "the 201 to reach a follower", () -> {
                    seen[0] = follow(http, before);
                    return keys(seen[0]).contains("k-after-the-stall");
                });
                Duration took = Duration.ofNanos(System.nanoTime() - started);
                assertTrue(took.compareTo(Duration.ofSeconds(10)) < 0, "took " + took);

                List<JsonNode> unsent = new ArrayList<>();
                seen[0].forEach(e -> {
                    if (e.path("path").asText().equals("/v1/seats") && e.path("method").asText().equals("GET")
                            && !e.path("sent").asBoolean()) {
                        unsent.add(e);
                    }
                });
                assertEquals(1, unsent.size(), "exactly the stalled answer: " + unsent);
                long stalledSeq = unsent.get(0).path("seq").asLong();
                assertEquals(200, unsent.get(0).path("status").asInt());
                assertTrue(unsent.get(0).path("answeredMs").isNull());

                // For good: once the client reads again and that answer goes out after all, its entry stays as read.
                CompletableFuture<Void> drain = CompletableFuture.runAsync(() -> discardAll(stalledRef.get()));
                Await.until(Duration.ofSeconds(60), "every pipelined answer written", () -> server.journal().stream()
                        .filter(e -> e.seq() > before && e.method().equals("GET") && e.sent()).count() >= PIPELINED - 1);
                JournalEntry after = server.journal().stream().filter(e -> e.seq() == stalledSeq).findFirst().orElseThrow();
                assertFalse(after.sent(), after.toString());
                assertNull(after.answeredMs());
                stalled.close();
                drain.join();
            }
        }
    }

    private static void grantManySeatsWithLongIds(FakeSeatServer server, Http http) throws Exception {
        List<CompletableFuture<HttpResponse<String>>> inFlight = new ArrayList<>();
        for (int i = 0; i < SEATS; i++) {
            String user = String.format("%03d", i) + "u".repeat(252);
            String body = "{\"workspaceId\":\"ws_big\",\"userId\":\"" + user + "\",\"role\":\"member\"}";
            inFlight.add(http.client().sendAsync(http.postSeat("k-big-" + i, body).build(),
                    HttpResponse.BodyHandlers.ofString()));
        }
        for (HttpResponse<String> r : Http.awaitAll(inFlight)) {
            assertEquals(201, r.statusCode(), r.body());
        }
        Await.until(Duration.ofSeconds(10), "every grant settled", () -> server.journal(0).size() == SEATS);
    }

    /** Every entry after {@code after}, page by page, following {@code next}. */
    private static JsonNode follow(Http http, long after) {
        com.fasterxml.jackson.databind.node.ArrayNode all = Http.JSON.createArrayNode();
        Long cursor = after;
        for (int pages = 0; cursor != null && pages < 50; pages++) {
            JsonNode page = http.getJson("/__admin/requests?after=" + cursor + "&limit=50");
            page.path("requests").forEach(all::add);
            cursor = page.path("next").isNumber() && !page.path("requests").isEmpty() ? page.path("next").asLong()
                    : null;
        }
        return all;
    }

    private static List<String> keys(JsonNode entries) {
        List<String> out = new ArrayList<>();
        entries.forEach(e -> out.add(e.path("idempotencyKey").asText()));
        return out;
    }

    private static void discardAll(Socket socket) {
        byte[] buffer = new byte[64 * 1024];
        try {
            InputStream in = socket.getInputStream();
            while (in.read(buffer) >= 0) {
                // discarded: only the server's side of the write matters here
            }
        } catch (java.io.IOException e) {
            // closed by the test once it has seen what it needs
        }
    }
}
