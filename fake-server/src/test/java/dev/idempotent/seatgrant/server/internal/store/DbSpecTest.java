package dev.idempotent.seatgrant.server.internal.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Reading a {@code --db} value: which engine, which file, and what is refused, with which words. */
class DbSpecTest {

    @TempDir
    Path dir;

    @Test
    void eachFormNamesItsEngineAndFile() {
        Path seats = dir.resolve("seats");

        DbSpec bare = DbSpec.parse(seats.toString());
        assertEquals(DbSpec.Kind.SQLITE, bare.kind());
        assertEquals(seats, bare.file());
        assertEquals(dir.resolve("seats.sqlite"), bare.storeFile());
        assertEquals("SQLite file " + dir.resolve("seats.sqlite"), bare.description());
        assertTrue(bare.jdbcUrl().startsWith("jdbc:sqlite:" + dir.resolve("seats.sqlite") + "?journal_mode=WAL"
                + "&synchronous=NORMAL&busy_timeout="), bare.jdbcUrl());

        DbSpec h2 = DbSpec.parse("h2:" + seats);
        assertEquals(DbSpec.Kind.H2, h2.kind());
        assertEquals(dir.resolve("seats.mv.db"), h2.storeFile());
        assertTrue(h2.jdbcUrl().startsWith("jdbc:h2:file:" + seats + ";"), h2.jdbcUrl());
        assertEquals("H2 file " + dir.resolve("seats.mv.db"), h2.description());

        assertEquals(dir.resolve("seats.sqlite"), DbSpec.parse("SQLITE:" + seats + ".sqlite").storeFile());
        assertEquals(dir.resolve("seats.mv.db"), DbSpec.parse("h2:" + seats + ".mv.db").storeFile());
        assertEquals(dir.resolve(".sqlite.sqlite"), DbSpec.parse("sqlite:" + dir.resolve(".sqlite")).storeFile(),
                "a name that is only the extension is a name");
        assertEquals(dir.resolve("seats").resolve("seats.sqlite"), DbSpec.parse(dir + "/seats/").storeFile());
    }

    @Test
    void memAndUrlsAreTakenAsGiven() {
        DbSpec mem = DbSpec.parse("MEM");
        assertEquals(DbSpec.Kind.MEMORY, mem.kind());
        assertNull(mem.jdbcUrl());
        assertNull(mem.storeFile());

        assertEquals(DbSpec.Kind.SQLITE, DbSpec.parse("jdbc:sqlite:/x/y.db").kind());
        assertEquals("jdbc:sqlite:/x/y.db", DbSpec.parse("jdbc:sqlite:/x/y.db").jdbcUrl());
        assertEquals(DbSpec.Kind.H2, DbSpec.parse("jdbc:h2:mem:x").kind());
        assertEquals(DbSpec.Kind.POSTGRESQL, DbSpec.parse("jdbc:postgresql://db/seats").kind());
        assertEquals("PostgreSQL", DbSpec.parse("jdbc:postgresql://db/seats?password=S3CRET").description());
        assertNull(DbSpec.parse("jdbc:postgresql://db/seats").storeFile());
    }

    @ParameterizedTest
    @ValueSource(strings = {"postgresql://u:S3CRET@db/seats", "postgres://u:S3CRET@db/seats", "POSTGRESQL:seats"})
    void aPostgresqlUrlWithoutJdbcGetsTheJdbcSpelling(String value) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> DbSpec.parse(value));

        assertEquals("--db: a PostgreSQL URL needs the JDBC form: "
                + "jdbc:postgresql://HOST:PORT/DB?user=USER&password=PASSWORD", e.getMessage());
    }

    @ParameterizedTest
    @ValueSource(strings = {"mysql://u:S3CRET@db/seats", "file://x/y", "jdbc:mysql://db/x", "jdbc:postgres://db/x"})
    void otherUrlsAreRefusedAndNeverRepeated(String value) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> DbSpec.parse(value));

        assertTrue(e.getMessage().contains("jdbc:postgresql:"), e.getMessage());
        assertFalse(e.getMessage().contains("S3CRET") || e.getMessage().contains("db/"), e.getMessage());
    }

    @ParameterizedTest
    @ValueSource(strings = {"", " ", "sqlite:", "h2:", "/x/a;b", "sqlite:/x/a?b", "h2:/x/a?b", "/x/a\u0001b", "~bob/x"})
    void unusablePathsAreRefused(String value) {
        assertThrows(IllegalArgumentException.class, () -> DbSpec.parse(value));
    }

    @Test
    void anOldH2FileAtABarePathIsNotHiddenByAnEmptySqliteStore() throws Exception {
        Path seats = dir.resolve("seats");
        Files.writeString(dir.resolve("seats.mv.db"), "old");

        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> DbSpec.parse(seats.toString()));
        assertEquals("--db: " + dir.resolve("seats.mv.db") + " is an H2 store made by an earlier version; start with"
                + " --db h2:" + seats + " to keep using it (a bare path now means SQLite)", e.getMessage());
        assertEquals(DbSpec.Kind.SQLITE, DbSpec.parse("sqlite:" + seats).kind(), "named, SQLite is SQLite");

        Files.writeString(dir.resolve("seats.sqlite"), "");
        assertEquals(DbSpec.Kind.SQLITE, DbSpec.parse(seats.toString()).kind(), "a SQLite store beside it wins");
    }
}
