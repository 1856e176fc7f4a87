package dev.idempotent.seatgrant.server.internal.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idempotent.seatgrant.server.Main;
import dev.idempotent.seatgrant.server.ProxyConfig;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code proxy}'s flags for operations whose body changes on every attempt (issue 33 item 7):
 * {@code --operation json:POINTER}, {@code --volatile-field} (repeatable) and {@code --suspect-window}.
 */
class ProxySuspectFlagsTest {

    @Test
    void theFlagsLandInTheConfigAndTheDefaultsAreNoFieldsAndTenSeconds() throws Exception {
        ProxyConfig config = ProxyCommand.parse(List.of("--upstream", "http://127.0.0.1:9000",
                "--operation", "json:/data/uid", "--volatile-field", "/stamp", "--volatile-field=/data/nonce",
                "--suspect-window", "3s"), null).config();
        ProxyConfig defaults = ProxyCommand.parse(List.of("--upstream", "http://127.0.0.1:9000"), null).config();

        assertEquals("json:/data/uid", config.operation());
        assertEquals(List.of("/stamp", "/data/nonce"), config.volatileFields());
        assertEquals(Duration.ofSeconds(3), config.suspectWindow());
        assertEquals(List.of(), defaults.volatileFields());
        assertEquals(Duration.ofSeconds(10), defaults.suspectWindow());
        assertEquals(config.volatileFields(), config.toBuilder().build().volatileFields());
        assertEquals(config.suspectWindow(), config.toBuilder().build().suspectWindow());
    }

    @ParameterizedTest
    @ValueSource(strings = {"--operation=json:id", "--operation=json:", "--volatile-field=stamp",
        "--volatile-field=", "--suspect-window=10", "--suspect-window=0s"})
    void aBadValueIsRefusedNamingTheFlag(String flag) {
        // Parsed, not run: a flag that were wrongly accepted would start a proxy that never returns.
        UsageException e = assertThrows(UsageException.class, () -> ProxyCommand.parse(
                List.of("--upstream", "http://127.0.0.1:9", flag), null));
        assertTrue(e.getMessage().startsWith(flag.split("=")[0]), e.getMessage());
        assertEquals(1, e.getMessage().lines().count(), e.getMessage());
    }

    @Test
    void aBadFlagThroughMainIsOneLineAndExitCode2() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = Main.run(new String[] {"proxy", "--upstream", "http://127.0.0.1:9", "--volatile-field", "stamp"},
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));

        String text = err.toString(StandardCharsets.UTF_8);
        assertEquals(2, code, text);
        assertEquals(1, text.lines().count(), text);
        assertTrue(text.contains("--volatile-field"), text);
    }

    @Test
    void theHelpNamesThem() throws Exception {
        for (String words : List.of("--volatile-field", "--suspect-window", "json:POINTER")) {
            assertTrue(ProxyCommand.USAGE.contains(words), words);
        }
    }
}
