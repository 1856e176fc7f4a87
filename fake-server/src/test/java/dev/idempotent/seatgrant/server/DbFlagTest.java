package dev.idempotent.seatgrant.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idempotent.seatgrant.server.internal.cli.ServeCommand;
import dev.idempotent.seatgrant.server.internal.cli.UsageException;
import dev.idempotent.seatgrant.server.internal.store.DbSpec;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The {@code --db} values of issue 25 and issue 22 item 11: engine prefixes, a bare path meaning the default
 * engine, the old H2 file a changed default must not hide, a URL of another kind refused with the spelling that
 * works, and an unreachable PostgreSQL named by its address, never by the pool's exception or the password.
 */
class DbFlagTest {

    @TempDir
    Path dir;

    private record Run(int code, String out, String err) { }

    private static Run main(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = Main.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void anEnginePrefixChoosesTheEngineAndABarePathMeansSqlite() {
        Path seats = dir.resolve("seats");

        assertEquals(DbSpec.Kind.SQLITE, DbSpec.parse(seats.toString()).kind());
        assertEquals(dir.resolve("seats.sqlite"), DbSpec.parse(seats.toString()).storeFile());
        assertEquals(dir.resolve("seats.sqlite"), DbSpec.parse("sqlite:" + seats).storeFile());
        assertEquals(dir.resolve("seats.sqlite"), DbSpec.parse("sqlite:" + seats + ".sqlite").storeFile(),
                "the file's own name is not extended twice");
        assertEquals(DbSpec.Kind.H2, DbSpec.parse("h2:" + seats).kind());
        assertEquals(dir.resolve("seats.mv.db"), DbSpec.parse("h2:" + seats).storeFile());
        assertEquals(dir.resolve("seats.mv.db"), DbSpec.parse("h2:" + seats + ".mv.db").storeFile());
        assertEquals(DbSpec.Kind.MEMORY, DbSpec.parse("mem").kind());
    }

    @Test
    void anOldH2FileAtABarePathStopsWithOneLineNamingTheH2Spelling() throws Exception {
        Path seats = dir.resolve("seats");
        Files.writeString(dir.resolve("seats.mv.db"), "an H2 store of an earlier version");

        UsageException refused = assertThrows(UsageException.class,
                () -> ServeCommand.parse(List.of("--db", seats.toString()), null));
        assertTrue(refused.getMessage().contains("--db h2:" + seats), refused.getMessage());

        Run run = main("serve", "--port", "0", "--db", seats.toString());
        assertEquals(2, run.code(), run.err());
        assertEquals(1, run.err().strip().lines().count(), run.err());
        assertFalse(Files.exists(dir.resolve("seats.sqlite")), "no empty SQLite store beside it");
        // Named explicitly, the old store is used, and a SQLite file made since is preferred by a bare path.
        assertEquals(DbSpec.Kind.H2, DbSpec.parse("h2:" + seats).kind());
        Files.writeString(dir.resolve("seats.sqlite"), "");
        assertEquals(DbSpec.Kind.SQLITE, DbSpec.parse(seats.toString()).kind());
    }

    @ParameterizedTest
    @ValueSource(strings = {"postgresql://app:S3CRET@127.0.0.1:5432/seats", "postgres://app:S3CRET@db:5432/seats",
        "postgresql:seats?password=S3CRET"})
    void aPostgresqlUrlWithoutJdbcIsRefusedWithTheJdbcSpelling(String value) {
        UsageException refused = assertThrows(UsageException.class,
                () -> ServeCommand.parse(List.of("--db", value), null));

        assertTrue(refused.getMessage().contains("jdbc:postgresql://HOST:PORT/DB"), refused.getMessage());
        assertFalse(refused.getMessage().contains("S3CRET"), refused.getMessage());
    }

    @ParameterizedTest
    @ValueSource(strings = {"mysql://app:S3CRET@db/seats", "https://example.com/seats?token=S3CRET",
        "jdbc:postgres://db/seats?password=S3CRET"})
    void aUrlOfAnotherKindIsRefusedNotTakenForAFile(String value) {
        UsageException refused = assertThrows(UsageException.class,
                () -> ServeCommand.parse(List.of("--db", value), null));

        assertTrue(refused.getMessage().contains("jdbc:postgresql:"), refused.getMessage());
        assertFalse(refused.getMessage().contains("S3CRET"), refused.getMessage());
    }

    @Test
    void anUnreachablePostgresqlIsNamedByItsAddressAndNeverItsPassword() throws Exception {
        int port;
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort(); // closed again: nothing listens there
        }

        Run run = main("serve", "--port", "0", "--db",
                "jdbc:postgresql://127.0.0.1:" + port + "/seats?user=app&password=S3CRET");

        assertEquals(1, run.code(), run.err());
        assertEquals("fake-server: cannot start: cannot open the PostgreSQL store: connection refused to 127.0.0.1:"
                + port, run.err().strip());
        assertFalse(run.err().contains("S3CRET") || run.err().contains("PoolInitialization"), run.err());
    }

    @Test
    void aMissingPostgresqlDatabaseIsNamed() {
        String url = EmbeddedPostgresFixture.newDatabase().replaceFirst("/seats_\\d+", "/no_such_db");

        Run run = main("serve", "--port", "0", "--db", url);

        assertEquals(1, run.code(), run.err());
        assertTrue(run.err().strip().endsWith("has no database no_such_db"), run.err());
    }
}
