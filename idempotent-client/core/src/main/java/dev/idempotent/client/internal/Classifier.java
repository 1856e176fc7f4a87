package dev.idempotent.client.internal;

import com.fasterxml.jackson.core.JsonPointer;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.idempotent.client.IdempotentResponse;
import dev.idempotent.client.ResponseRule;
import dev.idempotent.client.Verdict;
import java.io.IOException;
import java.net.ConnectException;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpTimeoutException;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Decides what one attempt's answer means: replay, created, retry, or give up. The caller's rules first, then an
 * ordered list of guard clauses, each with the one-line reason it exists; the first that matches wins. Pure and
 * thread-safe (the caller's rules must be too).
 *
 * <p>The whole list leans on one fact: every attempt carries the same key, so a resend after an ambiguous failure can
 * at worst be answered with what an earlier attempt did. Without the key, half of the retry clauses below would be
 * a duplicate order.
 */
public final class Classifier {

    private final JsonFactory json = new JsonFactory();
    private final List<ResponseRule> rules;
    private final Optional<JsonPointer> resourceIdPointer;

    /**
     * A classifier; it holds no per-call state, so one serves every call of a client.
     *
     * @param rules             the caller's rules, asked in order before the defaults
     * @param resourceIdPointer where the created resource's id sits in a JSON body, if the API says
     */
    public Classifier(List<ResponseRule> rules, Optional<JsonPointer> resourceIdPointer) {
        this.rules = List.copyOf(rules);
        this.resourceIdPointer = Objects.requireNonNull(resourceIdPointer, "resourceIdPointer");
    }

    /** A classifier with the defaults only and no resource id pointer. */
    public Classifier() {
        this(List.of(), Optional.empty());
    }

    /**
     * Classifies an attempt that got no complete answer. Callers' rules see answers only.
     *
     * @param failure the transport failure
     * @return always a retry: with the key, a resend after any transport failure is safe
     */
    public Decision classify(IOException failure) {
        if (failure instanceof HttpConnectTimeoutException) {
            return retry(failure, "connect timeout: nothing was sent, so a resend is a first attempt");
        }
        if (failure instanceof HttpTimeoutException) {
            return retry(failure, "request timeout: the server may have committed; the key makes a resend safe");
        }
        if (failure instanceof ConnectException) {
            return retry(failure, "connection refused: nothing reached the server");
        }
        // A reset or an EOF after the request went out: the operation may have happened, the answer is lost.
        return retry(failure, "connection dropped after sending: the server may have committed; the key makes a resend safe");
    }

    /**
     * Classifies an attempt that got a complete HTTP answer.
     *
     * @param answer  the answer
     * @param attempt which attempt got it, from 1
     * @return the first matching rule's decision: the caller's rules first, then the defaults
     */
    public Decision classify(Exchange answer, int attempt) {
        Optional<String> resourceId = resourceId(answer);
        if (!rules.isEmpty()) {
            IdempotentResponse seen = response(answer, answer.replayed(), resourceId, attempt);
            for (ResponseRule rule : rules) {
                Optional<Verdict> verdict = rule.classify(seen, attempt);
                if (verdict.isPresent()) {
                    return decide(verdict.get(), answer, resourceId, attempt);
                }
            }
        }
        int status = answer.status();
        boolean success = status >= 200 && status < 300;

        if (success && answer.replayed()) {
            return done(answer, true, resourceId, attempt,
                    "2xx marked Idempotent-Replayed: the key was completed earlier; this is that result");
        }
        if (status == 409 && resourceId.isPresent()) {
            return done(answer, true, resourceId, attempt,
                    "409 naming the resource: an earlier attempt or call created it; success, not an error");
        }
        if (status == 409) {
            // A truncated body names no resource: the client cannot tell, so it waits as for work in progress.
            return retry(answer, resourceId, attempt,
                    "409 without a resource: the key is still in progress elsewhere; wait for it to finish");
        }
        if (success) {
            return done(answer, false, resourceId, attempt, "2xx: created by this attempt");
        }
        if (status == 408) {
            return retry(answer, resourceId, attempt,
                    "408: the server gave up waiting for the request; nothing suggests it committed");
        }
        if (status == 429) {
            return retry(answer, resourceId, attempt, "429: rate limited; " + waitFor(answer));
        }
        if (status == 503) {
            return retry(answer, resourceId, attempt, "503: temporarily unavailable; " + waitFor(answer));
        }
        if (status == 502 || status == 504) {
            return retry(answer, resourceId, attempt,
                    status + " from a gateway: the origin may have committed; the key makes a resend safe");
        }
        if (status == 500) {
            return retry(answer, resourceId, attempt,
                    "500: the server failed mid-request, possibly after committing; the key makes a resend safe");
        }
        if (status == 422) {
            return giveUp(answer, resourceId, attempt,
                    "422: this key was used with another body; a resend gets the same answer");
        }
        if (status == 400) {
            return giveUp(answer, resourceId, attempt,
                    "400: the request is malformed; resending the same bytes cannot fix it");
        }
        if (status == 401 || status == 403) {
            return giveUp(answer, resourceId, attempt,
                    status + ": not authorised; a resend needs new credentials, not time");
        }
        if (status == 404) {
            return giveUp(answer, resourceId, attempt, "404: no such endpoint or resource; waiting will not create it");
        }
        if (status >= 400 && status < 500) {
            return giveUp(answer, resourceId, attempt,
                    status + ": a client error; the same request gets the same answer");
        }
        return giveUp(answer, resourceId, attempt,
                status + ": not an answer this client knows to be transient; do not guess");
    }

    /** How the wait after a 429 or 503 is chosen, in the reason's words: the server's, only when it gave one. */
    private static String waitFor(Exchange answer) {
        return answer.retryAfter().flatMap(h -> Backoff.parseRetryAfter(h, Instant.EPOCH)).isPresent()
                ? "wait, honouring Retry-After"
                : "no Retry-After to honour; wait the computed backoff";
    }

    private Decision decide(Verdict verdict, Exchange answer, Optional<String> resourceId, int attempt) {
        if (verdict instanceof Verdict.Replay r) {
            return done(answer, true, r.resourceId().or(() -> resourceId), attempt, r.reason());
        }
        if (verdict instanceof Verdict.Created c) {
            return done(answer, false, resourceId, attempt, c.reason());
        }
        if (verdict instanceof Verdict.RetryAfter r) {
            return new Decision.Retry(OptionalInt.of(answer.status()), answer.retryAfter(), r.after(), r.reason(),
                    Optional.empty(), Optional.of(response(answer, answer.replayed(), resourceId, attempt)));
        }
        return giveUp(answer, resourceId, attempt, verdict.reason());
    }

    private static Decision done(Exchange answer, boolean replayed, Optional<String> resourceId, int attempt,
            String reason) {
        return new Decision.Done(response(answer, replayed, resourceId, attempt), reason);
    }

    private static IdempotentResponse response(Exchange answer, boolean replayed, Optional<String> resourceId,
            int attempt) {
        return new IdempotentResponse(replayed, answer.status(), answer.headers(), answer.body(), resourceId, attempt,
                answer.truncated());
    }

    private static Decision retry(IOException failure, String reason) {
        return new Decision.Retry(OptionalInt.empty(), Optional.empty(), Optional.empty(), reason, Optional.of(failure));
    }

    private static Decision retry(Exchange answer, Optional<String> resourceId, int attempt, String reason) {
        return new Decision.Retry(OptionalInt.of(answer.status()), answer.retryAfter(), Optional.empty(), reason,
                Optional.empty(), Optional.of(response(answer, answer.replayed(), resourceId, attempt)));
    }

    private static Decision giveUp(Exchange answer, Optional<String> resourceId, int attempt, String reason) {
        return new Decision.GiveUp(answer.status(), reason,
                Optional.of(response(answer, answer.replayed(), resourceId, attempt)));
    }

    /**
     * The id the pointer finds in a JSON body: a non-blank string, or an integer. Empty without a pointer, and for a
     * problem body, an empty or truncated body (what was cut may have held another value at the pointer) or anything
     * unparseable.
     */
    private Optional<String> resourceId(Exchange answer) {
        if (resourceIdPointer.isEmpty() || answer.body().length == 0 || answer.truncated()) {
            return Optional.empty();
        }
        if (answer.contentType().map(t -> t.toLowerCase(Locale.ROOT).contains("problem+json")).orElse(false)) {
            return Optional.empty();
        }
        // Streamed, not read into a tree: the body may be a large resource, and only one value of it is wanted.
        try (JsonParser parser = json.createParser(answer.body())) {
            JsonToken first = parser.nextToken();
            return first == null ? Optional.empty()
                    : JsonField.find(parser, first, resourceIdPointer.get(), Classifier::id);
        } catch (IOException unreadable) {
            // Unreadable is a classification input, not an error: the guard clauses decide what it means.
            return Optional.empty();
        }
    }

    /** The id at the pointer: a non-blank string, or an integer as its value (-0 is 0, as the tree writes it). */
    private static Optional<String> id(JsonParser parser, JsonToken token) throws IOException {
        if (token == JsonToken.VALUE_STRING) {
            String id = parser.getText();
            return id.isBlank() ? Optional.empty() : Optional.of(id);
        }
        if (token == JsonToken.VALUE_NUMBER_INT) {
            return Optional.of(parser.getNumberValue().toString());
        }
        parser.skipChildren();
        return Optional.empty();
    }
}
