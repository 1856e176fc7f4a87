/**
 * The seat store: the only thing that decides uniqueness. A unique constraint on the idempotency key, the seat
 * written in the same transaction that completes the key, and a leased in-progress claim so a crashed holder
 * never wedges a key. Null rules as in the root package.
 */
package dev.idempotent.seatgrant.server.internal.store;
