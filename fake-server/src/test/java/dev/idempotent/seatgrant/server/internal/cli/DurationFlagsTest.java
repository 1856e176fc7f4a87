package dev.idempotent.seatgrant.server.internal.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * One rule for every duration flag of every subcommand: a number with its unit ({@code ms}, {@code s}, {@code m}),
 * and a bare number refused with the forms that would be accepted, never read as seconds by one flag and refused by
 * another.
 */
class DurationFlagsTest {

    /** Parses {@code flag value} with the subcommand that owns the flag. */
    private static void parse(String flag, String value) throws UsageException {
        if (flag.equals("--timeout-per-delivery")) {
            GradeCommand.parse(List.of(flag, value, "--", "true"));
        } else {
            ServeCommand.parse(List.of(flag, value), null);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"--timeout-per-delivery", "--header-timeout", "--body-timeout", "--idle-timeout"})
    void aBareNumberIsRefusedWithTheAcceptedForms(String flag) {
        UsageException e = assertThrows(UsageException.class, () -> parse(flag, "5"));
        assertEquals(flag + " needs a unit: 5ms, 5s or 5m", e.getMessage());
    }

    @ParameterizedTest
    @ValueSource(strings = {"--timeout-per-delivery", "--header-timeout", "--body-timeout", "--idle-timeout"})
    void theSameFormsAreAcceptedEverywhere(String flag) throws Exception {
        List<String> refused = new ArrayList<>();
        for (String value : List.of("5s", "5000ms", "2m")) {
            try {
                parse(flag, value);
            } catch (UsageException e) {
                refused.add(value + ": " + e.getMessage());
            }
        }
        assertEquals(List.of(), refused);
        for (String value : List.of("5 s", "5sec", "1.5s", "5h", "-5s", "s")) {
            UsageException e = assertThrows(UsageException.class, () -> parse(flag, value), value);
            assertTrue(e.getMessage().equals(flag + " must be a duration like 250ms, 10s or 2m"), e.getMessage());
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"5s", "5000ms"})
    void theGradersTimeoutIsTheDurationItSays(String value) throws Exception {
        assertEquals(Duration.ofSeconds(5), GradeCommand.parse(List.of("--timeout-per-delivery", value, "--", "true"))
                .timeout());
    }

    @ParameterizedTest
    @ValueSource(strings = {"999ms", "11m"})
    void eachFlagKeepsItsOwnBoundsAndSaysThem(String value) {
        UsageException e = assertThrows(UsageException.class,
                () -> GradeCommand.parse(List.of("--timeout-per-delivery", value, "--", "true")));
        assertEquals("--timeout-per-delivery must be from 1s to 10m", e.getMessage());
    }
}
