package dev.idempotent.seatgrant.worker.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.ConnectException;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpTimeoutException;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Decides what one attempt's answer means: replay, success, retry, or give up. An ordered list of guard
 * clauses, each with the one-line reason it exists; the first that matches wins. Pure and thread-safe.
 *
 * <p>The whole list leans on one fact: every attempt carries the same Idempotency-Key, so a resend after an
 * ambiguous failure can at worst replay the seat an earlier attempt created. Without the key, half of the
 * retry clauses below would be the incident.
 */
public final class Classifier {

    private final ObjectMapper json = new ObjectMapper();

    /** A classifier; it holds no per-call state, so one serves every call of a worker. */
    public Classifier() {
    }

    /**
     * Classifies an attempt that got no complete answer.
     *
     * @param failure the transport failure
     * @return always a retry: with the key, a resend after any transport failure is safe
     */
    public Verdict classify(IOException failure) {
        if (failure instanceof HttpConnectTimeoutException) {
            return retry(failure, "connect timeout: nothing was sent, so a resend is a first attempt");
        }
        if (failure instanceof HttpTimeoutException) {
            return retry(failure, "request timeout: the server may have committed; the key makes a resend safe");
        }
        if (failure instanceof ConnectException) {
            return retry(failure, "connection refused: nothing reached the server");
        }
        // A reset or an EOF after the request went out: the seat may exist, the answer is lost.
        return retry(failure, "connection dropped after sending: the server may have committed; the key makes a resend safe");
    }

    /**
     * Classifies an attempt that got a complete HTTP answer.
     *
     * @param answer the answer
     * @return the first guard clause's verdict that matches
     */
    public Verdict classify(Exchange answer) {
        int status = answer.status();
        boolean success = status >= 200 && status < 300;
        Optional<String> seatId = seatId(answer);

        if (success && answer.replayed() && seatId.isPresent()) {
            return new Verdict.Replay(seatId.get(), status,
                    "2xx with Idempotent-Replayed: the key was completed earlier; this is that seat");
        }
        if (status == 409 && seatId.isPresent()) {
            return new Verdict.Replay(seatId.get(), status,
                    "409 with a seat: an earlier attempt or delivery created it; success, not an error");
        }
        if (status == 409) {
            return retry(answer, "409 without a seat: the key is still in progress elsewhere; wait for it to finish");
        }
        if (success && seatId.isPresent()) {
            return new Verdict.Success(seatId.get(), status, "2xx with a seat: created by this attempt");
        }
        if (success) {
            return retry(answer, "2xx with an unreadable body: the seat may exist; the key makes a resend safe");
        }
        if (status == 408) {
            return retry(answer, "408: the server gave up waiting for the request; nothing suggests it committed");
        }
        if (status == 429) {
            return retry(answer, "429: rate limited; wait, honouring Retry-After");
        }
        if (status == 503) {
            return retry(answer, "503: temporarily unavailable; wait, honouring Retry-After");
        }
        if (status == 502 || status == 504) {
            return retry(answer, status + " from a gateway: the origin may have committed; the key makes a resend safe");
        }
        if (status == 500) {
            return retry(answer, "500: the server failed mid-request, possibly after committing; the key makes a resend safe");
        }
        if (status == 422) {
            return new Verdict.GiveUp(status, "422: this key was used with another payload; a resend gets the same answer");
        }
        if (status == 400) {
            return new Verdict.GiveUp(status, "400: the request is malformed; resending the same bytes cannot fix it");
        }
        if (status == 401 || status == 403) {
            return new Verdict.GiveUp(status, status + ": not authorised; a resend needs new credentials, not time");
        }
        if (status == 404) {
            return new Verdict.GiveUp(status, "404: no such endpoint or workspace; waiting will not create it");
        }
        if (status >= 400 && status < 500) {
            return new Verdict.GiveUp(status, status + ": a client error; the same request gets the same answer");
        }
        return new Verdict.GiveUp(status, status + ": not an answer this worker knows to be transient; do not guess");
    }

    private static Verdict retry(IOException failure, String reason) {
        return new Verdict.Retry(OptionalInt.empty(), Optional.empty(), reason, Optional.of(failure));
    }

    private static Verdict retry(Exchange answer, String reason) {
        return new Verdict.Retry(OptionalInt.of(answer.status()), answer.retryAfter(), reason, Optional.empty());
    }

    /** The seat id in a seat body; empty for a problem body, an empty body, or anything unparseable. */
    private Optional<String> seatId(Exchange answer) {
        if (answer.contentType().map(t -> t.toLowerCase(java.util.Locale.ROOT).contains("problem+json")).orElse(false)) {
            return Optional.empty();
        }
        try {
            JsonNode node = json.readTree(answer.body());
            if (node == null || !node.isObject()) {
                return Optional.empty();
            }
            JsonNode id = node.get("id");
            if (id == null || !id.isTextual() || id.asText().isBlank()) {
                return Optional.empty();
            }
            return Optional.of(id.asText());
        } catch (IOException unreadable) {
            // Unreadable is a classification input, not an error: the guard clauses decide what it means.
            return Optional.empty();
        }
    }
}
