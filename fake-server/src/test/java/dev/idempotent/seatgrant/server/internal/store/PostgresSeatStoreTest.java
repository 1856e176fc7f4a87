package dev.idempotent.seatgrant.server.internal.store;

import dev.idempotent.seatgrant.server.EmbeddedPostgresFixture;

/** The store contract on a real PostgreSQL server. */
class PostgresSeatStoreTest extends SeatStoreContract {

    @Override
    DbSpec freshDatabase() {
        return DbSpec.parse(EmbeddedPostgresFixture.newDatabase());
    }
}
