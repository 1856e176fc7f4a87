/**
 * The connection layer of the fake server, on Netty, shared by whatever routes sit behind it: framing and strict
 * request checks, pipelined requests answered in order, header, body and idle timeouts, the connection cap,
 * problem+json replies, writing answers (with a hook a journal settles by), and the socket-level effects of faults
 * (RST, FIN, holding a connection without a thread). Routes plug in through {@link
 * dev.idempotent.seatgrant.server.internal.http.Routes} and answer through an {@link
 * dev.idempotent.seatgrant.server.internal.http.Exchange}; the seat API ({@code seats}) and the admin API
 * ({@code admin}) are two such routes, and neither knows the other. Null rules as in the root package.
 */
package dev.idempotent.seatgrant.server.internal.http;
