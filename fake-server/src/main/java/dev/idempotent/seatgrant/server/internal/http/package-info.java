/**
 * The HTTP side of the fake server, on Netty: routing, problem+json, and the socket-level effects of faults
 * (RST, FIN, holding a connection without a thread). Null rules as in the root package.
 */
package dev.idempotent.seatgrant.server.internal.http;
