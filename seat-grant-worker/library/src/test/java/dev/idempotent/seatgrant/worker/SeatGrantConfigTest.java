package dev.idempotent.seatgrant.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

class SeatGrantConfigTest {

    private static final URI BASE = URI.create("http://127.0.0.1:8080");

    @Test
    void defaultsAreTheDocumentedOnes() {
        SeatGrantConfig c = SeatGrantConfig.defaults(BASE);
        assertEquals(BASE, c.baseUri());
        assertEquals(5, c.maxAttempts());
        assertEquals(Duration.ofMillis(100), c.baseDelay());
        assertEquals(Duration.ofSeconds(2), c.maxDelay());
        assertEquals(Duration.ofSeconds(10), c.retryAfterCap());
        assertEquals(Duration.ofSeconds(30), c.callTimeout());
        assertEquals(Duration.ofSeconds(5), c.requestTimeout());
        assertEquals(Duration.ofSeconds(2), c.connectTimeout());
    }

    @Test
    void buildCopiesSoReusingTheBuilderChangesNothingBuilt() {
        SeatGrantConfig.Builder b = SeatGrantConfig.builder(BASE).maxAttempts(3);
        SeatGrantConfig first = b.build();
        b.maxAttempts(7).callTimeout(Duration.ofSeconds(1));
        assertEquals(3, first.maxAttempts());
        assertEquals(Duration.ofSeconds(30), first.callTimeout());
        assertEquals(7, b.build().maxAttempts());
    }

    @Test
    void toBuilderRoundTrips() {
        SeatGrantConfig c = SeatGrantConfig.builder(BASE).maxAttempts(2).requestTimeout(Duration.ofMillis(250)).build();
        assertEquals(c, c.toBuilder().build());
    }

    @Test
    @SuppressWarnings("deprecation") // requestCustomizer(): the Consumer form, as it was set
    void toBuilderKeepsTheClientTheCustomizerAndTheListener() {
        HttpClient client = HttpClient.newBuilder()
                .followRedirects(HttpClient.Redirect.NEVER).build();
        Consumer<HttpRequest.Builder> customizer = r -> r.header("Authorization", "x");
        GrantListener listener = new GrantListener() { };
        SeatGrantConfig c = SeatGrantConfig.builder(BASE).httpClient(client).requestCustomizer(customizer)
                .listener(listener).build();
        SeatGrantConfig copy = c.toBuilder().build();
        assertEquals(c, copy);
        assertEquals(c.hashCode(), copy.hashCode());
        assertSame(client, copy.httpClient().orElseThrow());
        assertSame(customizer, copy.requestCustomizer());
        assertSame(listener, copy.listener());
        assertEquals(Optional.empty(), SeatGrantConfig.defaults(BASE).httpClient());
        assertSame(GrantListener.NONE, SeatGrantConfig.defaults(BASE).listener());
        assertTrue(c.toString().contains("httpClient=caller's"), c.toString());
        assertTrue(SeatGrantConfig.defaults(BASE).toString().contains("httpClient=own"));
        assertNotEquals(c, SeatGrantConfig.builder(BASE).httpClient(client).requestCustomizer(customizer).build());
    }

    @Test
    void toStringHasNoUrl() {
        SeatGrantConfig c = SeatGrantConfig.defaults(URI.create("https://api.example.internal/v1?token=abc"));
        assertFalse(c.toString().contains("example"), c.toString());
        assertFalse(c.toString().contains("token"), c.toString());
    }

    @Test
    void rejectsBadSettings() {
        assertThrows(IllegalArgumentException.class, () -> SeatGrantConfig.builder(BASE).maxAttempts(0).build());
        assertThrows(IllegalArgumentException.class, () -> SeatGrantConfig.builder(BASE).callTimeout(Duration.ZERO));
        assertThrows(IllegalArgumentException.class,
                () -> SeatGrantConfig.builder(BASE).baseDelay(Duration.ofSeconds(3)).build());
        assertThrows(IllegalArgumentException.class, () -> SeatGrantConfig.defaults(URI.create("ftp://x")));
        assertThrows(IllegalArgumentException.class, () -> SeatGrantConfig.defaults(URI.create("/relative")));
        assertThrows(NullPointerException.class, () -> SeatGrantConfig.builder(null));
    }

    @Test
    void seatRequestedRejectsKeysTheServerWouldRefuse() {
        assertThrows(IllegalArgumentException.class, () -> new SeatRequested("", "ws", "u"));
        assertThrows(IllegalArgumentException.class, () -> new SeatRequested("has space", "ws", "u"));
        assertThrows(IllegalArgumentException.class, () -> new SeatRequested("é", "ws", "u"));
        assertThrows(IllegalArgumentException.class, () -> new SeatRequested("x".repeat(256), "ws", "u"));
        assertThrows(IllegalArgumentException.class, () -> new SeatRequested("req_1", " ", "u"));
        assertThrows(NullPointerException.class, () -> new SeatRequested("req_1", "ws", null));
        assertEquals(255, new SeatRequested("x".repeat(255), "ws", "u").requestId().length());
    }

    @Test
    void seatRequestedRefusesPaddedIdsAndKeepsInnerSpaces() {
        for (String padded : new String[] {" lead", "trail ", "\tws", "ws\n", "\u2003ws"}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> new SeatRequested("req_1", padded, "u"), padded);
            assertFalse(e.getMessage().contains(padded.strip()), "the message names the rule, never the value");
            assertThrows(IllegalArgumentException.class, () -> new SeatRequested("req_1", "ws", padded), padded);
        }
        assertEquals("Ada Lovelace", new SeatRequested("req_1", "ws", "Ada Lovelace").userId());
        assertThrows(IllegalArgumentException.class, () -> new SeatRequested("req_1", "w".repeat(256), "u"));
        assertEquals(255, new SeatRequested("req_1", "w".repeat(255), "u").workspaceId().length());
        assertThrows(IllegalArgumentException.class, () -> new SeatRequested("req_1", "w\u0000s", "u"));
        assertThrows(IllegalArgumentException.class, () -> new SeatRequested("req_1", "ws", "u\ud800"));
        assertEquals("\ud83d\ude00", new SeatRequested("req_1", "ws", "\ud83d\ude00").userId());
        assertThrows(IllegalArgumentException.class, () -> new SeatRequested("req\u007f", "ws", "u"));
        assertEquals("!~", new SeatRequested("!~", "ws", "u").requestId());
    }

    @Test
    void seatRequestedCarriesARoleTheApiAccepts() {
        assertEquals("member", new SeatRequested("req_1", "ws", "u").role(), "the three-argument form means member");
        assertEquals(new SeatRequested("req_1", "ws", "u", "member"), new SeatRequested("req_1", "ws", "u"));
        for (String role : List.of("member", "admin", "viewer")) {
            assertEquals(role, new SeatRequested("req_1", "ws", "u", role).role());
        }
        assertEquals(List.of("member", "admin", "viewer"), SeatRequested.ROLES);
        for (String role : new String[] {"owner", "Member", "ADMIN", " admin", "admin ", ""}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> new SeatRequested("req_1", "ws", "u", role), role);
            assertEquals("role must be one of member, admin, viewer", e.getMessage());
        }
        assertThrows(NullPointerException.class, () -> new SeatRequested("req_1", "ws", "u", null));
    }

    @Test
    void eitherCustomizerFormIsKeptAndCompared() {
        RequestCustomizer withContext = (r, context) -> r.header("traceparent", context.requestId());
        SeatGrantConfig c = SeatGrantConfig.builder(BASE).requestCustomizer(withContext).build();
        assertSame(withContext, c.customizer());
        assertSame(withContext, c.toBuilder().build().customizer());
        assertEquals(c, c.toBuilder().build());
        assertEquals(c, SeatGrantConfig.builder(BASE).requestCustomizer(withContext).build());
        assertNotEquals(c, SeatGrantConfig.defaults(BASE));
        @SuppressWarnings("deprecation")
        IllegalStateException noConsumer = assertThrows(IllegalStateException.class, c::requestCustomizer);
        assertTrue(noConsumer.getMessage().contains("customizer()"), noConsumer.getMessage());

        Consumer<HttpRequest.Builder> plain = r -> r.header("Authorization", "x");
        SeatGrantConfig p = SeatGrantConfig.builder(BASE).requestCustomizer(plain).build();
        assertEquals(p, SeatGrantConfig.builder(BASE).requestCustomizer(plain).build(),
                "the same consumer set twice is the same setting");
        assertNotEquals(p, c);
        assertThrows(IllegalArgumentException.class, () -> new AttemptContext("req_1", 0));
    }
}
