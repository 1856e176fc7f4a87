package dev.idempotent.seatgrant.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * HTTP/1.1 pipelining (RFC 9112 section 9.3.2): requests sent back to back on one connection are handled one
 * after another and answered in order, and a {@code Connection: close} request is answered after everything
 * before it. Before the fix, the codec decoded the second request while the first was in the store, so the
 * answers came back out of order and a committed 201 could be lost to the close.
 */
class PipeliningTest extends SharedServerTest {

    private static String HEALTH_AND_CLOSE;

    @org.junit.jupiter.api.BeforeAll
    static void healthRequest() {
        HEALTH_AND_CLOSE = "GET /__admin/health HTTP/1.1\r\nHost: " + server.baseUri().getAuthority()
                + "\r\nConnection: close\r\n\r\n";
    }

    @Test
    void aPostThenAClosingHealthCheckAreBothAnsweredInOrder() throws Exception {
        try (RawConnection c = new RawConnection(server.baseUri(), 10_000)) {
            c.send(Wire.seatPost("pipe-1", Http.BODY) + HEALTH_AND_CLOSE);

            RawConnection.Response first = c.read();
            RawConnection.Response second = c.read();

            assertEquals(201, first.status(), first::body);
            assertEquals(200, second.status(), second::body);
            assertTrue(second.body().contains("ok"));
            assertEquals("close", second.header("connection"));
            assertTrue(c.closedByServer(), "the server closes after the closing request's answer");
        }
        assertEquals(1, server.ledger().seats());
        JournalEntry entry = server.journal().get(0);
        assertEquals(201, entry.status());
        Await.until(Duration.ofSeconds(5), "the 201 to be marked sent", () -> server.journal().get(0).sent());
    }

    @Test
    void twoPostsWithOneKeyAreACreateThenAReplayInThatOrder() throws Exception {
        try (RawConnection c = new RawConnection(server.baseUri(), 10_000)) {
            c.send(Wire.seatPost("pipe-2", Http.BODY) + Wire.seatPost("pipe-2", Http.BODY));

            RawConnection.Response first = c.read();
            RawConnection.Response second = c.read();

            assertEquals(201, first.status(), first::body);
            assertEquals(409, second.status(), second::body);
            assertEquals("true", second.header("idempotent-replayed"));
        }
        assertEquals(1, server.ledger().seats());
    }

    @Test
    void aSlowRequestDoesNotLetAFastOneOvertakeIt() throws Exception {
        // A delay holds the first POST in the store path for 300 ms; the GET behind it must still come second.
        server.faultPlan(FaultPlan.parse(
                "{\"rules\":[{\"method\":\"POST\",\"path\":\"/v1/seats\",\"fault\":\"delay\",\"delayMs\":300}]}"));
        String list = "GET /v1/seats?userId=user_1 HTTP/1.1\r\nHost: localhost\r\n\r\n";
        try (RawConnection c = new RawConnection(server.baseUri(), 10_000)) {
            c.send(Wire.seatPost("pipe-3", Http.BODY) + list + list);

            List<Integer> statuses = List.of(c.read().status(), c.read().status(), c.read().status());

            assertEquals(List.of(201, 200, 200), statuses);
        }
        List<JournalEntry> journal = server.journal();
        assertEquals(List.of("POST", "GET", "GET"), journal.stream().map(JournalEntry::method).toList());
        assertTrue(journal.get(0).seq() < journal.get(1).seq() && journal.get(1).seq() < journal.get(2).seq());
    }

    @Test
    void nothingAfterAClosingRequestIsAnsweredOrWritten() throws Exception {
        String closingPost = Wire.seatPost("pipe-4", Http.BODY)
                .replace("Host: localhost\r\n", "Host: localhost\r\nConnection: close\r\n");
        try (RawConnection c = new RawConnection(server.baseUri(), 10_000)) {
            c.send(closingPost + Wire.seatPost("pipe-5", Http.BODY));

            assertEquals(201, c.read().status());
            assertNull(c.read(), "no answer after the closing request");
        }
        assertEquals(1, server.ledger().seats());
        assertFalse(server.journal().stream().anyMatch(e -> "pipe-5".equals(e.idempotencyKey())));
    }

    @Test
    void manyPipelinedRequestsAreAnsweredInOrder() throws Exception {
        StringBuilder burst = new StringBuilder();
        for (int i = 0; i < 50; i++) {
            burst.append(Wire.seatPost("burst-" + i,
                    "{\"workspaceId\":\"ws\",\"userId\":\"u" + i + "\",\"role\":\"member\"}"));
        }
        try (RawConnection c = new RawConnection(server.baseUri(), 10_000)) {
            c.send(burst.toString());
            for (int i = 0; i < 50; i++) {
                RawConnection.Response r = c.read();
                assertEquals(201, r.status());
                assertTrue(r.body().contains("\"userId\":\"u" + i + "\""), r.body());
            }
        }
        assertEquals(50, server.ledger().seats());
    }

    @Test
    void anInterimContinueIsNotSentAheadOfAnEarlierRequestsAnswer() throws Exception {
        // The first POST is held 300 ms; the second asks for 100-continue and waits for it, as a client should. A 100
        // is a response too (RFC 9112 section 9.3.2): it must come after the first request's 201, not before it,
        // or a client reads it as the first request's interim answer.
        server.faultPlan(FaultPlan.parse(
                "{\"rules\":[{\"method\":\"POST\",\"path\":\"/v1/seats\",\"fault\":\"delay\",\"delayMs\":300}]}"));
        String expecting = Wire.seatPost("pipe-7", Http.BODY)
                .replace("Host: localhost\r\n", "Host: localhost\r\nExpect: 100-continue\r\n");
        int headEnd = expecting.indexOf("\r\n\r\n") + 4;
        try (RawConnection c = new RawConnection(server.baseUri(), 10_000)) {
            c.send(Wire.seatPost("pipe-6", Http.BODY) + expecting.substring(0, headEnd));

            RawConnection.Response first = c.read();
            assertEquals(201, first.status(), "the held POST's answer comes first");
            RawConnection.Response interim = c.read();
            assertEquals(100, interim.status(), "then the 100 that lets the second POST send its body");
            c.send(expecting.substring(headEnd));
            RawConnection.Response second = c.read();
            assertEquals(201, second.status(), second::body);
        }
        assertEquals(2, server.ledger().seats());
    }

    @Test
    void aContinueWhoseBodyAlreadyArrivedIsNotSentLate() throws Exception {
        // Head and body of the expecting POST arrive with the POST before it; the server may skip the 100 (RFC 9110
        // section 10.1.1), but it must not answer anything before the first POST's 201.
        String expecting = Wire.seatPost("pipe-9", Http.BODY)
                .replace("Host: localhost\r\n", "Host: localhost\r\nExpect: 100-continue\r\n");
        try (RawConnection c = new RawConnection(server.baseUri(), 10_000)) {
            c.send(Wire.seatPost("pipe-8", Http.BODY) + expecting);

            assertEquals(201, c.read().status(), "the first POST's answer comes first");
            RawConnection.Response next = c.read();
            if (next.status() == 100) {
                next = c.read();
            }
            assertEquals(201, next.status(), next::body);
            c.send(HEALTH_AND_CLOSE);
            assertEquals(200, c.read().status(), "the next answer is the health check's, not a late 100");
        }
    }

    @Test
    void noContinueIsPromisedForARequestAfterAClosingOne() throws Exception {
        String closingPost = Wire.seatPost("pipe-10", Http.BODY)
                .replace("Host: localhost\r\n", "Host: localhost\r\nConnection: close\r\n");
        String expectingHead = "POST /v1/seats HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                + "Idempotency-Key: pipe-11\r\nExpect: 100-continue\r\nContent-Length: 10\r\n\r\n";
        try (RawConnection c = new RawConnection(server.baseUri(), 10_000)) {
            c.send(closingPost + expectingHead);

            assertEquals(201, c.read().status(), "the closing POST is answered first, and nothing else");
            assertNull(c.read(), "no 100 for a request the server will never answer");
        }
    }
}
