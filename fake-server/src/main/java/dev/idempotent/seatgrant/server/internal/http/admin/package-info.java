/**
 * The admin API under {@code /__admin} (health, fault plan, journal, ledger, reset, the incident page), in front
 * of any API's routes: it reaches that API only through what it is given (a journal, a fault planner, a ledger
 * view and a reset). Null rules as in the root package.
 */
package dev.idempotent.seatgrant.server.internal.http.admin;
