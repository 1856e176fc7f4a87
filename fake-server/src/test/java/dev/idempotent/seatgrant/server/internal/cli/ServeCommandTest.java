package dev.idempotent.seatgrant.server.internal.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idempotent.seatgrant.server.FaultPlan;
import dev.idempotent.seatgrant.server.Main;
import dev.idempotent.seatgrant.server.ReplayStatus;
import dev.idempotent.seatgrant.server.ServerConfig;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The command line: flags, help, version, and a one-line error with exit code 2 for anything wrong. */
class ServeCommandTest {

    private record Run(int code, String out, String err) { }

    private static Run main(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = Main.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void everyFlagLandsInTheConfig(@TempDir Path dir) throws Exception {
        Path plan = dir.resolve("plan.json");
        Files.writeString(plan, "{\"rules\":[{\"fault\":\"close\"}]}");

        ServeCommand.Options options = ServeCommand.parse(List.of("--port", "9090", "--host=0.0.0.0", "--db", "mem",
                "--fault-plan", plan.toString(), "--replay-status", "original", "--require-key",
                "--admin-token", "t0k"), null);

        ServerConfig config = options.config();
        assertEquals(9090, config.port());
        assertEquals("0.0.0.0", config.host());
        assertEquals("mem", config.db());
        assertEquals(FaultPlan.parse("{\"rules\":[{\"fault\":\"close\"}]}"), config.faultPlan());
        assertEquals(ReplayStatus.ORIGINAL, config.replayStatus());
        assertTrue(config.requireKey());
        assertEquals("t0k", config.adminToken());
    }

    @Test
    void theDefaultsAreTheIssues() throws Exception {
        ServerConfig config = ServeCommand.parse(List.of(), null).config();

        assertEquals(8080, config.port());
        assertEquals("127.0.0.1", config.host());
        assertEquals("./fake-server-data/seats", config.db());
        assertEquals(FaultPlan.none(), config.faultPlan());
        assertEquals(ReplayStatus.CONFLICT, config.replayStatus());
        assertFalse(config.requireKey());
        assertEquals(null, config.adminToken());
        assertEquals(FaultPlan.scenario("incident"),
                ServeCommand.parse(List.of("--scenario", "incident"), null).config().faultPlan());
        assertEquals("from-env", ServeCommand.parse(List.of(), "from-env").config().adminToken());
    }

    @Test
    void aPortInUseIsSaidInOneLineWithTheWayOut() throws Exception {
        try (java.net.ServerSocket taken = new java.net.ServerSocket(0, 1, java.net.InetAddress.getByName("127.0.0.1"))) {
            int port = taken.getLocalPort();

            Run run = main("serve", "--db", "mem", "--port", String.valueOf(port));

            assertEquals(1, run.code());
            assertEquals(List.of("fake-server: cannot start: port " + port + " on 127.0.0.1 is already in use "
                    + "(another fake-server, or any other program, is listening there); stop it, or choose another "
                    + "port: --port N, or --port 0 for any free port (the line it prints names the one it got)"),
                    run.err().lines().toList());
            assertEquals("", run.out());
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"--bogus", "--port=x", "--port=70000", "--port", "--scenario=nope",
        "--replay-status=200", "--db=jdbc:mysql://x", "--fault-plan=/no/such/file.json", "stray"})
    void aBadFlagIsOneLineAndExitCode2(String flag) {
        Run run = main("serve", flag);

        assertEquals(2, run.code());
        assertEquals("", run.out());
        assertEquals(1, run.err().strip().lines().count(), run.err());
        assertTrue(run.err().startsWith("fake-server serve: "), run.err());
    }

    @Test
    void scenarioAndFaultPlanTogetherAreRefused() {
        Run run = main("serve", "--scenario", "reset", "--fault-plan", "x.json");

        assertEquals(2, run.code());
        assertTrue(run.err().contains("not both"), run.err());
    }

    @Test
    void helpAndVersion() {
        Run help = main("--help");
        Run serveHelp = main("serve", "--help");
        Run version = main("--version");
        Run serveVersion = main("serve", "--version");

        assertEquals(0, help.code());
        assertTrue(help.out().contains("serve"));
        assertEquals(0, serveHelp.code());
        for (String flag : List.of("--port", "--host", "--db", "--scenario", "--fault-plan", "--replay-status",
                "--require-key", "--admin-token", "--help")) {
            assertTrue(serveHelp.out().contains(flag), flag);
        }
        assertEquals(0, version.code());
        assertTrue(version.out().matches("fake-server \\d+\\.\\d+\\.\\d+.*\\R"), version.out());
        assertEquals(0, serveVersion.code());
        assertEquals(version.out(), serveVersion.out());
        assertTrue(serveHelp.out().contains("--version"));
    }

    @Test
    void anUnknownCommandOrNoneIsExitCode2() {
        assertEquals(2, main("reproduce-everything").code());
        assertEquals(2, main().code());
    }
}
