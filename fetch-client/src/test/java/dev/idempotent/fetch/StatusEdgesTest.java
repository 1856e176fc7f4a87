package dev.idempotent.fetch;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The edges of "a 2xx is a success" and of an interrupted call: the last status of the 2xx range, and a
 * caller's interrupt that arrives while the fetcher is still waiting for the first answer.
 */
class StatusEdgesTest {

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

    @AfterEach
    void clearInterrupt() {
        // Never hand an interrupted thread to the next test.
        Thread.interrupted();
    }

    @Test
    void status299IsStillASuccess() throws Exception {
        server.stubFor(get(urlEqualTo("/edge")).willReturn(aResponse().withStatus(299).withBody("{\"edge\": 299}")));

        assertEquals(Map.of("edge", 299), client.fetchJson(url("/edge"), TIMEOUT));
    }

    @Test
    void status300IsAFailureThatCarriesItsStatus() {
        server.stubFor(get(urlEqualTo("/edge")).willReturn(aResponse().withStatus(300).withBody("{\"edge\": 300}")));

        FetchException failure = assertThrows(FetchException.class, () -> client.fetchJson(url("/edge"), TIMEOUT));

        assertEquals(OptionalInt.of(300), failure.status());
        assertTrue(sleeps.isEmpty(), "a 300 is not retried: " + sleeps);
    }

    @Test
    void anInterruptWhileWaitingForTheAnswerEndsTheCallAndKeepsTheFlag() {
        // The answer is far slower than the interrupt, so the fetcher is surely still waiting when it lands.
        server.stubFor(get(urlEqualTo("/slow")).willReturn(aResponse().withStatus(200).withBody("{}")
                .withFixedDelay(3_000)));
        Thread.currentThread().interrupt();

        FetchException failure = assertThrows(FetchException.class, () -> client.fetchJson(url("/slow"), TIMEOUT));

        assertEquals("interrupted", failure.getMessage());
        assertEquals(OptionalInt.empty(), failure.status());
        assertTrue(Thread.currentThread().isInterrupted(), "the caller's interrupt flag is restored");
        assertTrue(sleeps.isEmpty(), "an interrupted call is not retried: " + sleeps);
    }
}
