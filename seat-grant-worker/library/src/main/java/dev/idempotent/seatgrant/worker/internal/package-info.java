/**
 * The answer key's moving parts, each testable alone: {@link dev.idempotent.seatgrant.worker.internal.SeatsApi}
 * (one HTTP exchange, no policy), {@link dev.idempotent.seatgrant.worker.internal.Classifier} (what an
 * answer means), {@link dev.idempotent.seatgrant.worker.internal.Backoff} (how long to wait, or stop), and
 * {@link dev.idempotent.seatgrant.worker.internal.GrantEvents} (one structured event and one listener call per
 * attempt and per outcome), {@link dev.idempotent.seatgrant.worker.internal.GrantPolicy} (the one policy the sync and
 * async loops share, on one resilience4j Retry per worker) and
 * {@link dev.idempotent.seatgrant.worker.internal.OwnedResources} (what a worker creates, and releases on close).
 * Not an API: names and signatures here may change without notice.
 *
 * <p>Null rules: no parameter, field or return value is null unless its Javadoc says so; absent values are
 * {@link java.util.Optional} or {@link java.util.OptionalInt}.
 */
package dev.idempotent.seatgrant.worker.internal;
