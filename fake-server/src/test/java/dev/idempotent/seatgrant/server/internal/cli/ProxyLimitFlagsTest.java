package dev.idempotent.seatgrant.server.internal.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idempotent.seatgrant.server.ProxyConfig;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@code proxy}'s bounds on what it holds: {@code --max-upstream-connections} and {@code --max-in-flight}. */
class ProxyLimitFlagsTest {

    private static ProxyConfig parse(String... flags) throws UsageException {
        List<String> args = new ArrayList<>(List.of("--upstream", "http://127.0.0.1:9000"));
        args.addAll(List.of(flags));
        return ProxyCommand.parse(args, null).config();
    }

    @Test
    void theFlagsLandInTheConfigAndTheDefaultsAre256And64MiB() throws Exception {
        ProxyConfig set = parse("--max-upstream-connections", "3", "--max-in-flight=2MiB");
        ProxyConfig defaults = parse();

        assertEquals(3, set.maxUpstreamConnections());
        assertEquals(2L * 1024 * 1024, set.maxInFlightBytes());
        assertEquals(256, defaults.maxUpstreamConnections());
        assertEquals(64L * 1024 * 1024, defaults.maxInFlightBytes());
        assertEquals(3, set.toBuilder().build().maxUpstreamConnections(), "toBuilder keeps them");
        assertEquals(2L * 1024 * 1024, set.toBuilder().build().maxInFlightBytes());
    }

    @ParameterizedTest
    @ValueSource(strings = {"--max-upstream-connections=0", "--max-upstream-connections=10001",
        "--max-upstream-connections=x", "--max-in-flight=0", "--max-in-flight=2GiB", "--max-in-flight=1025MiB",
        "--max-in-flight=lots"})
    void aBadValueIsAUsageError(String flag) {
        assertThrows(UsageException.class, () -> parse(flag));
    }

    @Test
    void anInFlightLimitUnderTheBodyLimitIsAUsageErrorNamingBoth() {
        UsageException e = assertThrows(UsageException.class,
                () -> parse("--max-body", "2MiB", "--max-in-flight", "1MiB"));

        assertTrue(e.getMessage().contains("--max-in-flight") && e.getMessage().contains("--max-body"),
                e.getMessage());
    }

    @Test
    void helpNamesBoth() {
        assertTrue(ProxyCommand.USAGE.contains("--max-upstream-connections N"), ProxyCommand.USAGE);
        assertTrue(ProxyCommand.USAGE.contains("--max-in-flight SIZE"), ProxyCommand.USAGE);
    }
}
