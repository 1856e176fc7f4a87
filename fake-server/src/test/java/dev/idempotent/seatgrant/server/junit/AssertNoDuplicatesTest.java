package dev.idempotent.seatgrant.server.junit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.idempotent.seatgrant.server.Fault;
import dev.idempotent.seatgrant.server.FaultPlan;
import dev.idempotent.seatgrant.server.FaultRule;
import dev.idempotent.seatgrant.server.JournalEntry;
import java.net.URI;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@link FakeServerExtension#assertNoDuplicates()} as a service's test uses it: this class registers the extension
 * as users do, and drives the server over real sockets. Every first attempt is committed and then answered 504, at
 * once (the {@code incident} scenario's story without its 1.5 s wait).
 */
class AssertNoDuplicatesTest {

    private static final FaultPlan LOST_FIRST_ANSWER = FaultPlan.of(
            FaultRule.of(Fault.STATUS_AFTER_COMMIT, 504).withMethodAndPath("POST", "/v1/seats").withAttempt(1));

    @RegisterExtension
    static FakeServerExtension fake = FakeServerExtension.server();

    @Test
    void passesWhenTheRetryCarriesTheKeyAndEveryUserHasOneSeat(URI baseUri) throws Exception {
        fake.faultPlan(LOST_FIRST_ANSWER);
        assertEquals(504, Grants.post(baseUri, "req_1", "ws_1", "user_1").statusCode());
        assertEquals(409, Grants.post(baseUri, "req_1", "ws_1", "user_1").statusCode());
        fake.faultPlan(FaultPlan.none());
        assertEquals(201, Grants.post(baseUri, null, "ws_1", "user_2").statusCode());

        fake.assertNoDuplicates();
        assertEquals(List.of(), fake.duplications());
    }

    @Test
    void aKeylessRetryFailsNamingTheUserItsSeatsAndTheRequestsThatMadeThem(URI baseUri) throws Exception {
        fake.faultPlan(LOST_FIRST_ANSWER);
        assertEquals(504, Grants.post(baseUri, null, "ws_1", "user_1").statusCode());
        assertEquals(201, Grants.post(baseUri, null, "ws_1", "user_1").statusCode());
        // Another user's requests are not part of user_1's story.
        assertEquals(504, Grants.post(baseUri, "req_other", "ws_1", "user_2").statusCode());

        AssertionError failure = assertThrows(AssertionError.class, fake::assertNoDuplicates);

        List<String> seats = fake.ledger().duplicates().get(0).seatIds();
        List<Long> seq = fake.journal().stream().map(JournalEntry::seq).toList();
        assertEquals("""
                Expected at most one seat per user; found 1 duplicate:
                  user user_1 in workspace ws_1 has 2 seats: %s, %s; keys: none; its requests:
                    #%d POST /v1/seats, attempt 1, no key: committed %s; fault status-after-commit answered 504
                    #%d POST /v1/seats, attempt 2, no key: committed %s; answered 201"""
                .formatted(seats.get(0), seats.get(1), seq.get(0), seats.get(0), seq.get(1), seats.get(1)),
                failure.getMessage());
    }

    @Test
    void aFreshKeyPerAttemptFailsNamingEveryKey(URI baseUri) throws Exception {
        fake.faultPlan(LOST_FIRST_ANSWER);
        for (String key : List.of("req_1-a", "req_1-b")) {
            // Every fresh key is a first attempt, so every answer is lost.
            assertEquals(504, Grants.post(baseUri, key, "ws_1", "user_1").statusCode());
        }
        assertEquals(504, Grants.post(baseUri, "req_2-a", "ws_2", "user_9").statusCode());
        assertEquals(504, Grants.post(baseUri, "req_2-b", "ws_2", "user_9").statusCode());

        AssertionError failure = assertThrows(AssertionError.class, fake::assertNoDuplicates);

        List<String> message = failure.getMessage().lines().toList();
        assertEquals("Expected at most one seat per user; found 2 duplicates:",
                message.get(0));
        assertEquals(List.of("user user_1 in workspace ws_1", "user user_9 in workspace ws_2"),
                fake.duplications().stream().map(d -> d.subject()).toList());
        List<String> user1 = fake.ledger().duplicates().get(0).seatIds();
        assertEquals("  user user_1 in workspace ws_1 has 2 seats: " + user1.get(0) + ", " + user1.get(1)
                + "; keys: req_1-a, req_1-b; its requests:", message.get(1));
        assertEquals(List.of(", key req_1-a: committed " + user1.get(0), ", key req_1-b: committed " + user1.get(1)),
                message.subList(2, 4).stream().map(line -> line.substring(line.indexOf(", key"), line.indexOf(';')))
                        .toList());
        assertEquals(7, message.size(), "two lines of requests under each user");
    }
}
