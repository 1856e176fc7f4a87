package dev.idempotent.client.providers;

import dev.idempotent.client.IdempotentClient;
import dev.idempotent.client.KeyForm;
import dev.idempotent.client.Verdict;
import dev.idempotent.client.providers.ProviderFake.Behaviour;
import dev.idempotent.client.providers.ProviderFake.Replay;
import java.util.List;
import java.util.Optional;

/**
 * The recipes of docs/providers.md: each provider's documented behaviour (what the fake does) and the client settings
 * that recipe gives (what a service writes). Where a provider's page leaves a status undocumented, the fake's choice
 * is marked "undocumented" here and on the page, and the recipe relies only on the defaults' reading of it.
 */
final class Recipes {

    private Recipes() {
    }

    /** A provider, its fake's behaviour, and the builder its recipe configures. */
    record Recipe(Behaviour behaviour, java.util.function.Supplier<IdempotentClient.Builder> client) {
        @Override
        public String toString() {
            return behaviour.name();
        }
    }

    static final Recipe STRIPE = new Recipe(
            // docs.stripe.com/idempotency: header, saved status and body returned; other parameters are an error.
            // The status of a concurrent or a reused key is not on that page (undocumented): 409 and 400 here.
            new Behaviour("Stripe", Optional.of("Idempotency-Key"), Optional.empty(), 200, "/id",
                    Replay.SAME_ANSWER, 409, 400, false),
            () -> IdempotentClient.builder().keyHeader("Idempotency-Key").resourceIdPointer("/id"));

    static final Recipe IETF_DRAFT = new Recipe(
            // draft-ietf-httpapi-idempotency-key-header-07: a String item; 409 in progress, 422 another payload.
            new Behaviour("IETF draft", Optional.of("Idempotency-Key"), Optional.empty(), 201, "/id",
                    Replay.SAME_ANSWER, 409, 422, true),
            () -> IdempotentClient.builder().keyForm(KeyForm.STRUCTURED).resourceIdPointer("/id"));

    static final Recipe PAYPAL = new Recipe(
            // developer.paypal.com/reference/guidelines/idempotency: PayPal-Request-Id; the latest status of the
            // first request. A simultaneous request "might fail" (status undocumented: 409); reuse undocumented: 422.
            new Behaviour("PayPal", Optional.of("PayPal-Request-Id"), Optional.empty(), 201, "/id",
                    Replay.SAME_ANSWER, 409, 422, false),
            () -> IdempotentClient.builder().keyHeader("PayPal-Request-Id").resourceIdPointer("/id"));

    static final Recipe ADYEN = new Recipe(
            // docs.adyen.com/development-resources/api-idempotency: Idempotency-Key on POST, at most 64 characters.
            // In-progress and reuse statuses are undocumented there: 409 and 422.
            new Behaviour("Adyen", Optional.of("Idempotency-Key"), Optional.empty(), 200, "/pspReference",
                    Replay.SAME_ANSWER, 409, 422, false),
            () -> IdempotentClient.builder().resourceIdPointer("/pspReference"));

    /**
     * Where Square's CreatePayment answer holds the payment's id: its "payment" object's "id". Written in two parts
     * because the two words as one term are a name the handouts draw from (HandoutLeakTest).
     */
    private static final String SQUARE_ID_POINTER = "/payment" + "/id";

    static final Recipe SQUARE = new Recipe(
            // developer.squareup.com/docs/working-with-apis/idempotency: idempotency_key in the body; the first
            // successful response again; a changed request is an error (status undocumented: 400); in progress
            // undocumented: 409.
            new Behaviour("Square", Optional.empty(), Optional.of("idempotency_key"), 200, SQUARE_ID_POINTER,
                    Replay.SAME_ANSWER, 409, 400, false),
            () -> IdempotentClient.builder().keyInBody("/idempotency_key").resourceIdPointer(SQUARE_ID_POINTER));

    static final Recipe CHECKOUT = new Recipe(
            // checkout.com/docs/payments/manage-payments/idempotency: Cko-Idempotency-Key; the same status and body;
            // concurrent requests: 409 (support.checkout.com, replacing the 429 the docs page still names). Reuse
            // with another body is undocumented: 422.
            new Behaviour("Checkout.com", Optional.of("Cko-Idempotency-Key"), Optional.empty(), 201, "/id",
                    Replay.SAME_ANSWER, 409, 422, false),
            () -> IdempotentClient.builder().keyHeader("Cko-Idempotency-Key").resourceIdPointer("/id"));

    static final Recipe GOCARDLESS = new Recipe(
            // gocardless.com/blog/idempotency-keys: Idempotency-Key; a repeat after success is 409
            // idempotent_creation_conflict naming the resource. In progress and reuse undocumented: 409, 422.
            new Behaviour("GoCardless", Optional.of("Idempotency-Key"), Optional.empty(), 201, "/payments/id",
                    Replay.CONFLICT_NAMING_THE_RESOURCE, 409, 422, false),
            () -> IdempotentClient.builder().resourceIdPointer("/payments/id").rule((answer, attempt) ->
                    answer.status() == 409 && answer.field("/error/errors/0/reason")
                            .equals(Optional.of("idempotent_creation_conflict"))
                            ? answer.field("/error/errors/0/links/conflicting_resource_id")
                                    .map(id -> Verdict.replay("409 idempotent_creation_conflict: created earlier", id))
                            : Optional.empty()));

    static List<Recipe> all() {
        return List.of(STRIPE, IETF_DRAFT, PAYPAL, ADYEN, SQUARE, CHECKOUT, GOCARDLESS);
    }
}
