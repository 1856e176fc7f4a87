/**
 * The fake server in a service's own JUnit 5 tests: {@link dev.idempotent.seatgrant.server.junit.FakeServerExtension}.
 *
 * <p>Only this package touches JUnit, and JUnit is a {@code provided} dependency of the artifact: the test suite
 * that registers the extension brings its own {@code junit-jupiter-api}. Depend on
 * {@code dev.idempotent:fake-server} in {@code test} scope; it brings no logging backend and no interview code.
 *
 * <p>Null rules as in the root package: nothing is null unless documented nullable.
 */
package dev.idempotent.seatgrant.server.junit;
