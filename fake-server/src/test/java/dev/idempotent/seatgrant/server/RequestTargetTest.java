package dev.idempotent.seatgrant.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A request target in absolute form ({@code POST http://host/v1/seats}) names the same resource as its origin form
 * ({@code POST /v1/seats}). RFC 9112 section 3.2.2 says a server must accept it; clients send it to proxies, and a
 * fake server put where a proxy was expected must not answer 404 to a grant it should have written.
 */
class RequestTargetTest extends SharedServerTest {

    private static RawConnection.Response exchange(String raw) throws Exception {
        try (RawConnection c = new RawConnection(server.baseUri(), 10_000)) {
            RawConnection.Response r = c.send(raw).read();
            assertNotNull(r, "the server answered");
            return r;
        }
    }

    private static String absolute(String pathAndQuery) {
        return "http://" + server.baseUri().getAuthority() + pathAndQuery;
    }

    @Test
    void anAbsoluteFormGrantWritesTheSeatItsOriginFormRetryReplays() throws Exception {
        RawConnection.Response first = exchange(
                Wire.seatPost("abs-1", Http.BODY).replace("POST /v1/seats ", "POST " + absolute("/v1/seats") + " "));
        assertEquals(201, first.status(), first.body());

        RawConnection.Response retry = exchange(Wire.seatPost("abs-1", Http.BODY));

        assertEquals(409, retry.status(), retry.body());
        assertEquals("true", retry.header("idempotent-replayed"));
        assertEquals(Http.json(first.body()), Http.json(retry.body()),
                "the retry replays the seat the absolute-form grant wrote");
        assertEquals(1, server.ledger().seats());
        assertEquals(List.of("/v1/seats", "/v1/seats"), server.journal().stream().map(JournalEntry::path).toList());
    }

    @Test
    void anAbsoluteFormReadWithAQueryFiltersLikeItsOriginForm() throws Exception {
        assertEquals(201, http.grant("abs-2", Http.BODY).statusCode());

        RawConnection.Response mine = exchange("GET " + absolute("/v1/seats?workspaceId=ws_1&userId=user_1")
                + " HTTP/1.1\r\nHost: localhost\r\n\r\n");
        RawConnection.Response others = exchange("GET " + absolute("/v1/seats?workspaceId=ws_1&userId=user_2")
                + " HTTP/1.1\r\nHost: localhost\r\n\r\n");

        assertEquals(200, mine.status(), mine.body());
        assertTrue(mine.body().contains("\"userId\":\"user_1\""), mine.body());
        assertEquals(200, others.status(), others.body());
        assertFalse(others.body().contains("user_1"), others.body());
    }

    @Test
    void aFaultRuleForThePathStrikesTheAbsoluteFormToo() throws Exception {
        server.faultPlan(FaultPlan.of(FaultRule.of(Fault.STATUS, 503).withRetryAfter(2)
                .withMethodAndPath("POST", "/v1/seats")));

        RawConnection.Response r = exchange(
                Wire.seatPost("abs-3", Http.BODY).replace("POST /v1/seats ", "POST " + absolute("/v1/seats") + " "));

        assertEquals(503, r.status(), r.body());
        assertEquals(0, server.ledger().seats());
    }

    @Test
    void aBadQueryInAnAbsoluteFormReadIsJournaledUnderItsApiPath() throws Exception {
        RawConnection.Response r = exchange("GET " + absolute("/v1/seats?userId=%C0%AF")
                + " HTTP/1.1\r\nHost: localhost\r\n\r\n");

        assertEquals(400, r.status(), r.body());
        assertTrue(r.body().contains("problem:invalid-query"), r.body());
        assertEquals(List.of("/v1/seats"), server.journal().stream().map(JournalEntry::path).toList());
    }

    @Test
    void anAbsoluteFormAdminPathIsTheAdminApi() throws Exception {
        RawConnection.Response r = exchange("GET " + absolute("/__admin/health")
                + " HTTP/1.1\r\nHost: localhost\r\n\r\n");

        assertEquals(200, r.status(), r.body());
        assertTrue(server.journal().isEmpty(), "the admin API is never journaled, in either form");
    }
}
