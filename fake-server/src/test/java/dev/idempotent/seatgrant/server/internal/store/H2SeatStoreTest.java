package dev.idempotent.seatgrant.server.internal.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idempotent.seatgrant.server.Seat;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The store contract on an H2 file, the default store. */
class H2SeatStoreTest extends SeatStoreContract {

    @TempDir
    Path dir;
    private int databases;

    @Override
    DbSpec freshDatabase() {
        return DbSpec.parse(dir.resolve("seats" + (++databases)).toString());
    }

    /**
     * A file made by an earlier version carries a unique index on {@code seats.idempotency_key}; opening it drops
     * that index and keeps every row, so old files get the cheaper grant too.
     */
    @Test
    void aFileWithTheOldUniqueIndexLosesItAndKeepsItsSeats() throws SQLException {
        DbSpec spec = freshDatabase();
        try (Connection c = DriverManager.getConnection(spec.jdbcUrl()); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE seats (id VARCHAR(64) PRIMARY KEY, workspace_id VARCHAR(255) NOT NULL,"
                    + " user_id VARCHAR(255) NOT NULL, role VARCHAR(32) NOT NULL, created_at BIGINT NOT NULL,"
                    + " idempotency_key VARCHAR(255), CONSTRAINT seats_one_per_key UNIQUE (idempotency_key))");
            s.execute("INSERT INTO seats VALUES ('s-old', 'ws', 'u', 'member', 0, 'k-old')");
            assertEquals(1, uniqueConstraintsOnSeats(s));
        }

        try (SeatStore store = JdbcSeatStore.open(spec, 2)) {
            assertEquals("s-old", store.find("s-old").orElseThrow().id());
            assertTrue(store.grant("k-new", "h", new Seat("s-new", "ws", "u2", "member", Instant.EPOCH), Instant.EPOCH)
                    .join());
            assertEquals(2, store.ledger().seats());
        }
        try (Connection c = DriverManager.getConnection(spec.jdbcUrl()); Statement s = c.createStatement()) {
            assertEquals(0, uniqueConstraintsOnSeats(s));
        }
    }

    private static int uniqueConstraintsOnSeats(Statement s) throws SQLException {
        try (ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM INFORMATION_SCHEMA.TABLE_CONSTRAINTS"
                + " WHERE TABLE_NAME = 'SEATS' AND CONSTRAINT_TYPE = 'UNIQUE'")) {
            rs.next();
            return rs.getInt(1);
        }
    }
}
