/**
 * The incident lab behind {@code fake-server reproduce}: one batch of {@code seat.requested} events, delivered
 * at least once, through every worker variant, against a server that commits and then loses the answer.
 *
 * <p>The lab is the only part of fake-server that imports worker code; the server core never does.
 *
 * <p>Every parameter and return value in this package is non-null unless its Javadoc says otherwise.
 */
package dev.idempotent.seatgrant.server.lab;
