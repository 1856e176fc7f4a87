package com.example.seats;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.idempotent.seatgrant.server.junit.FakeServerExtension;
import java.net.URI;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** An instance field: a server of its own for each test, and its root as a test parameter. */
class ServerPerTestTest {

    @RegisterExtension
    FakeServerExtension fake = FakeServerExtension.server();

    @Test
    void oneGrant(URI baseUri) throws Exception {
        assertEquals(fake.baseUri(), baseUri);
        new SeatClient(baseUri, true).grant("req_a", "ws_1", "user_a");
        assertEquals(1, fake.ledger().seats());
    }

    @Test
    void anotherGrant(URI baseUri) throws Exception {
        new SeatClient(baseUri, true).grant("req_b", "ws_1", "user_b");
        assertEquals(1, fake.ledger().seats(), "only this test's seat");
    }
}
