/**
 * Idempotent retries for any JSON API: one request, the caller's key on every attempt, answers classified into
 * replay, created, retry or reject, full-jitter backoff with {@code Retry-After} honoured, on the caller's
 * {@link java.net.http.HttpClient} or any other HTTP stack through a {@link dev.idempotent.client.Transport}.
 *
 * <p>Start at {@link dev.idempotent.client.IdempotentClient#builder()}; a call is an
 * {@link dev.idempotent.client.IdempotentRequest} and ends with an {@link dev.idempotent.client.IdempotentResponse}
 * or an {@link dev.idempotent.client.IdempotentRequestException}. A provider's own way of marking replays is a
 * {@link dev.idempotent.client.ResponseRule} added ahead of the defaults.
 *
 * <p>Null rules: no parameter, field or return value in this package is null. Passing null to any public
 * constructor or method throws {@link java.lang.NullPointerException}. Absent values are
 * {@link java.util.Optional} or {@link java.util.OptionalInt}.
 */
package dev.idempotent.client;
