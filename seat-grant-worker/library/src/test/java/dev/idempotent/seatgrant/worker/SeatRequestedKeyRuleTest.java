package dev.idempotent.seatgrant.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A requestId that starts with {@code "} is refused at the edge (issue 35): the seat server reads such an
 * Idempotency-Key as an RFC 8941 sf-string, so it would dedupe the grant under another key ({@code "r1"} as
 * {@code r1}) or refuse it. A quote anywhere else is an ordinary character. The server's side of the rule, and their
 * agreement, is fake-server's {@code consumer.IdRuleAgreementTest}.
 */
class SeatRequestedKeyRuleTest {

    @ParameterizedTest
    @ValueSource(strings = {"\"r1\"", "\"", "\"open", "\"\\\"r1\""})
    void aRequestIdThatStartsWithADoubleQuoteIsRefusedNamingTheRuleNotTheValue(String requestId) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new SeatRequested(requestId, "ws_1", "u_1"));
        assertEquals("requestId must not start with a double quote (\")", e.getMessage());
        assertFalse(e.getMessage().contains("r1") || e.getMessage().contains("open"), e.getMessage());
    }

    @ParameterizedTest
    @ValueSource(strings = {"r\"1", "r1\"", "x\"y\""})
    void aDoubleQuoteAfterTheFirstCharacterIsKept(String requestId) {
        assertEquals(requestId, new SeatRequested(requestId, "ws_1", "u_1").requestId());
    }
}
