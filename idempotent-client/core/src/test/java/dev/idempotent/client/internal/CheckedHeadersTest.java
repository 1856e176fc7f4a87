package dev.idempotent.client.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The builder a customizer is handed: every header value is checked before the JDK sees it, and the refusal names
 * the header, never the value; everything else reaches the JDK's builder, and the customizer can keep chaining.
 */
class CheckedHeadersTest {

    private final CheckedHeaders builder = new CheckedHeaders(HttpRequest.newBuilder(URI.create("http://a.test/x")));

    @Test
    void aValueHttpCannotCarryIsRefusedByNameWithoutACause() {
        for (String bad : List.of("t0k\r\nX-Evil: 1", "t0k\n", "t0k\u0000", "t0k\u007F", "t0k\u0100")) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> builder.header("Authorization", bad));
            assertEquals("invalid value for header Authorization", e.getMessage());
            assertNull(e.getCause());
            assertEquals(e.getMessage(), assertThrows(IllegalArgumentException.class,
                    () -> builder.setHeader("Authorization", bad)).getMessage());
            assertEquals(e.getMessage(), assertThrows(IllegalArgumentException.class,
                    () -> builder.headers("A", "ok", "Authorization", bad)).getMessage());
        }
        assertThrows(IllegalArgumentException.class, () -> builder.headers("A"));
        assertTrue(builder.build().headers().map().isEmpty(), "nothing of a refused call was set");
    }

    @Test
    void everythingElseReachesTheJdksBuilder() {
        HttpRequest.BodyPublisher body = HttpRequest.BodyPublishers.ofString("{}");
        assertSame(builder, builder.header("A", "1\tvisible \u00e9\u00ff~").setHeader("B", "2")
                .headers("C", "3", "D", "4"));
        assertSame(builder, builder.uri(URI.create("http://b.test/y")).expectContinue(true)
                .version(HttpClient.Version.HTTP_1_1).timeout(Duration.ofSeconds(3)));
        HttpRequest r = builder.build();
        assertEquals(Optional.of("1\tvisible \u00e9\u00ff~"), r.headers().firstValue("A"));
        assertEquals(List.of("2", "3", "4"), List.of(r.headers().firstValue("B").get(),
                r.headers().firstValue("C").get(), r.headers().firstValue("D").get()));
        assertEquals(URI.create("http://b.test/y"), r.uri());
        assertTrue(r.expectContinue());
        assertEquals(Optional.of(HttpClient.Version.HTTP_1_1), r.version());
        assertEquals(Optional.of(Duration.ofSeconds(3)), r.timeout());
        assertSame(builder, builder.GET());
        assertEquals("GET", builder.build().method());
        assertSame(builder, builder.POST(body));
        assertEquals("POST", builder.build().method());
        assertSame(builder, builder.PUT(body));
        assertEquals("PUT", builder.build().method());
        assertSame(builder, builder.DELETE());
        assertEquals("DELETE", builder.build().method());
        assertSame(builder, builder.method("PATCH", body));
        assertEquals("PATCH", builder.build().method());
        HttpRequest.Builder copy = builder.copy();
        assertTrue(copy instanceof CheckedHeaders, "a copy checks too");
        assertThrows(IllegalArgumentException.class, () -> copy.header("E", "x\r\n"));
        assertEquals("PATCH", copy.build().method());
    }
}
