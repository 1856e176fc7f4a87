/** The command line: flag parsing and the {@code serve} command. Null rules as in the root package. */
package dev.idempotent.seatgrant.server.internal.cli;
