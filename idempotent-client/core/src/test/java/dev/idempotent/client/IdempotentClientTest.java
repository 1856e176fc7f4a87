package dev.idempotent.client;

import static com.github.tomakehurst.wiremock.client.WireMock.absent;
import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.put;
import static com.github.tomakehurst.wiremock.client.WireMock.putRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.options;
import static com.github.tomakehurst.wiremock.stubbing.Scenario.STARTED;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.tomakehurst.wiremock.http.Fault;
import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import dev.idempotent.client.testing.FakeTime;
import java.net.URI;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * One scenario per test over a loopback socket, with WireMock scripting the provider: what is sent on every attempt,
 * and how each answer ends or continues the call.
 */
class IdempotentClientTest {

    private static final String ORDER = "{\"id\":\"ord_1\",\"amount\":1200}";

    @RegisterExtension
    static final WireMockExtension wm = WireMockExtension.newInstance()
            .options(options().dynamicPort().bindAddress("127.0.0.1"))
            .build();

    private final FakeTime time = new FakeTime();
    private final List<IdempotentClient> clients = new CopyOnWriteArrayList<>();

    private IdempotentClient.Builder builder() {
        return IdempotentClient.builder().sleeper(time).scheduler(time).clock(time).jitter(() -> 0.5);
    }

    private IdempotentClient client(IdempotentClient.Builder b) {
        IdempotentClient c = b.build();
        clients.add(c);
        return c;
    }

    @AfterEach
    void close() {
        clients.forEach(IdempotentClient::close);
    }

    private static URI orders() {
        return URI.create(wm.baseUrl() + "/v2/orders");
    }

    private static IdempotentRequest order(String key) {
        return IdempotentRequest.post(orders(), key).json("{\"sku\":\"a\"}").build();
    }

    @Test
    void aCreatedAnswerEndsTheCallAndTheIdIsReadByThePointer() {
        wm.stubFor(post("/v2/orders").willReturn(aResponse().withStatus(201)
                .withHeader("Content-Type", "application/json").withBody("{\"data\":{\"id\":\"ord_9\"}}")));
        IdempotentResponse r = client(builder().resourceIdPointer("/data/id")).send(order("intent_1"));
        assertFalse(r.replayed());
        assertEquals(201, r.status());
        assertEquals(Optional.of("ord_9"), r.resourceId());
        assertEquals(1, r.attempts());
        assertEquals("{\"data\":{\"id\":\"ord_9\"}}", r.bodyAsString());
        assertEquals(r.bodyAsString(), new String(r.body(), java.nio.charset.StandardCharsets.UTF_8));
        assertEquals("IdempotentResponse[status=201, replayed=false, attempts=1, bodyBytes=23]", r.toString());
        assertEquals(Optional.of("application/json"), r.headers().firstValue("content-type"));
        wm.verify(1, postRequestedFor(urlEqualTo("/v2/orders"))
                .withHeader("Idempotency-Key", equalTo("intent_1"))
                .withHeader("Content-Type", equalTo("application/json")));
    }

    @Test
    void aLostAnswerIsResentWithTheSameKeyAndTheReplayEndsIt() {
        wm.stubFor(post("/v2/orders").inScenario("lost").whenScenarioStateIs(STARTED).willSetStateTo("done")
                .willReturn(aResponse().withFault(Fault.CONNECTION_RESET_BY_PEER)));
        wm.stubFor(post("/v2/orders").inScenario("lost").whenScenarioStateIs("done")
                .willReturn(aResponse().withStatus(200).withHeader("Idempotent-Replayed", "true").withBody(ORDER)));
        IdempotentResponse r = client(builder().resourceIdPointer("/id")).send(order("intent_2"));
        assertTrue(r.replayed());
        assertEquals(2, r.attempts());
        assertEquals(Optional.of("ord_1"), r.resourceId());
        List<String> keys = wm.findAll(postRequestedFor(urlEqualTo("/v2/orders"))).stream()
                .map(q -> q.getHeader("Idempotency-Key")).toList();
        assertEquals(List.of("intent_2", "intent_2"), keys, "the same key on every attempt");
        assertEquals(List.of(Duration.ofMillis(50)), time.sleeps(), "half the 100 ms first ceiling (jitter 0.5)");
    }

    @Test
    void anInProgressConflictIsWaitedOutHonouringRetryAfter() {
        wm.stubFor(post("/v2/orders").inScenario("held").whenScenarioStateIs(STARTED).willSetStateTo("free")
                .willReturn(aResponse().withStatus(409).withHeader("Retry-After", "2")
                        .withHeader("Content-Type", "application/problem+json")
                        .withBody("{\"title\":\"in progress\"}")));
        wm.stubFor(post("/v2/orders").inScenario("held").whenScenarioStateIs("free")
                .willReturn(aResponse().withStatus(201).withBody(ORDER)));
        IdempotentClient c = client(builder().resourceIdPointer("/id"));
        IdempotentResponse r = c.send(order("intent_3"));
        assertFalse(r.replayed());
        assertEquals(2, r.attempts(), "the wait used up an attempt");
        assertEquals(List.of(Duration.ofSeconds(2)), time.sleeps());
        assertEquals(1, c.retry().getMetrics().getNumberOfSuccessfulCallsWithRetryAttempt());
    }

    @Test
    void aConflictNamingTheResourceIsAReplayAtOnce() {
        wm.stubFor(post("/v2/orders").willReturn(aResponse().withStatus(409).withBody(ORDER)));
        IdempotentResponse r = client(builder().resourceIdPointer("/id")).send(order("intent_4"));
        assertTrue(r.replayed());
        assertEquals(409, r.status());
        assertEquals(Optional.of("ord_1"), r.resourceId());
        assertTrue(time.sleeps().isEmpty());
    }

    @Test
    void aKeyReusedWithAnotherBodyIsRejectedAfterOneAttempt() {
        wm.stubFor(post("/v2/orders").willReturn(aResponse().withStatus(422)
                .withHeader("Content-Type", "application/problem+json").withBody("{\"title\":\"key reused\"}")));
        IdempotentClient c = client(builder());
        RequestRejectedException e = assertThrows(RequestRejectedException.class, () -> c.send(order("intent_5")));
        assertEquals("intent_5", e.key());
        assertEquals(1, e.attempts());
        assertEquals(OptionalInt.of(422), e.status());
        assertTrue(e.reason().startsWith("422: "), e.reason());
        wm.verify(1, postRequestedFor(urlEqualTo("/v2/orders")));
        assertEquals(1, c.retry().getMetrics().getNumberOfFailedCallsWithoutRetryAttempt());
    }

    @Test
    void anOutageEndsAfterMaxAttemptsAndNamesNeitherTheUrlNorTheBody() {
        wm.stubFor(post("/v2/orders").willReturn(aResponse().withStatus(503).withBody("upstream s3cr3t")));
        IdempotentClient c = client(builder().maxAttempts(3));
        RetriesExhaustedException e = assertThrows(RetriesExhaustedException.class, () -> c.send(order("intent_6")));
        assertEquals(RetriesExhaustedException.Limit.ATTEMPTS, e.limit());
        assertEquals(3, e.attempts());
        assertEquals(OptionalInt.of(503), e.status());
        assertEquals(2, time.sleeps().size(), "3 attempts = 2 waits");
        wm.verify(3, postRequestedFor(urlEqualTo("/v2/orders")).withHeader("Idempotency-Key", equalTo("intent_6")));
        assertTrue(e.getMessage().contains("intent_6"), e.getMessage());
        assertTrue(e.getMessage().contains("attempts spent; last: status 503 (503: "), e.getMessage());
        assertFalse(e.getMessage().contains("127.0.0.1") || e.getMessage().contains("/v2/orders")
                || e.getMessage().contains("s3cr3t"), e.getMessage());
        assertEquals(1, c.retry().getMetrics().getNumberOfFailedCallsWithRetryAttempt());
    }

    @Test
    void theCallTimeoutEndsTheCallAsADeadline() {
        wm.stubFor(post("/v2/orders").willReturn(aResponse().withStatus(503).withHeader("Retry-After", "4")));
        IdempotentClient c = client(builder().callTimeout(Duration.ofSeconds(10)).maxAttempts(10));
        RetriesExhaustedException e = assertThrows(RetriesExhaustedException.class, () -> c.send(order("intent_7")));
        assertEquals(RetriesExhaustedException.Limit.DEADLINE, e.limit());
        assertEquals(3, e.attempts(), "waits of 4 s at 0, 4 and 8 s: the third would reach the 10 s deadline");
        assertTrue(e.getMessage().contains("deadline reached"), e.getMessage());
        assertEquals(List.of(Duration.ofSeconds(4), Duration.ofSeconds(4)), time.sleeps());
    }

    @Test
    void aProviderHeaderCarriesTheKeyAndNoIdempotencyKeyIsSent() {
        wm.stubFor(post("/v2/orders").willReturn(aResponse().withStatus(201).withBody(ORDER)));
        client(builder().keyHeader("PayPal-Request-Id")).send(order("intent_8"));
        wm.verify(1, postRequestedFor(urlEqualTo("/v2/orders"))
                .withHeader("PayPal-Request-Id", equalTo("intent_8"))
                .withHeader("Idempotency-Key", absent()));
    }

    @Test
    void aStructuredKeyIsSentAsAnSfString() {
        wm.stubFor(post("/v2/orders").willReturn(aResponse().withStatus(201).withBody(ORDER)));
        client(builder().keyForm(KeyForm.STRUCTURED)).send(order("in\"tent"));
        wm.verify(1, postRequestedFor(urlEqualTo("/v2/orders"))
                .withHeader("Idempotency-Key", equalTo("\"in\\\"tent\"")));
    }

    @Test
    void aKeyTheFormCannotCarryIsRefusedBeforeAnyAttempt() {
        IdempotentClient c = client(builder().keyForm(KeyForm.STRUCTURED));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> c.send(order("caf\u00e9")));
        assertFalse(e.getMessage().contains("caf"), "the rule, not the value: " + e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> c.sendAsync(order("a\nb")));
        assertEquals(0, wm.findAll(postRequestedFor(urlEqualTo("/v2/orders"))).size());
        assertEquals(0, c.retry().getMetrics().getNumberOfTotalCalls(), "not a call: nothing was attempted");
    }

    @Test
    void theCustomizerSeesTheKeyAndAttemptAndCannotChangeTheClientsHeaders() {
        wm.stubFor(post("/v2/orders").inScenario("c").whenScenarioStateIs(STARTED).willSetStateTo("ok")
                .willReturn(aResponse().withStatus(502)));
        wm.stubFor(post("/v2/orders").inScenario("c").whenScenarioStateIs("ok")
                .willReturn(aResponse().withStatus(201).withBody(ORDER)));
        IdempotentRequest request = IdempotentRequest.post(orders(), "intent_9").json("{}")
                .header("X-Tenant", "request-wins").build();
        client(builder().requestCustomizer((b, key, attempt) -> b
                .header("traceparent", key + "-" + attempt)
                .header("Idempotency-Key", "someone-elses")
                .header("Content-Type", "text/plain")
                .header("X-Tenant", "customizer"))).send(request);
        List<LoggedRequest> sent = wm.findAll(postRequestedFor(urlEqualTo("/v2/orders")));
        assertEquals(List.of("intent_9-1", "intent_9-2"), sent.stream().map(q -> q.getHeader("traceparent")).toList());
        for (LoggedRequest q : sent) {
            assertEquals(List.of("intent_9"), q.getHeaders().getHeader("Idempotency-Key").values());
            assertEquals(List.of("application/json"), q.getHeaders().getHeader("Content-Type").values());
            assertEquals(List.of("request-wins"), q.getHeaders().getHeader("X-Tenant").values());
        }
    }

    @Test
    void aCustomizerThatThrowsEndsTheCallWithItsExceptionAndSendsNothing() {
        IdempotentClient c = client(builder().requestCustomizer((b, key, attempt) -> {
            throw new IllegalStateException("token store down");
        }));
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> c.send(order("intent_10")));
        assertEquals("token store down", e.getMessage());
        assertEquals(0, wm.findAll(postRequestedFor(urlEqualTo("/v2/orders"))).size());
    }

    @Test
    void aPutIsSentWithItsMethodAndKey() {
        wm.stubFor(put("/v2/orders/1").willReturn(aResponse().withStatus(200).withBody(ORDER)));
        IdempotentResponse r = client(builder()).send(IdempotentRequest.of("PUT", URI.create(wm.baseUrl()
                + "/v2/orders/1"), "intent_11").json("{}").build());
        assertEquals(Optional.empty(), r.resourceId(), "no pointer, no id");
        wm.verify(1, putRequestedFor(urlEqualTo("/v2/orders/1")).withHeader("Idempotency-Key", equalTo("intent_11")));
    }

    @Test
    void aCallersRuleComesBeforeTheDefaults() {
        // A provider that answers 200 {"status":"pending"} while it works: the defaults would call that created.
        wm.stubFor(post("/v2/orders").inScenario("p").whenScenarioStateIs(STARTED).willSetStateTo("done")
                .willReturn(aResponse().withStatus(200).withBody("{\"status\":\"pending\"}")));
        wm.stubFor(post("/v2/orders").inScenario("p").whenScenarioStateIs("done")
                .willReturn(aResponse().withStatus(200).withBody(ORDER)));
        IdempotentResponse r = client(builder().resourceIdPointer("/id").rule((answer, attempt) ->
                answer.bodyAsString().contains("pending")
                        ? Optional.of(Verdict.retryAfter(Duration.ofMillis(300), "pending: still working"))
                        : Optional.empty())).send(order("intent_12"));
        assertEquals(2, r.attempts());
        assertEquals(List.of(Duration.ofMillis(300)), time.sleeps());
    }

    @Test
    void aClientThatFollowsRedirectsIsRefused() {
        HttpClient follows = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NORMAL).build();
        assertThrows(IllegalArgumentException.class, () -> IdempotentClient.builder().httpClient(follows).build());
    }

    @Test
    void theBuilderRefusesWhatCannotWork() {
        IdempotentClient.Builder b = IdempotentClient.builder();
        assertThrows(IllegalArgumentException.class, () -> b.maxAttempts(0));
        assertThrows(IllegalArgumentException.class, () -> b.callTimeout(Duration.ZERO));
        assertThrows(IllegalArgumentException.class, () -> b.keyHeader("Bad Header"));
        assertThrows(IllegalArgumentException.class, () -> b.keyHeader("X:Y"));
        assertThrows(IllegalArgumentException.class, () -> b.resourceIdPointer("id"));
        assertThrows(IllegalArgumentException.class, () -> b.resourceIdPointer(""));
        assertThrows(IllegalArgumentException.class, () -> b.retryName(" "));
        assertThrows(IllegalArgumentException.class,
                () -> IdempotentClient.builder().baseDelay(Duration.ofSeconds(3)).maxDelay(Duration.ofSeconds(2)).build());
    }

    @Test
    void theRetryIsNamedAsTheCallerSays() {
        assertEquals("idempotent-client", client(builder()).retry().getName());
        assertEquals("orders", client(builder().retryName("orders")).retry().getName());
    }

    @Test
    void aClosedClientRefusesNewCalls() {
        IdempotentClient c = client(builder());
        c.close();
        c.close();
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> c.send(order("k")));
        assertTrue(e.getMessage().contains("closed"), e.getMessage());
        assertThrows(IllegalStateException.class, () -> c.sendAsync(order("k")));
    }

    @Test
    void everyBudgetSetterChainsAndTheRetryAfterCapHolds() {
        wm.stubFor(post("/v2/orders").inScenario("cap").whenScenarioStateIs(STARTED).willSetStateTo("ok")
                .willReturn(aResponse().withStatus(503).withHeader("Retry-After", "30")));
        wm.stubFor(post("/v2/orders").inScenario("cap").whenScenarioStateIs("ok")
                .willReturn(aResponse().withStatus(201).withBody(ORDER)));
        IdempotentClient c = client(builder().attemptTimeout(Duration.ofSeconds(4)).connectTimeout(Duration.ofSeconds(1))
                .retryAfterCap(Duration.ofSeconds(3)).baseDelay(Duration.ofSeconds(1)).maxDelay(Duration.ofSeconds(1))
                .maxAttempts(2).callTimeout(Duration.ofSeconds(20)));
        assertEquals(2, c.send(order("intent_13")).attempts());
        assertEquals(List.of(Duration.ofSeconds(3)), time.sleeps(), "30 s asked, 3 s honoured");
    }

    @Test
    void oneAttemptIsAllowedAndEndsExhausted() {
        wm.stubFor(post("/v2/orders").willReturn(aResponse().withStatus(503)));
        RetriesExhaustedException e = assertThrows(RetriesExhaustedException.class,
                () -> client(builder().maxAttempts(1)).send(order("intent_14")));
        assertEquals(1, e.attempts());
        assertTrue(time.sleeps().isEmpty());
    }

    @Test
    void aKeyHeaderIsVisibleAsciiWithoutAColon() {
        IdempotentClient.Builder b = IdempotentClient.builder();
        b.keyHeader("!~");
        assertThrows(IllegalArgumentException.class, () -> b.keyHeader("X\u007F"));
        assertThrows(IllegalArgumentException.class, () -> b.keyHeader(""));
    }

    @Test
    void aCustomizerFailureIsReportedOnceAsFailed() {
        List<IdempotentListener.OutcomeEvent> outcomes = new CopyOnWriteArrayList<>();
        IdempotentClient c = client(builder().listener(new IdempotentListener() {
            @Override
            public void onOutcome(IdempotentListener.OutcomeEvent outcome) {
                outcomes.add(outcome);
            }
        }).requestCustomizer((b, key, attempt) -> {
            throw new IllegalStateException("token store down");
        }));
        assertThrows(IllegalStateException.class, () -> c.send(order("intent_15")));
        assertEquals(List.of(IdempotentListener.Outcome.FAILED),
                outcomes.stream().map(IdempotentListener.OutcomeEvent::outcome).toList());
    }

    @Test
    void anInterruptedWaitEndsTheCallAndKeepsTheFlag() {
        wm.stubFor(post("/v2/orders").willReturn(aResponse().withStatus(503)));
        IdempotentClient c = client(IdempotentClient.builder().clock(time).jitter(() -> 0.5).sleeper(d -> {
            throw new InterruptedException();
        }));
        RequestInterruptedException e = assertThrows(RequestInterruptedException.class, () -> c.send(order("intent_16")));
        assertTrue(Thread.interrupted(), "the flag is restored (and cleared here)");
        assertEquals(1, e.attempts());
        assertEquals(OptionalInt.of(503), e.status());
    }

    @Test
    void aClosedClientSaysSoAndReportsNoCall() {
        List<IdempotentListener.OutcomeEvent> outcomes = new CopyOnWriteArrayList<>();
        IdempotentClient c = client(builder().listener(new IdempotentListener() {
            @Override
            public void onOutcome(IdempotentListener.OutcomeEvent outcome) {
                outcomes.add(outcome);
            }
        }));
        c.close();
        assertEquals("this IdempotentClient is closed",
                assertThrows(IllegalStateException.class, () -> c.send(order("k"))).getMessage());
        assertEquals(List.of(), outcomes, "refused, not started and cancelled");
    }

    @Test
    void aDeadlineInTheFutureLetsTheCallEndAsUsual() {
        wm.stubFor(post("/v2/orders").willReturn(aResponse().withStatus(201).withBody(ORDER)));
        IdempotentResponse r = client(builder().resourceIdPointer("/id")).send(order("intent_17"),
                time.instant().plusSeconds(60));
        assertEquals(Optional.of("ord_1"), r.resourceId());
    }
}
