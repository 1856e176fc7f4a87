/**
 * The fault plan obeyed once per request, the same way behind any routes (the seat API, the proxy): a fault
 * before the work replaces it, a fault after it replaces the answer, and the route journals what happened. Null
 * rules as in the root package.
 */
package dev.idempotent.seatgrant.server.internal.http.faults;
