package dev.idempotent.seatgrant.worker.variants;

import static com.github.tomakehurst.wiremock.client.WireMock.absent;
import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.anyRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.options;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import dev.idempotent.seatgrant.worker.SeatRequested;
import dev.idempotent.seatgrant.worker.testing.FakeTime;
import dev.idempotent.seatgrant.worker.testing.WorkerThreads;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The failure-mode variants do exactly the one wrong thing each is named for, over real sockets. The lab in
 * fake-server shows the consequence against a server that commits and then loses the answer; these tests pin
 * the behaviour that produces it.
 */
class VariantsTest {

    private static final SeatRequested EVENT = new SeatRequested("req_1", "ws_1", "u_1");
    private static final String SEAT = "{\"id\":\"seat_1\",\"workspaceId\":\"ws_1\",\"userId\":\"u_1\",\"role\":\"member\"}";

    @RegisterExtension
    static final WireMockExtension wm = WireMockExtension.newInstance()
            .options(options().dynamicPort().bindAddress("127.0.0.1"))
            .build();

    private URI base;
    private final FakeTime time = new FakeTime();

    @BeforeEach
    void clean() {
        base = URI.create(wm.baseUrl());
    }

    @Test
    void checkThenPostSkipsThePostWhenTheCheckFindsASeat() throws Exception {
        wm.stubFor(get(urlPathEqualTo("/v1/seats")).willReturn(okJson("{\"seats\":[" + SEAT + "]}")));

        GrantHandler worker = new CheckThenPostWorker(base, time, e -> { throw new AssertionError("no post expected"); });

        assertEquals(GrantHandler.Handled.REPLAYED, worker.handle(EVENT));
        wm.verify(1, getRequestedFor(urlPathEqualTo("/v1/seats"))
                .withQueryParam("workspaceId", equalTo("ws_1")).withQueryParam("userId", equalTo("u_1")));
        wm.verify(0, postRequestedFor(urlPathEqualTo("/v1/seats")));
    }

    @Test
    void checkThenPostPostsWithoutAKeyAfterAnEmptyCheck() throws Exception {
        wm.stubFor(get(urlPathEqualTo("/v1/seats")).willReturn(okJson("{\"seats\":[]}")));
        wm.stubFor(post(urlPathEqualTo("/v1/seats")).willReturn(aResponse().withStatus(201).withBody(SEAT)));
        List<SeatRequested> raced = new ArrayList<>();

        GrantHandler worker = new CheckThenPostWorker(base, time, raced::add);

        assertEquals(GrantHandler.Handled.GRANTED, worker.handle(EVENT));
        assertEquals(List.of(EVENT), raced, "the race window opens once, between the empty check and the POST");
        wm.verify(1, postRequestedFor(urlPathEqualTo("/v1/seats")).withHeader("Idempotency-Key", absent()));
    }

    @Test
    void localMapSkipsARedeliveryButForgetsEverythingOnRestart() throws Exception {
        wm.stubFor(post(urlPathEqualTo("/v1/seats")).willReturn(aResponse().withStatus(201).withBody(SEAT)));

        GrantHandler beforeRestart = new LocalMapWorker(base);
        assertEquals(GrantHandler.Handled.GRANTED, beforeRestart.handle(EVENT));
        assertEquals(GrantHandler.Handled.REPLAYED, beforeRestart.handle(EVENT));
        wm.verify(1, postRequestedFor(urlPathEqualTo("/v1/seats")));

        GrantHandler afterRestart = new LocalMapWorker(base);
        assertEquals(GrantHandler.Handled.GRANTED, afterRestart.handle(EVENT));
        wm.verify(2, postRequestedFor(urlPathEqualTo("/v1/seats")).withHeader("Idempotency-Key", absent()));
    }

    @Test
    void localMapDoesNotRetryAndItsFailureIsNotSwallowed() {
        wm.stubFor(post(urlPathEqualTo("/v1/seats")).willReturn(aResponse().withStatus(504)));

        GrantHandler worker = new LocalMapWorker(base);

        Exception err = assertThrows(IllegalStateException.class, () -> worker.handle(EVENT));
        assertEquals("grant_failed:504", err.getMessage());
        wm.verify(1, postRequestedFor(urlPathEqualTo("/v1/seats")));
    }

    @Test
    void conflictIsFailureSendsTheKeyButRunsOutOnReplays() {
        wm.stubFor(post(urlPathEqualTo("/v1/seats")).willReturn(aResponse().withStatus(409)
                .withHeader("Idempotent-Replayed", "true").withBody(SEAT)));

        GrantHandler worker = new ConflictIsFailureWorker(base, time);

        Exception err = assertThrows(IllegalStateException.class, () -> worker.handle(EVENT));
        assertEquals("exhausted_retries:req_1", err.getMessage());
        wm.verify(5, postRequestedFor(urlPathEqualTo("/v1/seats")).withHeader("Idempotency-Key", equalTo("req_1")));
        assertEquals(Stream.of(200, 400, 800, 1600, 3200).map(Duration::ofMillis).collect(Collectors.toList()),
                time.sleeps(), "the fixture's loop: 100 ms x 2^attempt after every failure, the last one included");
    }

    @Test
    void everyVariantIsReachableByItsCommandLineName() throws Exception {
        wm.stubFor(get(urlPathEqualTo("/v1/seats")).willReturn(okJson("{\"seats\":[]}")));
        wm.stubFor(post(urlPathEqualTo("/v1/seats")).willReturn(aResponse().withStatus(201)
                .withHeader("Content-Type", "application/json").withBody(SEAT)));

        for (Variant variant : Variant.values()) {
            assertEquals(variant, Variant.byName(variant.cliName()).orElseThrow());
            SeatRequested event = new SeatRequested("req_" + variant.ordinal(), "ws_1", "u_1");
            try (GrantHandler handler = variant.create(base, time, e -> { })) {
                assertEquals(GrantHandler.Handled.GRANTED, handler.handle(event), variant.cliName());
            }
        }
        Set<String> keyed = wm.findAll(postRequestedFor(urlPathEqualTo("/v1/seats"))).stream()
                .filter(r -> r.containsHeader("Idempotency-Key")).map(r -> r.getHeader("Idempotency-Key"))
                .collect(Collectors.toSet());
        assertEquals(Set.of("req_3", "req_4", "req_5"), keyed,
                "only 409-is-failure, the minimal patch and the answer key send the key");
        assertTrue(Variant.byName("retry-harder").isEmpty());
    }

    @Test
    void closingTheAnswerKeyReleasesItsWorker() throws Exception {
        wm.stubFor(post(urlPathEqualTo("/v1/seats")).willReturn(aResponse().withStatus(201)
                .withHeader("Content-Type", "application/json").withBody(SEAT)));
        Set<Thread> before = WorkerThreads.live();
        GrantHandler handler = Variant.ANSWER_KEY.create(base, time, e -> { });
        assertEquals(GrantHandler.Handled.GRANTED, handler.handle(new SeatRequested("req_c", "ws_1", "u_1")));

        handler.close();

        assertEquals(List.of(), WorkerThreads.startedSince(before),
                "the worker's client and threads are gone");
        IllegalStateException closed = assertThrows(IllegalStateException.class,
                () -> handler.handle(new SeatRequested("req_d", "ws_1", "u_1")));
        assertTrue(closed.getMessage().contains("closed"), closed.getMessage());
        handler.close();
    }

    /**
     * Issue 11's contract: the worker appends {@code /v1/seats} to {@code SEATS_BASE_URL}, so a base with a path
     * (the grader's secret-looking prefix) keeps it, with or without a trailing slash. WireMock answers only under
     * the prefix; a worker that resolved {@code "/v1/seats"} against the host would reach the root, get a 404 and
     * fail here.
     */
    @ParameterizedTest
    @EnumSource(Variant.class)
    void everyVariantAppendsTheSeatsPathToTheBasePath(Variant variant) throws Exception {
        String prefix = "/t/tok_x";
        wm.stubFor(get(urlPathEqualTo(prefix + "/v1/seats")).willReturn(okJson("{\"seats\":[]}")));
        wm.stubFor(post(urlPathEqualTo(prefix + "/v1/seats")).willReturn(aResponse().withStatus(201)
                .withHeader("Content-Type", "application/json").withBody(SEAT)));

        List<String> bases = List.of(wm.baseUrl() + prefix, wm.baseUrl() + prefix + "/");
        for (int i = 0; i < bases.size(); i++) {
            SeatRequested event = new SeatRequested("req_" + i, "ws_1", "u_1");
            try (GrantHandler handler = variant.create(URI.create(bases.get(i)), time, e -> { })) {
                assertEquals(GrantHandler.Handled.GRANTED, handler.handle(event), bases.get(i));
            }
        }

        wm.verify(bases.size(), postRequestedFor(urlPathEqualTo(prefix + "/v1/seats")));
        List<String> urls = wm.findAll(anyRequestedFor(anyUrl())).stream().map(LoggedRequest::getUrl).toList();
        assertTrue(urls.stream().allMatch(u -> u.startsWith(prefix + "/v1/seats")), urls.toString());
        if (variant == Variant.CHECK_THEN_POST) {
            wm.verify(bases.size(), getRequestedFor(urlPathEqualTo(prefix + "/v1/seats"))
                    .withQueryParam("workspaceId", equalTo("ws_1")).withQueryParam("userId", equalTo("u_1")));
        }
    }

    private static com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder okJson(String body) {
        return aResponse().withStatus(200).withHeader("Content-Type", "application/json").withBody(body);
    }
}
