/**
 * The proxy's routes: any method and path forwarded to one fixed upstream on Netty's own client side, the same
 * fault plan as the seat API's obeyed around the forwarding, each request's operation (its key, or a fingerprint
 * of what it sent), and a ledger of the resources the upstream created per operation. Null rules as in the root
 * package.
 */
package dev.idempotent.seatgrant.server.internal.http.proxy;
