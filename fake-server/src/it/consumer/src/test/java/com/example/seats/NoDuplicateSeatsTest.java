package com.example.seats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idempotent.seatgrant.server.FaultPlan;
import dev.idempotent.seatgrant.server.JournalEntry;
import dev.idempotent.seatgrant.server.junit.FakeServerExtension;
import java.util.List;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The question a service's build asks: when the grant is committed and its answer is lost, does my client make a
 * second seat? One server for the class (a static field); the two tests run in order, so the second also shows
 * that nothing of the first is left.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class NoDuplicateSeatsTest {

    @RegisterExtension
    static FakeServerExtension fake = FakeServerExtension.server();

    @Test
    @Order(1)
    void aKeylessClientThatRetriesMakesASecondSeat() throws Exception {
        fake.scenario("incident");

        new SeatClient(fake.baseUri(), false).grant("req_1", "ws_1", "user_1");

        AssertionError failure = assertThrows(AssertionError.class, fake::assertNoDuplicates);
        List<String> seats = fake.ledger().duplicates().get(0).seatIds();
        List<JournalEntry> posts = fake.journal();
        assertEquals(2, posts.size());
        assertEquals("Expected at most one seat per user; found 1 duplicate:\n"
                + "  user user_1 in workspace ws_1 has 2 seats: " + seats.get(0) + ", " + seats.get(1)
                + "; keys: none; its requests:\n"
                + "    #" + posts.get(0).seq() + " POST /v1/seats, attempt 1, no key: committed " + seats.get(0)
                + "; fault status-after-commit answered 504\n"
                + "    #" + posts.get(1).seq() + " POST /v1/seats, attempt 2, no key: committed " + seats.get(1)
                + "; answered 201", failure.getMessage());
    }

    @Test
    @Order(2)
    void aKeyedClientGetsTheSameSeatBackAndNothingOfTheFirstTestIsLeft() throws Exception {
        assertEquals(0, fake.ledger().seats(), "no seat left from the first test");
        assertEquals(List.of(), fake.journal(), "no request left from the first test");
        assertEquals(FaultPlan.none(), fake.faultPlan(), "the first test's scenario is gone");
        fake.scenario("incident");

        new SeatClient(fake.baseUri(), true).grant("req_1", "ws_1", "user_1");

        fake.assertNoDuplicates();
        assertEquals(1, fake.ledger().seats());
        List<JournalEntry> posts = fake.journal();
        assertEquals(List.of(504, 409), posts.stream().map(JournalEntry::status).toList(),
                "the lost answer, then the replay");
        assertTrue(posts.stream().allMatch(e -> "req_1".equals(e.idempotencyKey())));
        assertEquals(1, posts.get(0).attempt(), "a fresh attempt count: req_1 was not seen before this test");
    }
}
