package dev.idempotent.seatgrant.server.internal.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idempotent.seatgrant.server.FaultPlan;
import dev.idempotent.seatgrant.server.Main;
import dev.idempotent.seatgrant.server.ProxyConfig;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@code proxy}'s command line: every flag, the defaults, help, and one line with exit code 2 for anything wrong. */
class ProxyCommandTest {

    private record Run(int code, String out, String err) { }

    private static Run main(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = Main.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void everyFlagLandsInTheConfig() throws Exception {
        ProxyCommand.Options options = ProxyCommand.parse(List.of("--port", "9091", "--host=0.0.0.0",
                "--scenario", "incident", "--route", "post /orders", "--operation", "header:X-Request-Id",
                "--created", "json:/id", "--upstream-timeout", "5s", "--max-body", "64KiB", "--admin-token", "t0k",
                "--header-timeout", "2s", "--body-timeout", "3s", "--idle-timeout", "4s", "--max-connections", "50",
                "--journal-capacity", "10", "--allowed-host", "fake-proxy", "--allowed-host=Other.Example",
                "--upstream", "http://127.0.0.1:9000/api"), null);

        ProxyConfig config = options.config();
        assertEquals(URI.create("http://127.0.0.1:9000/api"), config.upstream());
        assertEquals(9091, config.port());
        assertEquals("0.0.0.0", config.host());
        assertEquals(FaultPlan.scenario("incident").onRoute("POST", "/orders"), config.faultPlan());
        assertEquals("POST", config.routeMethod());
        assertEquals("/orders", config.routePath());
        assertEquals("header:X-Request-Id", config.operation());
        assertEquals("json:/id", config.created());
        assertEquals(Duration.ofSeconds(5), config.upstreamTimeout());
        assertEquals(64 * 1024, config.maxBody());
        assertEquals("t0k", config.adminToken());
        assertEquals(Duration.ofSeconds(2), config.headerTimeout());
        assertEquals(Duration.ofSeconds(3), config.bodyTimeout());
        assertEquals(Duration.ofSeconds(4), config.idleTimeout());
        assertEquals(50, config.maxConnections());
        assertEquals(10, config.journalCapacity());
        assertEquals(List.of("fake-proxy", "other.example"), config.allowedHosts());
        assertEquals("scenario incident on POST /orders", options.faultSource());
    }

    @Test
    void theDefaultsAreTheIssues(@TempDir Path dir) throws Exception {
        ProxyConfig config = ProxyCommand.parse(List.of("--upstream", "http://localhost:9000"), null).config();

        assertEquals(0, config.port());
        assertEquals("127.0.0.1", config.host());
        assertEquals(FaultPlan.none(), config.faultPlan());
        assertEquals("header:Idempotency-Key", config.operation());
        assertEquals("header:Location", config.created());
        assertEquals(Duration.ofSeconds(30), config.upstreamTimeout());
        assertEquals(1024 * 1024, config.maxBody());
        assertNull(config.adminToken());
        assertNull(config.routeMethod());
        assertEquals("from-env", ProxyCommand.parse(List.of("--upstream", "http://localhost:9000"), "from-env")
                .config().adminToken());
        Path plan = dir.resolve("plan.json");
        Files.writeString(plan, "{\"rules\":[{\"path\":\"/orders\",\"fault\":\"close-after-commit\"}]}");
        ProxyCommand.Options fromFile = ProxyCommand.parse(List.of("--upstream", "http://localhost:9000",
                "--fault-plan", plan.toString()), null);
        assertEquals(FaultPlan.parse(Files.readString(plan)), fromFile.config().faultPlan());
        assertEquals("plan plan.json", fromFile.faultSource());
    }

    @ParameterizedTest
    @ValueSource(strings = {"--bogus", "--port=x", "--port=70000", "--scenario=nope", "--route=orders",
        "--route=POST", "--operation=header:Authorization", "--operation=header:Cookie", "--operation=body",
        "--created=json:id", "--created=location", "--upstream-timeout=30", "--max-body=1GiB", "--max-body=65MiB",
        "--max-body=0", "--fault-plan=/no/such/file.json", "--admin-token= padded", "--admin-token=t\u00e9",
        "--allowed-host=fake-proxy:8080", "stray",
        "--upstream=http://127.0.0.1:9"})
    void aBadFlagIsOneLineAndExitCode2(String flag) {
        assertOneLineExit2(main("proxy", "--upstream", "http://127.0.0.1:9", flag));
    }

    @ParameterizedTest
    @ValueSource(strings = {"https://x:1", "http://x:1/?token=q", "http://x:1/#top", "not a url", "/relative",
        "http://:9/", "ftp://x/"})
    void anUpstreamThatIsNotAnHttpUrlIsOneLineAndExitCode2(String upstream) {
        Run run = main("proxy", "--upstream", upstream);

        assertOneLineExit2(run);
        assertTrue(run.err().contains("--upstream"), run.err());
    }

    private static void assertOneLineExit2(Run run) {
        assertEquals(2, run.code(), run.err());
        assertEquals("", run.out());
        assertEquals(1, run.err().strip().lines().count(), run.err());
        assertTrue(run.err().startsWith("fake-server proxy: "), run.err());
    }

    @ParameterizedTest
    @ValueSource(strings = {"proxy", "serve", "reproduce", "grade"})
    void aMistypedFlagIsNamedWithoutItsValue(String command) {
        // One dash, so not split at '=': before, the whole token (secret and all) was quoted back on stderr.
        Run run = main(command, "-admin-token=s3cret-value", "--upstream", "http://127.0.0.1:9");

        assertEquals(2, run.code(), run.err());
        assertTrue(run.err().contains("unknown flag -admin-token=..."), run.err());
        assertTrue(!run.err().contains("s3cret-value") && !run.out().contains("s3cret-value"), run.err());
    }

    @Test
    void theUpstreamIsRequiredAndItsQueryIsNeverQuoted() {
        Run missing = main("proxy", "--port", "0");
        Run withQuery = main("proxy", "--upstream", "http://u:pw-secret@127.0.0.1:9/?token=query-secret");

        assertEquals(2, missing.code());
        assertTrue(missing.err().contains("--upstream URL is required"), missing.err());
        assertEquals(2, withQuery.code());
        assertTrue(!withQuery.err().contains("secret"), withQuery.err());
    }

    @Test
    void aScenarioWithoutARouteIsRefusedSayingHowToAimIt() {
        Run run = main("proxy", "--upstream", "http://127.0.0.1:9", "--scenario", "incident");

        assertEquals(2, run.code());
        assertTrue(run.err().contains("--scenario needs --route 'METHOD /path'"), run.err());
        assertTrue(run.err().contains("--route 'POST /v1/seats'"), run.err());
    }

    @Test
    void anOperationHeaderThatCarriesCredentialsIsRefusedNamingWhy() {
        Run run = main("proxy", "--upstream", "http://127.0.0.1:9", "--operation", "header:authorization");

        assertEquals(2, run.code());
        assertTrue(run.err().contains("credential"), run.err());
    }

    @Test
    void anUpstreamThatCannotBeResolvedIsExitCode1NamingTheHostOnly() {
        Run run = main("proxy", "--upstream", "http://u:pw-secret@no-such-host.invalid:9000");

        assertEquals(1, run.code());
        assertEquals("fake-server proxy: cannot start: cannot resolve the upstream's host no-such-host.invalid",
                run.err().strip());
    }

    @Test
    void helpAndVersion() {
        Run help = main("--help");
        Run proxyHelp = main("proxy", "--help");
        Run proxyVersion = main("proxy", "--version");

        assertTrue(help.out().contains("proxy"), help.out());
        assertEquals(0, proxyHelp.code());
        for (String flag : List.of("--upstream", "--port", "--host", "--scenario", "--route", "--fault-plan",
                "--operation", "--created", "--upstream-timeout", "--max-body", "--admin-token", "--header-timeout",
                "--body-timeout", "--idle-timeout", "--max-connections", "--journal-capacity", "--help",
                "--version")) {
            assertTrue(proxyHelp.out().contains(flag), flag);
        }
        assertEquals(0, proxyVersion.code());
        assertEquals(main("--version").out(), proxyVersion.out());
    }
}
