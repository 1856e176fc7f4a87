package dev.idempotent.seatgrant.worker;

import java.net.http.HttpRequest;

/**
 * Adds the caller's headers to one attempt's request, knowing which grant and which attempt it is: a rotating
 * {@code Authorization} token, a {@code traceparent} per event and attempt, a {@code User-Agent}. Set it with
 * {@link SeatGrantConfig.Builder#requestCustomizer(RequestCustomizer)}.
 *
 * <p>It is called on every attempt, before the worker sets its own values, and those win: the method, the URI,
 * the body, the timeout, {@code Content-Type}, {@code Accept} and {@code Idempotency-Key} are the worker's whatever
 * the customizer does. One customizer serves every grant of a worker, from several threads at once, so it must be
 * thread-safe. One that throws ends the call with its exception (the outcome {@code failed}); nothing is sent for
 * that attempt.
 */
@FunctionalInterface
public interface RequestCustomizer {

    /**
     * Adds headers for one attempt.
     *
     * @param request the attempt's request builder, already aimed at the seats URI
     * @param context the grant's requestId and the attempt number
     */
    void customize(HttpRequest.Builder request, AttemptContext context);
}
