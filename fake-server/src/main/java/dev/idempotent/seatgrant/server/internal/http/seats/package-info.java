/**
 * The seat API's routes ({@code POST /v1/seats}, {@code GET /v1/seats}, {@code GET /v1/seats/{id}}): input rules,
 * the grant, the fault plan obeyed once per request, and one journal entry per request. Null rules as in the
 * root package.
 */
package dev.idempotent.seatgrant.server.internal.http.seats;
