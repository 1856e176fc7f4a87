package dev.idempotent.seatgrant.server.internal.store;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/**
 * A database store asked for without its optional libraries names the ones to add; the consumer build
 * ({@code src/it/consumer}) shows the same on a real classpath without them.
 */
class StoreDriversTest {

    @Test
    void aMissingDriverIsNamedByItsCoordinates() {
        StoreException e = assertThrows(StoreException.class,
                () -> StoreDrivers.require(DbSpec.Kind.SQLITE, name -> !name.startsWith("org.sqlite.")));

        assertEquals("the SQLite store needs org.xerial:sqlite-jdbc on the classpath, which fake-server declares "
                + "optional: add it to your build (the runnable fake-server.jar has them), or use the in-memory "
                + "store (--db mem)", e.getMessage());
    }

    @Test
    void aMissingPoolIsNamedWithTheDriver() {
        StoreException e = assertThrows(StoreException.class,
                () -> StoreDrivers.require(DbSpec.Kind.POSTGRESQL, name -> false));

        assertEquals("the PostgreSQL store needs org.postgresql:postgresql and com.zaxxer:HikariCP on the classpath,"
                + " which fake-server declares optional: add them to your build (the runnable fake-server.jar has "
                + "them), or use the in-memory store (--db mem)", e.getMessage());
    }

    @Test
    void everyEngineOnThisClasspathHasWhatItNeeds() {
        for (DbSpec.Kind kind : new DbSpec.Kind[] {DbSpec.Kind.H2, DbSpec.Kind.SQLITE, DbSpec.Kind.POSTGRESQL}) {
            assertDoesNotThrow(() -> StoreDrivers.require(kind));
        }
        StoreException e = assertThrows(StoreException.class,
                () -> StoreDrivers.require(DbSpec.Kind.H2, name -> !name.equals("com.zaxxer.hikari.HikariDataSource")));
        assertEquals("the H2 store needs com.zaxxer:HikariCP on the classpath, which fake-server declares optional: "
                + "add it to your build (the runnable fake-server.jar has them), or use the in-memory store "
                + "(--db mem)", e.getMessage());
    }
}
