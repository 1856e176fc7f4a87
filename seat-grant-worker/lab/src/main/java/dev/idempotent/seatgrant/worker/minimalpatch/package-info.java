/**
 * Interview material, not canonical: the ported fixture with the interview key's minimal patch applied
 * (Idempotency-Key = requestId, 409 read as a replay, retries only for network failures and
 * 429/502/503/504, no silent catch, one structured event per attempt). It is what a strong candidate's diff
 * looks like inside a 15-minute patch box, not a production worker: it still has no deadline, no jitter, no
 * Retry-After, and it reads an in-progress 409 as a replay. The answer key is
 * {@link dev.idempotent.seatgrant.worker.SeatGrantWorker}.
 *
 * <p>{@code docs/packets/seat-grant/reference.patch} turns the fixture into this file (all but the package
 * line); the docs build applies it and compares. Null rules: none enforced; kept as the patch leaves it.
 */
package dev.idempotent.seatgrant.worker.minimalpatch;
