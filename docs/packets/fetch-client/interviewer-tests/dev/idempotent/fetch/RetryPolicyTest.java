package dev.idempotent.fetch;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static com.github.tomakehurst.wiremock.stubbing.Scenario.STARTED;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeout;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What is retried and what is not, one scenario per test, beyond the two frozen classes: the exact
 * waits, the attempt cap, and every failure that must get exactly one attempt.
 *
 * <p>It uses only seams the packet's starter already has ({@code JsonFetcher(HttpClient, Sleeper)}),
 * so an interviewer can drop it into a candidate's tree; the answer key says how.
 */
class RetryPolicyTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(5);

    @RegisterExtension
    static WireMockExtension server = WireMockExtension.newInstance()
            .options(wireMockConfig().dynamicPort().bindAddress("127.0.0.1"))
            .build();

    private final List<Duration> sleeps = new CopyOnWriteArrayList<>();
    private final CountingHttpClient http = new CountingHttpClient();
    private final JsonFetcher client = new JsonFetcher(http, sleeps::add);

    private static String url(String path) {
        return "http://127.0.0.1:" + server.getPort() + path;
    }

    @Test
    void retries429ThenSucceeds() throws Exception {
        server.stubFor(get(urlEqualTo("/v1")).inScenario("throttled").whenScenarioStateIs(STARTED)
                .willReturn(aResponse().withStatus(429)).willSetStateTo("open"));
        server.stubFor(get(urlEqualTo("/v1")).inScenario("throttled").whenScenarioStateIs("open")
                .willReturn(aResponse().withStatus(200).withBody("{\"n\": 1}")));

        assertEquals(Map.of("n", 1), client.fetchJson(url("/v1"), TIMEOUT));

        server.verify(2, getRequestedFor(urlEqualTo("/v1")));
        assertEquals(List.of(Duration.ofMillis(50)), sleeps);
    }

    @Test
    void three503sRaise503AfterExactlyThreeAttemptsAndTwoWaits() {
        server.stubFor(get(urlEqualTo("/v1")).willReturn(aResponse().withStatus(503)));

        FetchException error = assertThrows(FetchException.class, () -> client.fetchJson(url("/v1"), TIMEOUT));

        assertEquals(OptionalInt.of(503), error.status());
        assertEquals("http 503", error.getMessage());
        server.verify(3, getRequestedFor(urlEqualTo("/v1")));
        assertEquals(3, http.sends());
        assertEquals(List.of(Duration.ofMillis(50), Duration.ofMillis(100)), sleeps);
    }

    @Test
    void theLastStatusIsTheOneReported() {
        server.stubFor(get(urlEqualTo("/v1")).inScenario("mixed").whenScenarioStateIs(STARTED)
                .willReturn(aResponse().withStatus(503)).willSetStateTo("throttled"));
        server.stubFor(get(urlEqualTo("/v1")).inScenario("mixed").whenScenarioStateIs("throttled")
                .willReturn(aResponse().withStatus(429)).willSetStateTo("gone"));
        server.stubFor(get(urlEqualTo("/v1")).inScenario("mixed").whenScenarioStateIs("gone")
                .willReturn(aResponse().withStatus(429)));

        FetchException error = assertThrows(FetchException.class, () -> client.fetchJson(url("/v1"), TIMEOUT));

        assertEquals(OptionalInt.of(429), error.status());
        server.verify(3, getRequestedFor(urlEqualTo("/v1")));
    }

    @ParameterizedTest(name = "http {0} is not retried")
    @ValueSource(ints = {400, 401, 403, 404, 408, 500, 502, 504})
    void otherErrorStatusesAreNotRetried(int status) {
        server.stubFor(get(urlEqualTo("/v1")).willReturn(aResponse().withStatus(status)));

        FetchException error = assertThrows(FetchException.class, () -> client.fetchJson(url("/v1"), TIMEOUT));

        assertEquals(OptionalInt.of(status), error.status());
        assertEquals("http " + status, error.getMessage());
        server.verify(1, getRequestedFor(urlEqualTo("/v1")));
        assertTrue(sleeps.isEmpty(), "no wait without a retry: " + sleeps);
    }

    @Test
    void connectionRefusedIsNotRetried() throws IOException {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closedPort = socket.getLocalPort();
        }

        FetchException error = assertThrows(FetchException.class,
                () -> client.fetchJson("http://127.0.0.1:" + closedPort + "/v1", TIMEOUT));

        assertEquals("connection failed", error.getMessage());
        assertEquals(OptionalInt.empty(), error.status());
        assertEquals(1, http.sends());
        assertTrue(sleeps.isEmpty());
    }

    // The surefire configuration points the JDK resolver at a hosts file (jdk.net.hosts.file), so an
    // unknown name fails at once and the same way on a laptop, in CI and on a box with no DNS at all.
    @Test
    void unknownHostIsNotRetried() {
        FetchException error = assertTimeout(Duration.ofSeconds(10), () -> assertThrows(FetchException.class,
                () -> client.fetchJson("http://no-such-host.invalid/v1", TIMEOUT)));

        assertEquals("connection failed", error.getMessage());
        assertEquals(OptionalInt.empty(), error.status());
        assertEquals(1, http.sends());
        assertTrue(sleeps.isEmpty());
    }

    @Test
    void malformedJsonIsNotRetried() {
        server.stubFor(get(urlEqualTo("/v1")).willReturn(aResponse().withStatus(200).withBody("{\"ok\": tru")));

        FetchException error = assertThrows(FetchException.class, () -> client.fetchJson(url("/v1"), TIMEOUT));

        assertEquals("response was not json", error.getMessage());
        assertEquals(OptionalInt.empty(), error.status());
        server.verify(1, getRequestedFor(urlEqualTo("/v1")));
        assertTrue(sleeps.isEmpty());
    }

    @Test
    void jsonArrayRootIsNotRetried() {
        server.stubFor(get(urlEqualTo("/v1")).willReturn(aResponse().withStatus(200).withBody("[1, 2]")));

        FetchException error = assertThrows(FetchException.class, () -> client.fetchJson(url("/v1"), TIMEOUT));

        assertEquals("json root was not an object", error.getMessage());
        assertEquals(OptionalInt.empty(), error.status());
        server.verify(1, getRequestedFor(urlEqualTo("/v1")));
        assertTrue(sleeps.isEmpty());
    }

    @Test
    void aResponseSlowerThanTheTimeoutIsNotRetried() {
        server.stubFor(get(urlEqualTo("/slow")).willReturn(aResponse().withStatus(200).withBody("{}")
                .withFixedDelay(3_000)));

        FetchException error = assertThrows(FetchException.class,
                () -> client.fetchJson(url("/slow"), Duration.ofMillis(300)));

        assertEquals("timed out", error.getMessage());
        assertEquals(OptionalInt.empty(), error.status());
        assertEquals(1, http.sends());
        assertTrue(sleeps.isEmpty());
    }

    @Test
    void anInterruptedWaitStopsRetryingAndKeepsTheFlag() {
        server.stubFor(get(urlEqualTo("/v1")).willReturn(aResponse().withStatus(503)));
        JsonFetcher interrupted = new JsonFetcher(http, delay -> {
            throw new InterruptedException("stop");
        });

        try {
            FetchException error = assertThrows(FetchException.class,
                    () -> interrupted.fetchJson(url("/v1"), TIMEOUT));

            assertEquals(OptionalInt.of(503), error.status());
            assertTrue(Thread.currentThread().isInterrupted(), "the interrupt is kept for the caller");
            assertEquals(List.of("stop"), Arrays.stream(error.getSuppressed())
                    .filter(InterruptedException.class::isInstance).map(Throwable::getMessage).toList(),
                    "the interrupt travels with the 503 as a suppressed exception");
            assertEquals(1, http.sends());
        } finally {
            Thread.interrupted();
        }
    }
}
