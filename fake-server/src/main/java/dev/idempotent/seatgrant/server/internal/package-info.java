/**
 * Implementation detail of the fake server; nothing here is API. Null rules as in the root package:
 * nothing is null unless documented nullable.
 */
package dev.idempotent.seatgrant.server.internal;
