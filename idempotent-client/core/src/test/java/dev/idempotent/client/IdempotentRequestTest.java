package dev.idempotent.client;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** A request is fixed when it is built: a later change to the builder or to the caller's array changes nothing. */
class IdempotentRequestTest {

    private static final URI ORDERS = URI.create("https://api.example.test/v2/orders?token=s3cr3t");

    @Test
    void aJsonPostCarriesItsKeyBodyAndType() {
        IdempotentRequest r = IdempotentRequest.post(ORDERS, "ord_intent_1").json("{\"sku\":\"a\"}").build();
        assertEquals("POST", r.method());
        assertEquals(ORDERS, r.uri());
        assertEquals("ord_intent_1", r.key());
        assertEquals(Optional.of("application/json"), r.contentType());
        assertArrayEquals("{\"sku\":\"a\"}".getBytes(StandardCharsets.UTF_8), r.body());
    }

    @ParameterizedTest
    @ValueSource(strings = {"Bearer s3cr3t\r\nX-Injected: 1", "s3cr3t\n", "s3cr3t\u0000", "s3cr3t\u007f", "s3cr3t\u0100"})
    void aValueAHeaderCannotCarryIsRefusedNamingTheHeaderNotTheValue(String value) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> IdempotentRequest.post(ORDERS, "k").header("Authorization", value));
        assertEquals("the value of header Authorization holds a line break or another character a header cannot carry",
                e.getMessage());
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "X Space", "X:Colon", "X\"Quote", "Ümlaut"})
    void aNameThatIsNotATokenIsRefused(String name) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> IdempotentRequest.post(ORDERS, "k").header(name, "v"));
        assertEquals("a header name must be an HTTP token", e.getMessage());
    }

    @Test
    void tabsSpacesAndHighBytesAreValuesAHeaderCarries() {
        IdempotentRequest r = IdempotentRequest.post(ORDERS, "k").header("X-Note", "a\tb c~\u00e9").build();
        assertEquals(List.of(Map.entry("X-Note", "a\tb c~\u00e9")), r.headers());
    }

    @Test
    void theBodyIsCopiedInAndOut() {
        byte[] caller = {1, 2, 3};
        IdempotentRequest.Builder b = IdempotentRequest.of("put", ORDERS, "k").body("application/octet-stream", caller);
        IdempotentRequest r = b.build();
        caller[0] = 9;
        r.body()[1] = 9;
        assertArrayEquals(new byte[] {1, 2, 3}, r.body());
        b.header("X-Later", "1");
        assertEquals(List.of(), r.headers(), "a built request does not share the builder's headers");
        assertEquals("PUT", r.method());
    }

    @Test
    void headersKeepTheirOrder() {
        IdempotentRequest r = IdempotentRequest.of("DELETE", ORDERS, "k").header("A", "1").header("B", "2").build();
        assertEquals(List.of(Map.entry("A", "1"), Map.entry("B", "2")), r.headers());
        assertEquals(Optional.empty(), r.contentType());
        assertEquals(0, r.body().length);
    }

    @ParameterizedTest
    @ValueSource(strings = {"GET", "HEAD", "OPTIONS", "TRACE", "FETCH"})
    void onlyUnsafeMethodsTakeAKey(String method) {
        assertThrows(IllegalArgumentException.class, () -> IdempotentRequest.of(method, ORDERS, "k"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"/relative", "ftp://host/x", "mailto:a@b.test", "http:///nohost"})
    void onlyAbsoluteHttpUrisAreSentTo(String uri) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> IdempotentRequest.post(URI.create(uri), "k"));
        assertFalse(e.getMessage().contains(uri), "the message names the rule, not the URI");
    }

    @Test
    void toStringNamesNeitherTheUriNorTheBody() {
        String s = IdempotentRequest.post(ORDERS, "k").json("{\"card\":\"4242\"}").build().toString();
        assertFalse(s.contains("s3cr3t") || s.contains("example") || s.contains("4242"), s);
        assertEquals("IdempotentRequest[method=POST, bodyBytes=15]", s);
    }
}
