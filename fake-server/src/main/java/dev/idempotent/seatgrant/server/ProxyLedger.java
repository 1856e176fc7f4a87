package dev.idempotent.seatgrant.server;

import java.util.List;
import java.util.Objects;

/**
 * What a {@link FakeProxy} saw its upstream create, summarised so anyone can see the incident in front of any API:
 * how many write operations reached the upstream, how many resources they created, every operation that created
 * more than one, and the operations suspected of being one intent sent twice. {@code GET /__admin/ledger} on a
 * proxy answers the same with {@code "kind": "proxy"}.
 *
 * @param operations the distinct operations of POST, PUT and PATCH requests that reached the upstream (or may
 *                   have: one whose answer timed out or broke off counts; one refused a connection does not)
 * @param created    the distinct resources those requests created
 * @param duplicates each operation that created two or more distinct resources, in the order they became one
 * @param suspected  each group of operations that look like one intent sent more than once: proof of nothing,
 *                   a lead (see {@link Suspected})
 */
public record ProxyLedger(long operations, long created, List<Duplicate> duplicates, List<Suspected> suspected) {

    public ProxyLedger {
        duplicates = List.copyOf(duplicates);
        suspected = List.copyOf(suspected);
    }

    /** A ledger with no suspected duplicates. */
    public ProxyLedger(long operations, long created, List<Duplicate> duplicates) {
        this(operations, created, duplicates, List.of());
    }

    /**
     * One operation that created more than one resource: one intent, two results. With a key, the upstream
     * ignored it; without one, a retry of a request whose answer was lost.
     *
     * @param operation the operation: {@code key:VALUE}, {@code key-sha256:HEX}, {@code json:POINTER=VALUE},
     *                  {@code json-sha256:HEX} or {@code fingerprint:HEX}
     * @param created   the resources, oldest first (as the upstream named them: a {@code Location}, an id, or
     *                  {@code unnamed-N} for a 201 that named none)
     */
    public record Duplicate(String operation, List<String> created) {
        public Duplicate {
            Objects.requireNonNull(operation, "operation");
            created = List.copyOf(created);
        }
    }

    /**
     * Two or more operations, each of which created a resource, with the same method and path and bodies that differ
     * only in the volatile fields ({@link ProxyConfig.Builder#volatileField}), each within the suspect window of the
     * one before it ({@link ProxyConfig.Builder#suspectWindow}): what a client that sends a fresh timestamp, nonce
     * or key on every attempt leaves behind, where each attempt is an operation of its own. A guess: two users who
     * mean two orders of the same thing look the same; the journal and the upstream's data tell them apart.
     *
     * @param method     the operations' method
     * @param path       their path (without the query)
     * @param operations the operations, oldest first
     * @param created    the resource each created, in the same order
     */
    public record Suspected(String method, String path, List<String> operations, List<String> created) {
        public Suspected {
            Objects.requireNonNull(method, "method");
            Objects.requireNonNull(path, "path");
            operations = List.copyOf(operations);
            created = List.copyOf(created);
            if (operations.size() != created.size()) {
                throw new IllegalArgumentException("one created resource per operation");
            }
        }
    }
}
