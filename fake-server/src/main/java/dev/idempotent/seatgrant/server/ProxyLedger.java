package dev.idempotent.seatgrant.server;

import java.util.List;
import java.util.Objects;

/**
 * What a {@link FakeProxy} saw its upstream create, summarised so anyone can see the incident in front of any API:
 * how many write operations reached the upstream, how many resources they created, and every operation that
 * created more than one. {@code GET /__admin/ledger} on a proxy answers the same with {@code "kind": "proxy"}.
 *
 * @param operations the distinct operations of POST, PUT and PATCH requests that reached the upstream (or may
 *                   have: one whose answer timed out or broke off counts; one refused a connection does not)
 * @param created    the distinct resources those requests created
 * @param duplicates each operation that created two or more distinct resources, in the order they became one
 */
public record ProxyLedger(long operations, long created, List<Duplicate> duplicates) {

    public ProxyLedger {
        duplicates = List.copyOf(duplicates);
    }

    /**
     * One operation that created more than one resource: one intent, two results. With a key, the upstream
     * ignored it; without one, a retry of a request whose answer was lost.
     *
     * @param operation the operation: {@code key:VALUE}, {@code key-sha256:HEX} or {@code fingerprint:HEX}
     * @param created   the resources, oldest first (as the upstream named them: a {@code Location}, an id, or
     *                  {@code unnamed-N} for a 201 that named none)
     */
    public record Duplicate(String operation, List<String> created) {
        public Duplicate {
            Objects.requireNonNull(operation, "operation");
            created = List.copyOf(created);
        }
    }
}
