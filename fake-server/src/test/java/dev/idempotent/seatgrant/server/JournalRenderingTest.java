package dev.idempotent.seatgrant.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import dev.idempotent.seatgrant.server.internal.Journal;
import dev.idempotent.seatgrant.server.internal.ServerCore;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code GET /__admin/requests} over a raw socket: its exact bytes, pinned, and the event loop it must not hold
 * while the journal is read and rendered (up to its capacity of entries, tens of megabytes of JSON).
 */
class JournalRenderingTest {

    private static final Instant AT = Instant.parse("2026-03-04T05:06:07.089Z");
    private static String GET_JOURNAL;
    private static String HEALTH;

    private static FakeSeatServer server;
    private static Http http;
    private static String seatId;

    @BeforeAll
    static void fillTheJournal() throws Exception {
        server = FakeSeatServer.start(ServerConfig.builder().clock(new MutableClock(AT)).build());
        http = new Http(server);
        GET_JOURNAL = "GET /__admin/requests%s HTTP/1.1\r\nHost: " + server.baseUri().getAuthority() + "\r\n\r\n";
        HEALTH = Wire.get(server.baseUri(), "/__admin/health");
        HttpResponse<String> created = http.grant("k-1", Http.BODY);
        assertEquals(201, created.statusCode());
        seatId = created.headers().firstValue("Location").orElseThrow().substring("/v1/seats/".length());
        assertEquals(400, http.grant("k-2", "{\"workspaceId\":").statusCode());
        assertEquals(404, http.get("/v1/seats/nope").statusCode());
        assertEquals(200, http.get("/v1/seats?workspaceId=ws_9&userId=user_9").statusCode());
        // The last answer's entry is settled once its write completes, which the client may see a moment before.
        Await.until(Duration.ofSeconds(10), "every entry settled",
                () -> server.journal().size() == 4 && server.journal().stream().allMatch(JournalEntry::sent));
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static String entry(int seq, String method, String path, String key, String workspaceId,
                                String userId, int attempt, String seat, int status, boolean committed) {
        return "{\"seq\":" + seq + ",\"at\":\"2026-03-04T05:06:07.089Z\",\"method\":\"" + method + "\",\"path\":\""
                + path + "\",\"idempotencyKey\":" + quoted(key) + ",\"workspaceId\":" + quoted(workspaceId)
                + ",\"userId\":" + quoted(userId) + ",\"attempt\":" + attempt + ",\"fault\":null,\"committed\":"
                + committed + ",\"seatId\":" + quoted(seat) + ",\"status\":" + status + ",\"sent\":true,\"answeredMs\":0,\"cut\":false}";
    }

    private static String quoted(String value) {
        return value == null ? "null" : "\"" + value + "\"";
    }

    private static String body(List<String> entries) {
        return "{\"requests\":[" + String.join(",", entries) + "]}";
    }

    private static String page(List<String> entries, String next) {
        return "{\"requests\":[" + String.join(",", entries) + "],\"next\":" + next + "}";
    }

    /** A streamed answer: chunked, one chunk while the body is under a part's size, then the last chunk. */
    private static String expected(String body) {
        return "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n"
                + Integer.toHexString(body.length()) + "\r\n" + body + "\r\n0\r\n\r\n";
    }

    private static List<String> allEntries() {
        return List.of(
                entry(1, "POST", "/v1/seats", "k-1", "ws_1", "user_1", 1, seatId, 201, true),
                entry(2, "POST", "/v1/seats", "k-2", null, null, 0, null, 400, false),
                entry(3, "GET", "/v1/seats/nope", null, null, null, 1, null, 404, false),
                entry(4, "GET", "/v1/seats", null, "ws_9", "user_9", 1, null, 200, false));
    }

    @Test
    void theWholeJournalIsTheseExactBytes() throws Exception {
        assertEquals(expected(body(allEntries())),
                Wire.response(server.baseUri(), String.format(GET_JOURNAL, ""), 10_000));
    }

    @Test
    void aPageGivesTheSameEntriesAndTheNextPagesAfter() throws Exception {
        assertEquals(expected(page(allEntries(), "null")),
                Wire.response(server.baseUri(), String.format(GET_JOURNAL, "?after=0"), 10_000));
        assertEquals(expected(page(allEntries().subList(2, 4), "null")),
                Wire.response(server.baseUri(), String.format(GET_JOURNAL, "?after=2"), 10_000));
        assertEquals(expected(page(allEntries().subList(0, 3), "3")),
                Wire.response(server.baseUri(), String.format(GET_JOURNAL, "?after=0&limit=3"), 10_000));
        assertEquals(expected(page(List.of(), "null")),
                Wire.response(server.baseUri(), String.format(GET_JOURNAL, "?after=4"), 10_000));
    }

    /**
     * While the journal cannot be read (its lock held here, as a burst of seat requests recording entries would
     * hold it), a journal request waits, but every other connection is still answered. Were the journal read and
     * rendered on the event loop, that loop would be stuck and the connections it serves would get nothing: with
     * two loops taking new connections in turn, one of two consecutive connections shares the waiting one's loop.
     * Once the lock is free, the waiting request gets the whole journal, and its connection serves the next one.
     */
    @Test
    void otherConnectionsAreAnsweredWhileTheJournalIsBeingRead() throws Exception {
        Journal journal = journalOf(server);
        try (RawConnection waiting = new RawConnection(server.baseUri(), 30_000)) {
            synchronized (journal) {
                waiting.send(String.format(GET_JOURNAL, ""));
                Await.until(Duration.ofSeconds(30), "a thread waiting for the journal", () -> blockedOn(journal));
                for (int i = 0; i < 4; i++) {
                    try (RawConnection other = new RawConnection(server.baseUri(), 30_000)) {
                        RawConnection.Response health = other.send(HEALTH).read();
                        assertNotNull(health, "connection " + i + " was closed unanswered");
                        assertEquals(200, health.status(), "connection " + i);
                    }
                }
            }
            RawConnection.Response whole = waiting.read();
            assertEquals(200, whole.status());
            assertEquals(body(allEntries()), whole.body());
            assertEquals(200, waiting.send(HEALTH).read().status());
        }
    }

    private static boolean blockedOn(Object lock) {
        int identity = System.identityHashCode(lock);
        ThreadInfo[] threads = ManagementFactory.getThreadMXBean().dumpAllThreads(false, false);
        return Arrays.stream(threads).anyMatch(t -> t.getThreadState() == Thread.State.BLOCKED
                && t.getLockInfo() != null && t.getLockInfo().getIdentityHashCode() == identity);
    }

    /** The server's own journal object; nothing public hands it out, and the test only takes its lock. */
    private static Journal journalOf(FakeSeatServer running) throws ReflectiveOperationException {
        java.lang.reflect.Field core = FakeSeatServer.class.getDeclaredField("core");
        core.setAccessible(true);
        return ((ServerCore) core.get(running)).journal();
    }
}
