package dev.idempotent.client;

import java.net.http.HttpRequest;

/**
 * Adds the caller's headers to one attempt's request, knowing which key and which attempt it is: a rotating
 * {@code Authorization} token, a {@code traceparent} per call and attempt. Set it with
 * {@link IdempotentClient.Builder#requestCustomizer(AttemptCustomizer)}.
 *
 * <p>It runs on every attempt before the request's own headers and the client's are set, and those win: the
 * method, the URI, the body, the timeout, {@code Content-Type} and the key header are the client's whatever the
 * customizer does. One customizer serves every call, from several threads at once, so it must be thread-safe. One
 * that throws ends the call with its exception (the outcome {@code failed}); nothing is sent for that attempt. The
 * builder it is handed refuses a header value HTTP cannot carry (a token read with its trailing newline, say) with
 * {@code IllegalArgumentException("invalid value for header NAME")}, which names the header, never the value.
 */
@FunctionalInterface
public interface AttemptCustomizer {

    /**
     * Adds headers for one attempt.
     *
     * @param request the attempt's request builder, already aimed at the request's URI
     * @param key     the call's idempotency key, as the caller gave it (before any {@link KeyForm} encoding)
     * @param attempt which attempt of this call, from 1
     */
    void customize(HttpRequest.Builder request, String key, int attempt);
}
