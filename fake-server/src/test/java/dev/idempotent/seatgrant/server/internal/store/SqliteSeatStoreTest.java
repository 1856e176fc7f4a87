package dev.idempotent.seatgrant.server.internal.store;

import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** The store contract on a SQLite file, the default store. */
class SqliteSeatStoreTest extends SeatStoreContract {

    @TempDir
    Path dir;
    private int databases;

    @Override
    DbSpec freshDatabase() {
        return DbSpec.parse("sqlite:" + dir.resolve("seats" + (++databases)));
    }

    @Override
    boolean earlierVersionsMadeSuchStores() {
        return false;
    }
}
