/**
 * The seat API's adapter on {@code idempotent-client}, each part testable alone:
 * {@link dev.idempotent.seatgrant.worker.internal.SeatsApi} (the seat API's URI and body),
 * {@link dev.idempotent.seatgrant.worker.internal.SeatProtocol} (the seat rule ahead of the client's defaults, and the
 * translations to the worker's outcomes, exceptions and events) and
 * {@link dev.idempotent.seatgrant.worker.internal.GrantEvents} (the worker's structured events and listener calls).
 * The retry protocol itself (classification, backoff, deadline, the resilience4j Retry) is the client's.
 * Not an API: names and signatures here may change without notice.
 *
 * <p>Null rules: no parameter, field or return value is null unless its Javadoc says so; absent values are
 * {@link java.util.Optional} or {@link java.util.OptionalInt}.
 */
package dev.idempotent.seatgrant.worker.internal;
