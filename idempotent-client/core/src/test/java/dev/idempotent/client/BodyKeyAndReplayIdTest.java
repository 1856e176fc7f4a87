package dev.idempotent.client;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.absent;
import static com.github.tomakehurst.wiremock.client.WireMock.equalToJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.options;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import dev.idempotent.client.testing.FakeTime;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The key in a body field, and a rule that reads the answer and names the resource: over a loopback socket, what is
 * sent and how the call ends.
 */
class BodyKeyAndReplayIdTest {

    @RegisterExtension
    static final WireMockExtension wm = WireMockExtension.newInstance()
            .options(options().dynamicPort().bindAddress("127.0.0.1"))
            .build();

    private final FakeTime time = new FakeTime();
    private final List<IdempotentClient> clients = new CopyOnWriteArrayList<>();

    private IdempotentClient client(IdempotentClient.Builder b) {
        IdempotentClient c = b.sleeper(time).scheduler(time).clock(time).jitter(() -> 0.5).build();
        clients.add(c);
        return c;
    }

    @AfterEach
    void close() {
        clients.forEach(IdempotentClient::close);
    }

    private static URI payments() {
        return URI.create(wm.baseUrl() + "/v2/payments");
    }

    @Test
    void theKeyGoesInTheBodyOnEveryAttemptAndNoKeyHeaderIsSent() {
        wm.stubFor(post("/v2/payments").inScenario("s").whenScenarioStateIs("Started").willSetStateTo("up")
                .willReturn(aResponse().withStatus(503)));
        wm.stubFor(post("/v2/payments").inScenario("s").whenScenarioStateIs("up")
                .willReturn(aResponse().withStatus(200).withBody("{\"data\":{\"id\":\"pay_1\"}}")));
        IdempotentClient c = client(IdempotentClient.builder().keyInBody("/idempotency_key")
                .resourceIdPointer("/data/id"));
        IdempotentResponse r = c.send(IdempotentRequest.post(payments(), "key-7")
                .json("{\"amount_money\":{\"amount\":100}}").build());
        assertEquals(2, r.attempts());
        assertEquals(Optional.of("pay_1"), r.resourceId());
        wm.verify(2, postRequestedFor(urlEqualTo("/v2/payments"))
                .withHeader(IdempotentClient.DEFAULT_KEY_HEADER, absent())
                .withRequestBody(equalToJson("{\"amount_money\":{\"amount\":100},\"idempotency_key\":\"key-7\"}")));
        String sent = wm.getAllServeEvents().get(0).getRequest().getBodyAsString();
        assertEquals("{\"amount_money\":{\"amount\":100},\"idempotency_key\":\"key-7\"}", sent);
    }

    @Test
    void aBodyHoldingAnotherKeyFailsBeforeAnyAttemptNamingThePointerOnly() {
        IdempotentClient c = client(IdempotentClient.builder().keyInBody("/idempotency_key"));
        IdempotentRequest other = IdempotentRequest.post(payments(), "key-7")
                .json("{\"idempotency_key\":\"old-key\"}").build();
        IllegalArgumentException sync = assertThrows(IllegalArgumentException.class, () -> c.send(other));
        IllegalArgumentException async = assertThrows(IllegalArgumentException.class, () -> c.sendAsync(other));
        for (IllegalArgumentException e : List.of(sync, async)) {
            assertTrue(e.getMessage().contains("/idempotency_key"), e.getMessage());
            assertFalse(e.getMessage().contains("old-key") || e.getMessage().contains("key-7"), e.getMessage());
        }
        assertEquals(0, wm.getAllServeEvents().size());
    }

    @Test
    void aStructuredKeyFormIsRefusedWithAKeyInTheBody() {
        IdempotentClient.Builder b = IdempotentClient.builder().keyInBody("/k").keyForm(KeyForm.STRUCTURED);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, b::build);
        assertTrue(e.getMessage().contains("STRUCTURED"), e.getMessage());
    }

    @Test
    void theTokenRulesApplyToAKeyInTheBody() {
        IdempotentClient c = client(IdempotentClient.builder().keyInBody("/k"));
        assertThrows(IllegalArgumentException.class,
                () -> c.send(IdempotentRequest.post(payments(), " padded").json("{}").build()));
        assertEquals(0, wm.getAllServeEvents().size());
    }

    private static final String GOCARDLESS_CONFLICT = "{\"error\":{\"type\":\"invalid_state\",\"code\":409,"
            + "\"errors\":[{\"reason\":\"idempotent_creation_conflict\","
            + "\"links\":{\"conflicting_resource_id\":\"PM00ABC\"}}]}}";

    private static ResponseRule conflictNamesTheResource() {
        return (answer, attempt) -> answer.status() == 409
                && answer.field("/error/errors/0/reason").equals(Optional.of("idempotent_creation_conflict"))
                ? answer.field("/error/errors/0/links/conflicting_resource_id")
                        .map(id -> Verdict.replay("409 idempotent_creation_conflict: created earlier", id))
                : Optional.empty();
    }

    @Test
    void aRuleCanEndA409AsAReplayNamingTheExistingResourceInOneAttempt() {
        wm.stubFor(post("/v2/payments").willReturn(aResponse().withStatus(409)
                .withHeader("Content-Type", "application/json").withBody(GOCARDLESS_CONFLICT)));
        IdempotentClient c = client(IdempotentClient.builder().resourceIdPointer("/payments/id")
                .rule(conflictNamesTheResource()));
        IdempotentRequest req = IdempotentRequest.post(payments(), "k1").json("{}").build();
        for (IdempotentResponse r : List.of(c.send(req), c.sendAsync(req).join())) {
            assertTrue(r.replayed());
            assertEquals(Optional.of("PM00ABC"), r.resourceId());
            assertEquals(1, r.attempts());
            assertEquals(409, r.status());
        }
    }

    @Test
    void withoutTheRuleThatSame409IsStillInProgressAndRetried() {
        wm.stubFor(post("/v2/payments").willReturn(aResponse().withStatus(409)
                .withHeader("Content-Type", "application/json").withBody(GOCARDLESS_CONFLICT)));
        IdempotentClient c = client(IdempotentClient.builder().maxAttempts(3));
        RetriesExhaustedException e = assertThrows(RetriesExhaustedException.class,
                () -> c.send(IdempotentRequest.post(payments(), "k1").json("{}").build()));
        assertEquals(3, wm.getAllServeEvents().size());
        assertTrue(e.getMessage().contains("in progress"), e.getMessage());
    }

    @Test
    void aReplayWithoutAnIdKeepsWhatThePointerRead() {
        wm.stubFor(post("/v2/payments").willReturn(aResponse().withStatus(200).withBody("{\"id\":\"p_9\"}")));
        IdempotentClient c = client(IdempotentClient.builder().resourceIdPointer("/id")
                .rule((answer, attempt) -> Optional.of(new Verdict.Replay("the provider says so"))));
        IdempotentResponse r = c.send(IdempotentRequest.post(payments(), "k1").json("{}").build());
        assertTrue(r.replayed());
        assertEquals(Optional.of("p_9"), r.resourceId());
        assertEquals(Optional.empty(), new Verdict.Replay("x").resourceId());
    }

    @Test
    void aBlankResourceIdIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> Verdict.replay("r", " "));
        assertThrows(NullPointerException.class, () -> Verdict.replay("r", null));
    }

    @Test
    void fieldReadsTheKeptBodyAndNothingFromATruncatedOne() {
        byte[] body = "{\"amount\":1.50,\"ok\":true,\"id\":\"x\"}".getBytes(StandardCharsets.UTF_8);
        java.net.http.HttpHeaders none = java.net.http.HttpHeaders.of(java.util.Map.of(), (a, b) -> true);
        IdempotentResponse whole = new IdempotentResponse(false, 200, none, body, Optional.empty(), 1, false);
        assertEquals(Optional.of("1.50"), whole.field("/amount"));
        assertEquals(Optional.of("true"), whole.field("/ok"));
        assertEquals(Optional.of("x"), whole.field("/id"));
        assertEquals(Optional.empty(), whole.field("/missing"));
        IdempotentResponse cut = new IdempotentResponse(false, 200, none, body, Optional.empty(), 1, true);
        assertEquals(Optional.empty(), cut.field("/amount"));
        assertThrows(IllegalArgumentException.class, () -> whole.field("amount"));
    }
}
