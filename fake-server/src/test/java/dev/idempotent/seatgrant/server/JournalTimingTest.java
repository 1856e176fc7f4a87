package dev.idempotent.seatgrant.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A journal entry's {@code at} is when the server read the request's first byte, and {@code answeredMs} how long
 * after that its answer reached the socket, over real sockets. The server's clock is moved by hand between the
 * parts of a slow request, so the expected times are exact; the pipelining test runs on the real clock.
 */
class JournalTimingTest {

    private static final Instant T0 = Instant.parse("2026-05-06T07:08:09.100Z");
    private static final Duration WAIT = Duration.ofSeconds(10);

    /** Sends {@code part}, waits until the server has read it (it reads its clock on every read), then moves on. */
    private static void sendThenAdvance(MutableClock clock, RawConnection c, String part, Duration by)
            throws Exception {
        int before = clock.reads();
        c.send(part);
        Await.until(WAIT, "the server to read the part", () -> clock.reads() > before);
        clock.advance(by);
    }

    private FakeSeatServer server;

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    private JournalEntry settled(int index) {
        Await.until(WAIT, "entry " + index + " settled",
                () -> server.journal().size() > index && server.journal().get(index).answeredMs() != null);
        return server.journal().get(index);
    }

    @Test
    void aRequestWhoseHeadAndBodyArriveSlowlyIsTimedFromItsFirstByte() throws Exception {
        MutableClock clock = new MutableClock(T0);
        server = FakeSeatServer.start(ServerConfig.builder().clock(clock).build());
        String post = Wire.seatPost("slow-1", Http.BODY);
        int body = post.indexOf("\r\n\r\n") + 4;
        try (RawConnection c = new RawConnection(server.baseUri(), 10_000)) {
            sendThenAdvance(clock, c, post.substring(0, 10), Duration.ofSeconds(2));
            sendThenAdvance(clock, c, post.substring(10, body), Duration.ofSeconds(3));
            c.send(post.substring(body));
            assertEquals(201, c.read().status());
        }

        JournalEntry entry = settled(0);
        assertEquals(T0, entry.at(), "the first byte's time, not the body's (T0 + 5 s)");
        assertEquals(5_000L, entry.answeredMs(), "from the first byte to the answer, the waits included");
        assertTrue(entry.sent());
        JsonNode json = Http.json(new Http(server).get("/__admin/requests").body()).get("requests").get(0);
        assertEquals(T0.toString(), json.get("at").asText());
        assertEquals(5_000L, json.get("answeredMs").asLong());
    }

    @Test
    void aPipelinedRequestLeftHalfReadIsTimedFromTheReadThatBroughtItsFirstByte() throws Exception {
        MutableClock clock = new MutableClock(T0);
        server = FakeSeatServer.start(ServerConfig.builder().clock(clock).build());
        String second = Wire.seatPost("half-2", Http.BODY);
        try (RawConnection c = new RawConnection(server.baseUri(), 10_000)) {
            // One write: a whole request and the first bytes of the next one.
            c.send(Wire.seatPost("half-1", Http.BODY) + second.substring(0, 20));
            assertEquals(201, c.read().status());
            clock.advance(Duration.ofSeconds(4));
            c.send(second.substring(20));
            assertEquals(201, c.read().status());
        }

        assertEquals(T0, settled(0).at());
        JournalEntry half = settled(1);
        assertEquals("half-2", half.idempotencyKey());
        assertEquals(T0, half.at(), "its first bytes came in the first write, before the clock moved");
        assertEquals(4_000L, half.answeredMs());
    }

    @Test
    void pipelinedRequestsInOneWriteKeepTheirOrderAndAreTimedFromTheirOwnFirstByte() throws Exception {
        server = FakeSeatServer.start(ServerConfig.builder().build());
        // The first POST is held 300 ms; the two behind it wait in the connection's queue meanwhile.
        server.faultPlan(FaultPlan.of(FaultRule.of(Fault.DELAY).withMethodAndPath("POST", "/v1/seats")
                .withDelayMs(300).withTimes(1)));
        Instant before = Instant.now();
        try (RawConnection c = new RawConnection(server.baseUri(), 10_000)) {
            c.send(Wire.seatPost("pipe-a", Http.BODY) + Wire.seatPost("pipe-b", Http.BODY)
                    + Wire.seatPost("pipe-c", Http.BODY));
            assertEquals(List.of(201, 201, 201), List.of(c.read().status(), c.read().status(), c.read().status()));
        }
        List<JournalEntry> entries = List.of(settled(0), settled(1), settled(2));
        Instant after = Instant.now();

        assertEquals(List.of("pipe-a", "pipe-b", "pipe-c"),
                entries.stream().map(JournalEntry::idempotencyKey).toList(), "journaled in the order sent");
        Instant firstAnswered = answeredAt(entries.get(0));
        assertFalse(firstAnswered.isBefore(entries.get(0).at().plusMillis(300)), "the first was held 300 ms");
        for (int i = 0; i < entries.size(); i++) {
            JournalEntry e = entries.get(i);
            assertTrue(e.sent());
            assertNotNull(e.answeredMs());
            assertFalse(e.at().isBefore(before) || answeredAt(e).isAfter(after), "within the test: " + e);
            if (i > 0) {
                assertFalse(e.at().isBefore(entries.get(i - 1).at()), "first bytes in the order sent: " + e);
                assertTrue(e.at().isBefore(entries.get(0).at().plusMillis(300)),
                        "read with the first, not when its turn came after the first's answer: " + e);
                // answeredMs is cut to whole milliseconds, so an answer may show up to 1 ms early.
                assertFalse(answeredAt(e).plusMillis(1).isBefore(firstAnswered),
                        "answered after the request before it: " + e);
            }
        }
    }

    @Test
    void anAnswerAFaultReplacedHasNoAnsweredMs() throws Exception {
        server = FakeSeatServer.start(ServerConfig.builder().build());
        server.faultPlan(FaultPlan.of(FaultRule.of(Fault.RESET_AFTER_COMMIT).withMethodAndPath("POST", "/v1/seats")));

        Wire.Result result = Wire.exchange(server.baseUri(), Wire.seatPost("gone-1", Http.BODY), 10_000);

        assertEquals(Wire.Seen.RESET, result.seen());
        JournalEntry entry = server.journal().get(0);
        assertTrue(entry.committed());
        assertFalse(entry.sent());
        assertNull(entry.answeredMs(), "no answer was written");
        JsonNode json = Http.json(new Http(server).get("/__admin/requests").body()).get("requests").get(0);
        assertTrue(json.get("answeredMs").isNull());
    }

    private static Instant answeredAt(JournalEntry entry) {
        return entry.at().plusMillis(entry.answeredMs());
    }
}
