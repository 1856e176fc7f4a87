/**
 * The answer-key seat-grant worker: grants one workspace seat per {@code seat.requested} event through
 * {@code POST /v1/seats}, under one invariant: each requestId grants at most one seat, even when the
 * client sees a timeout, a connection reset, a 504 or a 409 replay.
 *
 * <p>Start at {@link dev.idempotent.seatgrant.worker.SeatGrantWorker} (one per process, {@code AutoCloseable}),
 * configured by {@link dev.idempotent.seatgrant.worker.SeatGrantConfig} (the caller's HTTP client, a request
 * customizer for headers, a {@link dev.idempotent.seatgrant.worker.GrantListener}). Outcomes are values
 * ({@link dev.idempotent.seatgrant.worker.GrantOutcome}); failures are exceptions from the
 * {@link dev.idempotent.seatgrant.worker.GrantException} family, thrown by {@code handle} or completing the future
 * of {@code handleAsync}.
 *
 * <p>Null rules: no parameter, field or return value in this package is null. Passing null to any
 * public constructor or method throws {@link java.lang.NullPointerException}. Optional values are
 * {@link java.util.Optional} or {@link java.util.OptionalInt}.
 *
 * <p>The interview material built on this worker (the ported fixture, the minimal patch, the failure-mode
 * variants and the runnable CLI) ships apart, in {@code dev.idempotent:seat-grant-worker-lab}; nothing in this
 * artifact depends on it.
 */
package dev.idempotent.seatgrant.worker;
