package dev.idempotent.seatgrant.worker.internal;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.options;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import dev.idempotent.seatgrant.worker.SeatRequested;
import java.net.URI;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A prepared grant is a value: the same event prepares an equal request (same key, same bytes), a different
 * key or payload does not, and its text never shows either. Also how the replay header is read off the wire.
 */
class PreparedGrantTest {

    @RegisterExtension
    static final WireMockExtension wm = WireMockExtension.newInstance()
            .options(options().dynamicPort().bindAddress("127.0.0.1"))
            .build();

    private final SeatsApi api = new SeatsApi(SeatsApi.newClient(Duration.ofSeconds(2)), URI.create("http://127.0.0.1:1"));

    @Test
    void theSameEventPreparesAnEqualGrant() {
        PreparedGrant a = api.prepare(new SeatRequested("req_1", "ws_1", "u_1"));
        PreparedGrant b = api.prepare(new SeatRequested("req_1", "ws_1", "u_1"));
        assertEquals(a, b);
        assertEquals(a.hashCode(), b.hashCode());
        assertEquals(a, a);
    }

    @Test
    void anotherKeyOrAnotherPayloadIsAnotherGrant() {
        PreparedGrant base = api.prepare(new SeatRequested("req_1", "ws_1", "u_1"));
        PreparedGrant otherKey = api.prepare(new SeatRequested("req_2", "ws_1", "u_1"));
        PreparedGrant otherUser = api.prepare(new SeatRequested("req_1", "ws_1", "u_2"));
        PreparedGrant otherWorkspace = api.prepare(new SeatRequested("req_1", "ws_2", "u_1"));
        for (PreparedGrant other : new PreparedGrant[] {otherKey, otherUser, otherWorkspace}) {
            assertNotEquals(base, other);
            assertNotEquals(base.hashCode(), other.hashCode(), "distinct grants spread over hash buckets");
        }
        assertNotEquals(base, (Object) "req_1");
    }

    @Test
    void itsTextGivesTheSizeAndNeverTheKeyOrPayload() {
        PreparedGrant grant = api.prepare(new SeatRequested("req_s3cret", "ws_private", "u_private"));
        String text = grant.toString();
        assertTrue(text.startsWith("PreparedGrant[bodyBytes="), text);
        assertEquals("PreparedGrant[bodyBytes=" + grant.body().length + "]", text);
        for (String secret : new String[] {"s3cret", "ws_private", "u_private"}) {
            assertFalse(text.contains(secret), text);
        }
    }

    @Test
    void anExchangesTextHasTheStatusAndNotTheBody() {
        Exchange e = new Exchange(503, Optional.of("application/json"), Optional.of("2"), false, "{\"detail\":\"acct-42\"}");
        assertEquals("Exchange[status=503, replayed=false, bodyChars=20]", e.toString());
    }

    @ParameterizedTest(name = "Idempotent-Replayed: \"{0}\" -> {1}")
    @CsvSource(delimiter = '|', value = {"true | true", "TRUE | true", "' true ' | true", "false | false", "yes | false"})
    void theReplayHeaderIsReadOffTheWire(String header, boolean replayed) throws Exception {
        wm.stubFor(post(urlPathEqualTo("/v1/seats")).willReturn(aResponse().withStatus(201)
                .withHeader("Idempotent-Replayed", header).withBody("{\"id\":\"seat_1\"}")));
        SeatsApi live = new SeatsApi(SeatsApi.newClient(Duration.ofSeconds(2)), URI.create(wm.baseUrl()));

        Exchange answer = live.send(live.prepare(new SeatRequested("req_h", "ws", "u")), 1, Duration.ofSeconds(5));

        assertEquals(replayed, answer.replayed());
        assertEquals(201, answer.status());
    }

    @Test
    void noReplayHeaderIsNoReplay() throws Exception {
        wm.stubFor(post(urlPathEqualTo("/v1/seats")).willReturn(aResponse().withStatus(201).withBody("{\"id\":\"seat_1\"}")));
        SeatsApi live = new SeatsApi(SeatsApi.newClient(Duration.ofSeconds(2)), URI.create(wm.baseUrl()));

        assertFalse(live.send(live.prepare(new SeatRequested("req_n", "ws", "u")), 1, Duration.ofSeconds(5)).replayed());
    }
}
