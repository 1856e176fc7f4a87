/**
 * {@code fake-server grade}: scores any seat-grant worker, in any language, from the outside. The worker is a
 * command; the grader runs it once per delivery as a new process (one JSON event on stdin, {@code SEATS_BASE_URL}
 * in the environment, the exit code as ack, reject or nack) against a fresh in-memory server per check, and reads
 * the verdict from the server's journal and ledger and from what the worker printed.
 *
 * <p>Like {@code lab}, this package drives workers from outside; it never imports worker code, and the server core
 * never imports it. Every parameter and return value here is non-null unless its Javadoc says otherwise.
 */
package dev.idempotent.seatgrant.server.grade;
