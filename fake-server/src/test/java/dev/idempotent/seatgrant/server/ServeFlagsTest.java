package dev.idempotent.seatgrant.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idempotent.seatgrant.server.internal.cli.ServeCommand;
import dev.idempotent.seatgrant.server.internal.store.DbSpec;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The flags issue 8 added or tightened: the limits and timeouts (one duration grammar), the base path, the
 * journal's bound, a padded admin token, and {@code --db} values that are file paths and nothing else.
 */
class ServeFlagsTest {

    private record Run(int code, String out, String err) { }

    private static Run main(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = Main.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void theNewFlagsLandInTheConfig() throws Exception {
        ServerConfig config = ServeCommand.parse(List.of("--header-timeout", "250ms", "--body-timeout=3s",
                "--idle-timeout", "2m", "--max-connections", "1200", "--journal-capacity", "500",
                "--base-path", "/t/tok_abc"), null).config();

        assertEquals(Duration.ofMillis(250), config.headerTimeout());
        assertEquals(Duration.ofSeconds(3), config.bodyTimeout());
        assertEquals(Duration.ofMinutes(2), config.idleTimeout());
        assertEquals(1200, config.maxConnections());
        assertEquals(500, config.journalCapacity());
        assertEquals("/t/tok_abc", config.basePath());
    }

    @Test
    void theDefaultsAreSane() throws Exception {
        ServerConfig config = ServeCommand.parse(List.of(), null).config();

        assertEquals(Duration.ofSeconds(10), config.headerTimeout());
        assertEquals(Duration.ofSeconds(30), config.bodyTimeout());
        assertEquals(Duration.ofSeconds(60), config.idleTimeout());
        assertTrue(config.maxConnections() > 1_100, "room for 1,000 hung connections plus load");
        assertEquals(100_000, config.journalCapacity());
        assertEquals("", config.basePath());
    }

    @ParameterizedTest
    @ValueSource(strings = {"--header-timeout=10", "--body-timeout=1h", "--idle-timeout=0s", "--idle-timeout=-1s",
        "--header-timeout=1.5s", "--max-connections=0", "--max-connections=x", "--journal-capacity=0",
        "--base-path=t", "--base-path=/t/", "--admin-token= padded ", "--db=/tmp/x/inj;INIT=RUNSCRIPT FROM 'e.sql'",
        "--db=~someone/seats"})
    void aBadValueIsOneLineAndExitCode2(String flag) {
        Run run = main("serve", flag);

        assertEquals(2, run.code(), run.err());
        assertEquals("", run.out());
        assertEquals(1, run.err().strip().lines().count(), run.err());
        assertTrue(run.err().startsWith("fake-server serve: "), run.err());
        assertFalse(run.err().contains("padded"), "a token is never echoed");
    }

    @ParameterizedTest
    @ValueSource(strings = {"t\u00f6k\u00e9n", "caf\u00e9", "euro\u20ac", "tab\tin", "ctl\u0001x", "del\u007fx",
        "two words", "\u4e2d\u6587"})
    void aTokenThatIsNotVisibleAsciiIsRefusedAtStartWithOneLine(String token) {
        // Issue 20 item 7: no client could present it (a browser sends a header in Latin-1, a UTF-8 client in UTF-8;
        // HTTP strips surrounding whitespace), so the page would say "Cannot reach the server" forever. Before: served.
        try {
            ServeCommand.parse(List.of(), token);
            throw new AssertionError("FAKE_SERVER_ADMIN_TOKEN accepted a token no client could present");
        } catch (dev.idempotent.seatgrant.server.internal.cli.UsageException e) {
            assertTrue(e.getMessage().startsWith("FAKE_SERVER_ADMIN_TOKEN: admin token must be visible ASCII"),
                    e.getMessage());
        }

        // A --port refused after it: were the token accepted, the run would still end (exit 2), not serve.
        Run run = main("serve", "--db", "mem", "--admin-token", token, "--port", "-1");

        assertEquals(2, run.code(), run.err());
        assertEquals("", run.out());
        assertEquals(1, run.err().strip().lines().count(), run.err());
        assertTrue(run.err().startsWith("fake-server serve: --admin-token: admin token must be visible ASCII"),
                run.err());
        assertFalse(run.err().contains(token), "a token is never echoed");
    }

    @Test
    void everyVisibleAsciiCharacterMayBeInAToken() throws Exception {
        StringBuilder all = new StringBuilder();
        for (char c = 0x21; c <= 0x7E; c++) {
            all.append(c);
        }
        assertEquals(all.toString(), ServeCommand.parse(List.of("--admin-token", all.toString()), null).config()
                .adminToken());
    }

    @Test
    void allowedHostsAreRepeatableAndLandInTheConfig() throws Exception {
        ServerConfig config = ServeCommand.parse(List.of("--allowed-host", "fake-server", "--allowed-host=Seats.Example",
                "--allowed-host", "::1", "--allowed-host", "10.0.0.7"), null).config();

        assertEquals(List.of("fake-server", "seats.example", "[::1]", "10.0.0.7"), config.allowedHosts());
        assertEquals(List.of(), ServeCommand.parse(List.of(), null).config().allowedHosts());
    }

    @ParameterizedTest
    @ValueSource(strings = {"--allowed-host=fake-server:8080", "--allowed-host=a b", "--allowed-host=x/y",
        "--allowed-host=", "--allowed-host=user@host"})
    void aBadAllowedHostIsOneLineAndExitCode2(String flag) {
        Run run = main("serve", "--db", "mem", flag, "--port", "-1");

        assertEquals(2, run.code(), run.err());
        assertEquals(1, run.err().strip().lines().count(), run.err());
        assertTrue(run.err().startsWith("fake-server serve: --allowed-host"), run.err());
    }

    @Test
    void aPaddedTokenFromTheEnvironmentIsRefusedToo() {
        try {
            ServeCommand.parse(List.of(), " padded ");
            throw new AssertionError("a padded token was accepted");
        } catch (dev.idempotent.seatgrant.server.internal.cli.UsageException e) {
            assertTrue(e.getMessage().startsWith("FAKE_SERVER_ADMIN_TOKEN"), e.getMessage());
        }
    }

    @Test
    void aFilePathIsAPathAndNothingElse(@TempDir Path dir) throws Exception {
        DbSpec home = DbSpec.parse("~/seats-x");
        assertEquals(Path.of(System.getProperty("user.home"), "seats-x"), home.file());

        DbSpec trailing = DbSpec.parse(dir + "/");
        assertEquals(dir.toAbsolutePath().resolve("seats"), trailing.file());
        DbSpec existing = DbSpec.parse(dir.toString());
        assertEquals(dir.toAbsolutePath().resolve("seats"), existing.file());

        DbSpec explicit = DbSpec.parse("jdbc:h2:mem:x;MODE=PostgreSQL");
        assertTrue(explicit.jdbcUrl().startsWith("jdbc:h2:mem:x;MODE=PostgreSQL"), "an explicit URL stays as given");
    }

    @Test
    void aFileTheStoreCannotUseExits1WithOneLineNamingTheCause(@TempDir Path dir) throws Exception {
        byte[] junk = new byte[40_000];
        new java.util.Random(7).nextBytes(junk);
        Files.write(dir.resolve("bad.mv.db"), junk);
        Files.write(dir.resolve("bad.sqlite"), junk);

        for (String[] db : new String[][] {{"h2:" + dir.resolve("bad"), "corrupt"},
            {"sqlite:" + dir.resolve("bad"), "not a database"}, {"/proc/nope/seats", "/proc/nope"}}) {
            Process p = JavaProcess.start(Main.class, List.of(), List.of("serve", "--port", "0", "--db", db[0]),
                    ProcessBuilder.Redirect.PIPE);
            assertTrue(p.waitFor(60, TimeUnit.SECONDS), "exits by itself");
            String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
            assertEquals(1, p.exitValue(), err);
            assertEquals(1, err.strip().lines().count(), err);
            assertTrue(err.startsWith("fake-server: cannot start: "), err);
            assertTrue(err.contains(db[1]), err);
            assertFalse(err.contains("\tat ") || err.contains("PoolInitializationException"), err);
        }
    }
}
