package dev.idempotent.seatgrant.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code GET /__admin/requests} in pages (issue 20 items 2 and 10): {@code ?after=SEQ&limit=N} answers at most N
 * entries (1,000 by default, 10,000 at most) and the {@code next} page's {@code after}; every answer is streamed
 * (chunked), the whole journal included; a page's size in bytes is bounded by its entry count, since each string a
 * client chose is cut to 1 KiB; and an {@code after} at the top of the range reads nothing.
 */
class JournalPagingTest extends SharedServerTest {

    /** The most JSON one entry can be: its fixed fields, and four client strings of 1 KiB plus a key of 255. */
    static final int MAX_ENTRY_JSON = 5 * 1024;

    private static RawConnection.Response get(String target) throws Exception {
        try (RawConnection c = new RawConnection(server.baseUri(), 30_000)) {
            return c.send(Wire.get(server.baseUri(), target)).read();
        }
    }

    /**
     * Sends {@code count} requests for unknown seats, pipelined on one connection a hundred at a time (Netty's codec
     * closes a connection with more than 128 requests waiting for their answers): one journal entry each.
     */
    private static void fill(int count, String pathTail) throws Exception {
        try (RawConnection c = new RawConnection(server.baseUri(), 30_000)) {
            for (int sent = 0; sent < count; sent += 100) {
                int batch = Math.min(100, count - sent);
                StringBuilder burst = new StringBuilder();
                for (int i = 0; i < batch; i++) {
                    burst.append(Wire.get(server.baseUri(), "/v1/seats/nope-" + (sent + i) + pathTail));
                }
                c.send(burst.toString());
                for (int i = 0; i < batch; i++) {
                    assertEquals(404, c.read().status());
                }
            }
        }
        Await.until(Duration.ofSeconds(10), "every entry settled", () -> server.journal(0).size() == count);
    }

    private static List<Long> seqs(JsonNode page) {
        List<Long> out = new ArrayList<>();
        page.path("requests").forEach(r -> out.add(r.path("seq").asLong()));
        return out;
    }

    private static long first() {
        return server.journal().get(0).seq();
    }

    @Test
    void pagesFollowNextToTheEndAndTheLastOneSaysNull() throws Exception {
        fill(25, "");
        long base = first() - 1;

        RawConnection.Response one = get("/__admin/requests?after=" + base + "&limit=10");
        JsonNode page1 = Http.json(one.body());
        assertEquals(10, page1.path("requests").size());
        assertEquals(base + 1, seqs(page1).get(0));
        assertEquals(base + 10, page1.path("next").asLong());
        JsonNode page2 = Http.json(get("/__admin/requests?after=" + page1.path("next").asLong() + "&limit=10").body());
        assertEquals(base + 20, page2.path("next").asLong());
        JsonNode page3 = Http.json(get("/__admin/requests?after=" + page2.path("next").asLong() + "&limit=10").body());
        assertEquals(5, page3.path("requests").size());
        assertTrue(page3.path("next").isNull(), page3.toString());
        assertEquals(base + 25, seqs(page3).get(4));
    }

    @Test
    void aPageHoldsAThousandByDefaultAndAtMostTenThousand() throws Exception {
        fill(1_005, "");
        long base = first() - 1;

        JsonNode defaultPage = Http.json(get("/__admin/requests?after=" + base).body());
        assertEquals(1_000, defaultPage.path("requests").size());
        assertEquals(base + 1_000, defaultPage.path("next").asLong());
        JsonNode biggest = Http.json(get("/__admin/requests?after=0&limit=10000").body());
        assertEquals(1_005, biggest.path("requests").size());
        assertTrue(biggest.path("next").isNull());
    }

    @ParameterizedTest
    @ValueSource(strings = {"?after=0&limit=0", "?after=0&limit=10001", "?after=0&limit=x", "?after=0&limit=-1",
        "?after=0&limit=", "?limit=5", "?after=9223372036854775808", "?after=-1", "?after=+1", "?after="})
    void aBadPageIsA400(String query) throws Exception {
        RawConnection.Response r = get("/__admin/requests" + query);

        assertEquals(400, r.status(), query + ": " + r.body());
        assertTrue(r.body().contains("problem:invalid-query"), r.body());
    }

    @Test
    void afterTheLargestSeqReadsNothing() throws Exception {
        // Issue 20 item 10: after + 1 overflowed to the smallest long, so this read the whole journal.
        fill(3, "");

        RawConnection.Response r = get("/__admin/requests?after=9223372036854775807");

        assertEquals(200, r.status(), r.body());
        assertEquals("{\"requests\":[],\"next\":null}", r.body());
    }

    @Test
    void everyAnswerIsStreamedTheWholeJournalInItsOldShape() throws Exception {
        fill(3, "");

        RawConnection.Response whole = get("/__admin/requests");
        assertEquals("chunked", whole.header("transfer-encoding"));
        assertNull(whole.header("content-length"));
        JsonNode body = Http.json(whole.body());
        assertEquals(3, body.path("requests").size());
        assertTrue(body.path("next").isMissingNode(), "the whole journal keeps the shape the tools read: " + body);

        RawConnection.Response page = get("/__admin/requests?after=0");
        assertEquals("chunked", page.header("transfer-encoding"));
        assertTrue(Http.json(page.body()).has("next"));

        // HTTP/1.0 has no chunked coding: the body ends with the connection.
        try (RawConnection c = new RawConnection(server.baseUri(), 10_000)) {
            RawConnection.Response old = c.send("GET /__admin/requests HTTP/1.0\r\nHost: "
                    + server.baseUri().getAuthority() + "\r\nConnection: keep-alive\r\n\r\n").read();
            assertNull(old.header("transfer-encoding"));
            assertEquals("close", old.header("connection"));
            assertEquals(3, Http.json(old.body()).path("requests").size());
        }
    }

    @Test
    void aPagesBytesAreBoundedByItsEntriesHoweverLongWhatClientsSent() throws Exception {
        // Before, each 404 kept its whole path (up to 8 KB) in the journal and in every page that listed it.
        fill(40, "-" + "p".repeat(7_900));

        RawConnection.Response r = get("/__admin/requests?after=0&limit=40");
        JsonNode page = Http.json(r.body());
        int bytes = r.body().getBytes(StandardCharsets.UTF_8).length;

        assertEquals(40, page.path("requests").size());
        for (JsonNode entry : page.path("requests")) {
            assertEquals(JournalEntry.MAX_CLIENT_STRING_BYTES, entry.path("path").asText().length());
            assertTrue(entry.path("path").asText().startsWith("/v1/seats/nope-"));
            assertTrue(entry.path("cut").asBoolean(), entry.toString());
        }
        assertTrue(bytes <= 40 * (JournalEntry.MAX_CLIENT_STRING_BYTES + 400), bytes + " bytes for 40 entries");
        assertTrue(bytes <= 40 * MAX_ENTRY_JSON);

        server.reset();
        fill(40, "");
        RawConnection.Response typical = get("/__admin/requests?after=0&limit=40");
        int typicalBytes = typical.body().getBytes(StandardCharsets.UTF_8).length;
        assertTrue(typicalBytes <= 40 * 400, typicalBytes + " bytes for 40 typical entries");
        Http.json(typical.body()).path("requests").forEach(e -> assertTrue(!e.path("cut").asBoolean(), e.toString()));
    }
}
