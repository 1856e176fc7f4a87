/**
 * The seat-grant worker in every shape the incident lab runs, each a {@link Variant} behind one small
 * {@link GrantHandler} interface.
 *
 * <p>INTERVIEW MATERIAL. Three of the variants live here and nowhere else: {@link CheckThenPostWorker},
 * {@link LocalMapWorker} and {@link ConflictIsFailureWorker}. Each is the take-home's agent-written worker
 * regenerated with one of the failure modes the packet lists (a GET before the POST instead of a key, a
 * process-local map of requestIds, a key whose 409 replay is read as an error). They exist to be run and
 * reviewed, never copied; the answer key is {@link dev.idempotent.seatgrant.worker.SeatGrantWorker}.
 *
 * <p>Every parameter and return value in this package is non-null.
 */
package dev.idempotent.seatgrant.worker.variants;
