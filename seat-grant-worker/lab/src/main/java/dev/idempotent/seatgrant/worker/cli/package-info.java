/**
 * The runnable jar's command line: {@code run} drives any worker variant over a file or stdin of events;
 * {@code deliver} takes one event the way {@code fake-server grade} delivers it.
 * Kept out of the root package because it reaches the interview variants, which the answer key never imports.
 *
 * <p>Null rules: no parameter or return value is null unless its Javadoc says so.
 */
package dev.idempotent.seatgrant.worker.cli;
