/**
 * A JSON-over-GET client for a partner API; {@link dev.idempotent.fetch.FetchClient} says what it retries.
 *
 * <p>The public surface is frozen: {@link dev.idempotent.fetch.FetchClient} with its two static
 * {@code fetchJson} methods, and {@link dev.idempotent.fetch.FetchException}. Everything else in this
 * package is package-private so that tests can inject a sleeper without widening that surface.
 *
 * <p>Null rules: no method accepts {@code null}; passing one throws {@link java.lang.NullPointerException}.
 * No method returns {@code null}. The URL passed in is never written to a log, an exception message,
 * a {@code toString()} or an exception cause, because its query may hold a credential.
 */
package dev.idempotent.fetch;
