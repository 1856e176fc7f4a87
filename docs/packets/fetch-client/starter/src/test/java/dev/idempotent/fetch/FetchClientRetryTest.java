package dev.idempotent.fetch;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static com.github.tomakehurst.wiremock.stubbing.Scenario.STARTED;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The retry ticket's acceptance tests: red before the change, green once 503 is retried with growing
 * waits and 404 is not.
 *
 * <p>FROZEN: leave this file exactly as it is. The waits are observed through the client's {@link Sleeper}, so a
 * patch that calls {@code Thread.sleep} directly fails here, closed, instead of passing slowly.
 */
class FetchClientRetryTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(5);

    @RegisterExtension
    static WireMockExtension server = WireMockExtension.newInstance()
            .options(wireMockConfig().dynamicPort().bindAddress("127.0.0.1"))
            .build();

    private final List<Duration> sleeps = new CopyOnWriteArrayList<>();
    private final JsonFetcher client = new JsonFetcher(sleeps::add);

    private static String url(String path) {
        return "http://127.0.0.1:" + server.getPort() + path;
    }

    @Test
    void retries503ThenSucceeds() throws Exception {
        server.stubFor(get(urlEqualTo("/v1")).inScenario("flaky").whenScenarioStateIs(STARTED)
                .willReturn(aResponse().withStatus(503)).willSetStateTo("second"));
        server.stubFor(get(urlEqualTo("/v1")).inScenario("flaky").whenScenarioStateIs("second")
                .willReturn(aResponse().withStatus(503)).willSetStateTo("third"));
        server.stubFor(get(urlEqualTo("/v1")).inScenario("flaky").whenScenarioStateIs("third")
                .willReturn(aResponse().withStatus(200).withBody("{\"ok\": true}")));

        Map<String, Object> payload = client.fetchJson(url("/v1"), TIMEOUT);

        assertEquals(Map.of("ok", true), payload);
        server.verify(3, getRequestedFor(urlEqualTo("/v1")));
        assertEquals(2, sleeps.size(), "one wait between each pair of attempts");
        assertTrue(sleeps.get(0).compareTo(sleeps.get(1)) < 0, "the waits grow: " + sleeps);
    }

    @Test
    void doesNotRetry404() {
        server.stubFor(get(urlEqualTo("/missing")).willReturn(aResponse().withStatus(404)));

        assertThrows(FetchException.class, () -> client.fetchJson(url("/missing"), TIMEOUT));

        server.verify(1, getRequestedFor(urlEqualTo("/missing")));
        assertTrue(sleeps.isEmpty(), "no wait without a retry: " + sleeps);
    }
}
