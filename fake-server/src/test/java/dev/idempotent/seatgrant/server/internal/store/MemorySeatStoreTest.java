package dev.idempotent.seatgrant.server.internal.store;

/** The store contract on the in-memory store ({@code --db mem}). */
class MemorySeatStoreTest extends SeatStoreContract {

    @Override
    DbSpec freshDatabase() {
        return DbSpec.parse("mem");
    }

    @Override
    boolean earlierVersionsMadeSuchStores() {
        return false;
    }
}
