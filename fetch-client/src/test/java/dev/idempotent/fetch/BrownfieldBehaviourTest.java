package dev.idempotent.fetch;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The pre-ticket behaviour of the Python original that the port keeps: parsing, redirects, bad input. */
class BrownfieldBehaviourTest {

    @RegisterExtension
    static WireMockExtension server = WireMockExtension.newInstance()
            .options(wireMockConfig().dynamicPort().bindAddress("127.0.0.1"))
            .build();

    private static String url(String path) {
        return "http://127.0.0.1:" + server.getPort() + path;
    }

    @Test
    void nestedJsonComesBackAsMapsListsAndNumbers() throws Exception {
        server.stubFor(get(urlEqualTo("/v1")).willReturn(aResponse().withStatus(200)
                .withBody("{\"name\": \"Zoë\", \"seats\": [1, 2], \"price\": 9.5, \"meta\": {\"ok\": null}}")));

        Map<String, Object> payload = FetchClient.fetchJson(url("/v1"));

        assertEquals("Zoë", payload.get("name"));
        assertEquals(List.of(1, 2), payload.get("seats"));
        assertEquals(9.5, payload.get("price"));
        assertEquals(Collections.singletonMap("ok", null), payload.get("meta"));
    }

    @Test
    void aRedirectIsFollowedLikeUrllibDoes() throws Exception {
        server.stubFor(get(urlEqualTo("/old")).willReturn(aResponse().withStatus(302)
                .withHeader("Location", "/new")));
        server.stubFor(get(urlEqualTo("/new")).willReturn(aResponse().withStatus(200).withBody("{\"moved\": true}")));

        assertEquals(Map.of("moved", true), FetchClient.fetchJson(url("/old")));
    }

    @Test
    void aBodyThatIsNotUtf8IsNotJson() {
        byte[] latin1 = "{\"name\": \"Zoë\"}".getBytes(StandardCharsets.ISO_8859_1);
        server.stubFor(get(urlEqualTo("/v1")).willReturn(aResponse().withStatus(200).withBody(latin1)));

        FetchException error = assertThrows(FetchException.class, () -> FetchClient.fetchJson(url("/v1")));

        assertEquals("response was not json", error.getMessage());
    }

    @Test
    void anEmptyBodyOrTrailingDataIsNotJson() {
        server.stubFor(get(urlEqualTo("/empty")).willReturn(aResponse().withStatus(200).withBody("")));
        server.stubFor(get(urlEqualTo("/trailing")).willReturn(aResponse().withStatus(200).withBody("{} {}")));

        assertEquals("response was not json", assertThrows(FetchException.class,
                () -> FetchClient.fetchJson(url("/empty"))).getMessage());
        assertEquals("response was not json", assertThrows(FetchException.class,
                () -> FetchClient.fetchJson(url("/trailing"))).getMessage());
    }

    // Python's json.loads would accept these non-standard literals; the port follows RFC 8259 instead.
    @Test
    void nanAndInfinityAreNotJson() {
        server.stubFor(get(urlEqualTo("/nan")).willReturn(aResponse().withStatus(200).withBody("{\"x\": NaN}")));
        server.stubFor(get(urlEqualTo("/inf")).willReturn(aResponse().withStatus(200)
                .withBody("{\"x\": Infinity}")));

        assertEquals("response was not json", assertThrows(FetchException.class,
                () -> FetchClient.fetchJson(url("/nan"))).getMessage());
        assertEquals("response was not json", assertThrows(FetchException.class,
                () -> FetchClient.fetchJson(url("/inf"))).getMessage());
    }

    @Test
    void aScalarRootIsNotAnObject() {
        server.stubFor(get(urlEqualTo("/v1")).willReturn(aResponse().withStatus(200).withBody("\"text\"")));

        assertEquals("json root was not an object", assertThrows(FetchException.class,
                () -> FetchClient.fetchJson(url("/v1"))).getMessage());
    }

    @Test
    void badArgumentsFailBeforeAnyRequest() {
        assertThrows(NullPointerException.class, () -> FetchClient.fetchJson(null));
        assertThrows(NullPointerException.class, () -> FetchClient.fetchJson(url("/v1"), null));
        assertThrows(IllegalArgumentException.class, () -> FetchClient.fetchJson(url("/v1"), Duration.ZERO));
        assertThrows(IllegalArgumentException.class, () -> FetchClient.fetchJson("not a url"));
        assertThrows(IllegalArgumentException.class, () -> FetchClient.fetchJson("mailto:ops@example.test"));
        assertEquals(0, server.getAllServeEvents().size());
    }
}
