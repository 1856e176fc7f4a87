/**
 * The client's moving parts, each testable alone: {@link dev.idempotent.client.internal.CallRunner} (the call's
 * state machine, sync and async, above any transport), {@link dev.idempotent.client.internal.JdkTransport} (one HTTP
 * exchange on the JDK's client, no policy), {@link dev.idempotent.client.internal.Watchdog} (attempt budgets and
 * {@code close()}, from outside the transport), {@link dev.idempotent.client.internal.KeyInBody} and
 * {@link dev.idempotent.client.internal.JsonField} (the key into a body, a value out of one, streamed),
 * {@link dev.idempotent.client.internal.Classifier} (what an answer means),
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
