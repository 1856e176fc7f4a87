package dev.idempotent.seatgrant.server.internal.store;

import dev.idempotent.seatgrant.server.EmbeddedPostgresFixture;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The store contract on a real PostgreSQL server. */
class PostgresSeatStoreTest extends SeatStoreContract {

    @Override
    DbSpec freshDatabase() {
        return DbSpec.parse(EmbeddedPostgresFixture.newDatabase());
    }

    /**
     * Several instances share one PostgreSQL database, so reset must be atomic for all of them: one instance
     * resets while another grants, and no seat is left without its key. A lock in one process could not do it;
     * the table lock does.
     */
    @Test
    @Tag("race")
    void aResetByAnotherInstanceIsAtomicForThisOnesGrants() {
        try (SeatStore other = SeatStore.open(spec(), 4)) {
            raceResets(store(), other);
        }
    }
}
