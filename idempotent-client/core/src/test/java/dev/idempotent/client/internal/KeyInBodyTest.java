package dev.idempotent.client.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The key is spliced into the caller's JSON text: each case states the exact bytes sent, so a writer that re-serialised
 * the body, dropped a comma or lost a byte would fail; refusals name the pointer and never a value.
 */
class KeyInBodyTest {

    private static byte[] write(String pointer, String body, String key) {
        return new KeyInBody(pointer).write(body.getBytes(StandardCharsets.UTF_8), key);
    }

    static Stream<Arguments> spliced() {
        return Stream.of(
                Arguments.of("/idempotency_key", "{\"amount\": 1.50 }", "k1",
                        "{\"amount\": 1.50 ,\"idempotency_key\":\"k1\"}"),
                Arguments.of("/idempotency_key", "{}", "k1", "{\"idempotency_key\":\"k1\"}"),
                Arguments.of("/idempotency_key", " {\n} ", "k1", " {\n\"idempotency_key\":\"k1\"} "),
                // A member holding the key already: sent as written.
                Arguments.of("/idempotency_key", "{ \"idempotency_key\" : \"k1\", \"a\":[1,2] }", "k1",
                        "{ \"idempotency_key\" : \"k1\", \"a\":[1,2] }"),
                // Into a nested object that exists, past a sibling named like the leaf.
                Arguments.of("/meta/key", "{\"key\":\"x\",\"meta\":{\"n\":1},\"z\":true}", "k1",
                        "{\"key\":\"x\",\"meta\":{\"n\":1,\"key\":\"k1\"},\"z\":true}"),
                // Objects missing on the path are added.
                Arguments.of("/meta/key", "{\"a\":1}", "k1", "{\"a\":1,\"meta\":{\"key\":\"k1\"}}"),
                // RFC 6901 escapes in the pointer; JSON escapes in the name and the key.
                Arguments.of("/a~1b~0c", "{}", "k\"1\\", "{\"a/b~c\":\"k\\\"1\\\\\"}"),
                // Non-ASCII bytes before the insertion point are counted as bytes.
                Arguments.of("/k", "{\"name\":\"Zoë 日本\"}", "k1", "{\"name\":\"Zoë 日本\",\"k\":\"k1\"}"));
    }

    @ParameterizedTest
    @MethodSource("spliced")
    void theMemberIsSplicedAndEveryOtherByteKept(String pointer, String body, String key, String expected)
            throws Exception {
        byte[] sent = write(pointer, body, key);
        assertEquals(expected, new String(sent, StandardCharsets.UTF_8));
        // And what was sent parses to the key at the pointer.
        assertEquals(key, new ObjectMapper().readTree(sent).at(pointer).asText());
    }

    static Stream<Arguments> refused() {
        return Stream.of(
                Arguments.of("/idempotency_key", "[{\"idempotency_key\":\"secret-value\"}]", "not a JSON object"),
                Arguments.of("/idempotency_key", "\"secret-value\"", "not a JSON object"),
                Arguments.of("/idempotency_key", "", "not a JSON object"),
                Arguments.of("/idempotency_key", "{\"a\":\"secret-value\"", "not valid JSON"),
                Arguments.of("/idempotency_key", "{\"a\":\"secret-value\"} {}", "not one JSON object"),
                Arguments.of("/idempotency_key", "{\"idempotency_key\":\"secret-value\"}", "another value"),
                Arguments.of("/idempotency_key", "{\"idempotency_key\":7}", "another value"),
                Arguments.of("/idempotency_key", "{\"idempotency_key\":null}", "another value"),
                Arguments.of("/idempotency_key", "{\"idempotency_key\":\"k1\",\"idempotency_key\":\"k1\"}", "twice"),
                Arguments.of("/items/0/key", "{\"items\":[{\"key\":\"secret-value\"}]}", "through an array"),
                Arguments.of("/meta/key", "{\"meta\":\"secret-value\"}", "not an object"));
    }

    @ParameterizedTest
    @MethodSource("refused")
    void aBodyThatCannotHoldTheKeyIsRefusedNamingThePointerNotTheValues(String pointer, String body, String why) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> write(pointer, body, "k1"));
        assertTrue(e.getMessage().startsWith("keyInBody " + pointer + ": "), e.getMessage());
        assertTrue(e.getMessage().contains(why), e.getMessage());
        assertFalse(e.getMessage().contains("secret-value"), e.getMessage());
        assertFalse(e.getMessage().contains("k1"), e.getMessage());
    }

    @Test
    void aPointerAtTheWholeBodyOrNotAPointerIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> new KeyInBody(""));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new KeyInBody("key"));
        assertTrue(e.getMessage().contains("key"), e.getMessage());
    }

    @Test
    void theCallersBodyIsNeverChanged() {
        byte[] body = "{\"idempotency_key\":\"k1\"}".getBytes(StandardCharsets.UTF_8);
        byte[] copy = body.clone();
        byte[] sent = new KeyInBody("/idempotency_key").write(body, "k1");
        assertArrayEquals(copy, sent);
        sent[0] = 'x';
        assertArrayEquals(copy, body);
    }
}
