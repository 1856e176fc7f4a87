package dev.idempotent.seatgrant.server.internal.store;

import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** The store contract on an H2 file, the default store before SQLite. */
class H2SeatStoreTest extends SeatStoreContract {

    @TempDir
    Path dir;
    private int databases;

    @Override
    DbSpec freshDatabase() {
        return DbSpec.parse("h2:" + dir.resolve("seats" + (++databases)));
    }
}
