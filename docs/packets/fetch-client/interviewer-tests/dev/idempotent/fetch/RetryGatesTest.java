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
import java.util.OptionalInt;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * INTERVIEWER ONLY, never handed to a candidate: the Retry and Backoff gates as behaviour, for any good
 * answer (no particular wait values, no particular code shape). Copy it into the candidate's
 * {@code src/test/java/dev/idempotent/fetch/} and run {@code mvn test}.
 *
 * <ul>
 *   <li><b>Retry</b>: 2 needs every test here but the last; 1 when only
 *       {@link #theLastFailureIsTheOneReported()} is red; 0 when anything else is retried.</li>
 *   <li><b>Backoff</b>: 2 needs {@link #waitsGrowGoThroughTheSleeperAndStopAtThreeAttempts()}; when it is
 *       red, whether the slip is a 1 (constant wait, a fourth attempt) or a 0 is yours to read in the diff.</li>
 * </ul>
 */
class RetryGatesTest {

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

    private static int calls() {
        return server.findAll(getRequestedFor(urlEqualTo("/v1"))).size();
    }

    @Test
    void a429AndA503AreBothRetried() throws Exception {
        server.stubFor(get(urlEqualTo("/v1")).inScenario("s").whenScenarioStateIs(STARTED)
                .willReturn(aResponse().withStatus(429)).willSetStateTo("b"));
        server.stubFor(get(urlEqualTo("/v1")).inScenario("s").whenScenarioStateIs("b")
                .willReturn(aResponse().withStatus(503)).willSetStateTo("c"));
        server.stubFor(get(urlEqualTo("/v1")).inScenario("s").whenScenarioStateIs("c")
                .willReturn(aResponse().withStatus(200).withBody("{\"ok\": true}")));
        assertEquals(Map.of("ok", true), client.fetchJson(url("/v1"), TIMEOUT));
        assertEquals(3, calls());
    }

    @ParameterizedTest(name = "http {0} gets one attempt")
    @ValueSource(ints = {400, 401, 403, 404, 408, 500, 502, 504})
    void anyOtherStatusGetsOneAttempt(int status) {
        server.stubFor(get(urlEqualTo("/v1")).willReturn(aResponse().withStatus(status)));
        FetchException error = assertThrows(FetchException.class, () -> client.fetchJson(url("/v1"), TIMEOUT));
        assertEquals(OptionalInt.of(status), error.status());
        assertEquals(1, calls());
    }

    @Test
    void aBodyThatIsNotJsonGetsOneAttempt() {
        server.stubFor(get(urlEqualTo("/v1")).willReturn(aResponse().withStatus(200).withBody("not json")));
        assertThrows(FetchException.class, () -> client.fetchJson(url("/v1"), TIMEOUT));
        assertEquals(1, calls());
    }

    @Test
    void aTimeoutGetsOneAttempt() throws Exception {
        // One answered request first, so the timed-out one is not also the JVM's first use of an HTTP client: on a
        // busy machine that first use alone can outlast a short timeout before the request is even sent.
        server.stubFor(get(urlEqualTo("/warm")).willReturn(aResponse().withStatus(200).withBody("{}")));
        client.fetchJson(url("/warm"), TIMEOUT);
        server.stubFor(get(urlEqualTo("/v1")).willReturn(aResponse().withStatus(200).withBody("{}").withFixedDelay(4_000)));
        assertThrows(FetchException.class, () -> client.fetchJson(url("/v1"), Duration.ofSeconds(1)));
        assertEquals(1, calls());
    }

    @Test
    void theLastFailureIsTheOneReported() {
        server.stubFor(get(urlEqualTo("/v1")).inScenario("m").whenScenarioStateIs(STARTED)
                .willReturn(aResponse().withStatus(503)).willSetStateTo("throttled"));
        server.stubFor(get(urlEqualTo("/v1")).inScenario("m").whenScenarioStateIs("throttled")
                .willReturn(aResponse().withStatus(429)));
        FetchException error = assertThrows(FetchException.class, () -> client.fetchJson(url("/v1"), TIMEOUT));
        assertEquals(OptionalInt.of(429), error.status());
    }

    @Test
    void waitsGrowGoThroughTheSleeperAndStopAtThreeAttempts() {
        server.stubFor(get(urlEqualTo("/v1")).willReturn(aResponse().withStatus(503)));
        FetchException error = assertThrows(FetchException.class, () -> client.fetchJson(url("/v1"), TIMEOUT));
        assertEquals(OptionalInt.of(503), error.status());
        assertEquals(3, calls(), "three attempts in all");
        assertEquals(2, sleeps.size(), "one wait between each pair of attempts, none after the last: " + sleeps);
        assertTrue(sleeps.get(0).compareTo(Duration.ZERO) > 0 && sleeps.get(0).compareTo(sleeps.get(1)) < 0,
                "the wait grows: " + sleeps);
    }
}
