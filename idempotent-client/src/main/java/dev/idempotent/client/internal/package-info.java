/**
 * The client's moving parts, each testable alone: {@link dev.idempotent.client.internal.Transport} (one HTTP
 * exchange, no policy), {@link dev.idempotent.client.internal.Classifier} (what an answer means),
 * {@link dev.idempotent.client.internal.Backoff} (how long to wait, or stop),
 * {@link dev.idempotent.client.internal.ClientEvents} (one structured event and one listener call per attempt and per
 * outcome), {@link dev.idempotent.client.internal.CallPolicy} (the one policy the sync and async loops share, on one
 * resilience4j Retry per client) and {@link dev.idempotent.client.internal.OwnedResources} (what a client creates,
 * and releases on close). Not an API: names and signatures here may change without notice.
 *
 * <p>Null rules: no parameter, field or return value is null unless its Javadoc says so; absent values are
 * {@link java.util.Optional} or {@link java.util.OptionalInt}.
 */
package dev.idempotent.client.internal;
