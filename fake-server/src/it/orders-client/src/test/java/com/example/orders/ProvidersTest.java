package com.example.orders;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idempotent.client.IdempotentClient;
import dev.idempotent.client.IdempotentRequest;
import dev.idempotent.client.IdempotentResponse;
import dev.idempotent.client.KeyForm;
import dev.idempotent.client.RequestRejectedException;
import dev.idempotent.client.RetriesExhaustedException;
import java.net.URI;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * One client library, five providers' ways: the order service's calls, each through {@link IdempotentClient}, each
 * ending with one order however the answers were lost, held or refused.
 */
class ProvidersTest {

    /** The service's own HTTP client, shared by every IdempotentClient it builds; never following redirects. */
    private static final HttpClient HTTP = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .followRedirects(HttpClient.Redirect.NEVER)
            .connectTimeout(Duration.ofSeconds(2))
            .build();

    private static IdempotentRequest order(URI base, String key, String sku) {
        return IdempotentRequest.post(base.resolve("/orders"), key).json("{\"sku\":\"" + sku + "\"}").build();
    }

    @Test
    void aStripeLikeApiBehindTheIncidentMakesEachOrderOnceAndReplaysTheLostAnswer() throws Exception {
        try (OrdersApi stripe = new OrdersApi(OrdersApi.Style.STRIPE);
                ProxyProcess proxy = ProxyProcess.start(stripe.uri(), "--scenario", "incident",
                        "--route", "POST /orders", "--created", "json:/id");
                IdempotentClient client = IdempotentClient.builder().httpClient(HTTP).resourceIdPointer("/id")
                        .build()) {
            for (String intent : List.of("intent_1", "intent_2", "intent_3")) {
                IdempotentResponse r = client.send(order(proxy.base(), intent, "book"));
                assertTrue(r.replayed(), intent + ": the first answer was lost, the resend is the replay");
                assertEquals(2, r.attempts());
                assertEquals(200, r.status());
                assertTrue(r.resourceId().orElseThrow().startsWith("ord_"), r.resourceId().toString());
            }
            assertEquals(3, stripe.orders(), "one order per intent");
            String ledger = proxy.ledger();
            assertTrue(ledger.replace(" ", "").contains("\"duplicates\":[]"), ledger);
            assertTrue(ledger.replace(" ", "").contains("\"created\":3"), ledger);
        }
    }

    @Test
    void aDraftFollowingApiRefusesABareKeyTakesAnSfStringAndHoldsASecondCallerWithA409() throws Exception {
        try (OrdersApi draft = new OrdersApi(OrdersApi.Style.DRAFT).holdingFirst()) {
            try (IdempotentClient bare = IdempotentClient.builder().httpClient(HTTP).build()) {
                RequestRejectedException e = assertThrows(RequestRejectedException.class,
                        () -> bare.send(order(draft.uri(), "intent_7", "lamp")));
                assertEquals(1, e.attempts());
                assertEquals(OptionalInt.of(400), e.status());
            }
            try (IdempotentClient structured = IdempotentClient.builder().httpClient(HTTP)
                    .keyForm(KeyForm.STRUCTURED).resourceIdPointer("/id").build()) {
                // Two consumers got the same message: the first call is held by the provider, the second gets 409s.
                CompletableFuture<IdempotentResponse> first = structured.sendAsync(order(draft.uri(), "intent_8", "lamp"));
                draft.awaitFirstArrival();
                CompletableFuture<IdempotentResponse> second = structured.sendAsync(order(draft.uri(), "intent_8", "lamp"));
                long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                while (draft.conflicts() == 0 && System.nanoTime() < until) {
                    Thread.onSpinWait();
                }
                assertEquals(1, draft.conflicts(), "the second caller was told the key is in progress");
                draft.releaseFirst();

                IdempotentResponse a = first.get(30, TimeUnit.SECONDS);
                IdempotentResponse b = second.get(30, TimeUnit.SECONDS);
                assertEquals(Optional.of("ord_1"), a.resourceId());
                assertEquals(a.resourceId(), b.resourceId(), "both callers end with the one order");
                assertEquals(2, b.attempts(), "the 409 was waited out (Retry-After: 1), then answered from the store");
                assertEquals(1, draft.orders());
            }
            assertEquals(List.of("intent_7", "\"intent_8\"", "\"intent_8\"", "\"intent_8\""), draft.keysSeen());
        }
    }

    @Test
    void aKeyReusedWithAnotherBodyIsRejectedAfterOneAttempt() throws Exception {
        try (OrdersApi draft = new OrdersApi(OrdersApi.Style.DRAFT);
                IdempotentClient client = IdempotentClient.builder().httpClient(HTTP).keyForm(KeyForm.STRUCTURED)
                        .resourceIdPointer("/id").build()) {
            assertEquals(Optional.of("ord_1"), client.send(order(draft.uri(), "intent_9", "lamp")).resourceId());

            RequestRejectedException e = assertThrows(RequestRejectedException.class,
                    () -> client.send(order(draft.uri(), "intent_9", "chair")));
            assertEquals(1, e.attempts());
            assertEquals(OptionalInt.of(422), e.status());
            assertEquals("intent_9", e.key());
            assertEquals(2, draft.keysSeen().size(), "one request per call, no resend of the refused one");
            assertEquals(1, draft.orders());
        }
    }

    @Test
    void aProviderHeaderCarriesTheKeyThroughALostAnswer() throws Exception {
        try (OrdersApi paypal = new OrdersApi(OrdersApi.Style.PAYPAL).failingFirstAfterCommit();
                IdempotentClient client = IdempotentClient.builder().httpClient(HTTP)
                        .keyHeader("PayPal-Request-Id").resourceIdPointer("/id").build()) {
            IdempotentResponse r = client.send(order(paypal.uri(), "intent_10", "desk"));
            assertEquals(Optional.of("ord_1"), r.resourceId());
            assertEquals(2, r.attempts());
            assertFalse(r.replayed(), "PayPal answers a resend with the stored answer, unmarked");
            assertEquals(List.of("intent_10", "intent_10"), paypal.keysSeen());
            assertEquals(1, paypal.orders());
        }
    }

    @Test
    void anOutageEndsAfterMaxAttempts() throws Exception {
        try (OrdersApi down = new OrdersApi(OrdersApi.Style.OUTAGE);
                IdempotentClient client = IdempotentClient.builder().httpClient(HTTP).maxAttempts(3)
                        .baseDelay(Duration.ofMillis(10)).maxDelay(Duration.ofMillis(50)).build()) {
            RetriesExhaustedException e = assertThrows(RetriesExhaustedException.class,
                    () -> client.send(order(down.uri(), "intent_11", "desk")));
            assertEquals(RetriesExhaustedException.Limit.ATTEMPTS, e.limit());
            assertEquals(3, e.attempts());
            assertEquals(OptionalInt.of(503), e.status());
            assertEquals(List.of("intent_11", "intent_11", "intent_11"), down.keysSeen());
        }
    }
}
