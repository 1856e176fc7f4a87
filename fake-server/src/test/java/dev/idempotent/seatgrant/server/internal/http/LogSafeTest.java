package dev.idempotent.seatgrant.server.internal.http;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** A path in a log line: control characters (a decoded %0A would forge a line) become ?, a long one is cut. */
class LogSafeTest {

    @Test
    void controlCharactersBecomeQuestionMarks() {
        assertEquals("/v1/seats?fake line?", LogSafe.path("/v1/seats\nfake line\u0007"));
        assertEquals("/v1/?seats?", LogSafe.path("/v1/\rseats\u0000"));
    }

    @Test
    void aPathLongerThanAScreenLineIsCut() {
        String longPath = "/" + "a".repeat(100);
        assertEquals(longPath.substring(0, 80) + "...", LogSafe.path(longPath));
        assertEquals("/v1/seats", LogSafe.path("/v1/seats"));
    }
}
