package dev.idempotent.seatgrant.server.internal.http.proxy;

import dev.idempotent.seatgrant.server.ProxyLedger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The resources an upstream created, per operation, as the proxy saw them in its answers: what the ledger of a
 * proxy reports, and what tells a journal entry whether its request created something new ({@code committed}) or
 * named a resource its operation already had (a replay).
 *
 * <p>Thread-safe: one lock, held for map arithmetic only. Bounded: the most recently seen
 * {@link #MAX_TRACKED_OPERATIONS} operations are kept (as the fault plan's attempt counts are); an operation that
 * became a duplicate is kept apart from them, up to {@link #MAX_DUPLICATES}, so the evidence is not pushed out
 * by later traffic; an operation lists at most {@link #MAX_IDS_PER_OPERATION} resources. The totals keep counting
 * past every bound.
 */
public final class ResourceLedger {

    static final int MAX_TRACKED_OPERATIONS = 100_000;
    static final int MAX_DUPLICATES = 10_000;
    static final int MAX_IDS_PER_OPERATION = 1_000;

    /** What one answer meant for its operation. */
    public record Mark(boolean created, String resource) {
        static final Mark NOTHING = new Mark(false, null);
    }

    private final Map<String, Set<String>> recent = new LinkedHashMap<>(1024, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Set<String>> eldest) {
            return size() > MAX_TRACKED_OPERATIONS;
        }
    };
    private final Map<String, Set<String>> duplicates = new LinkedHashMap<>();
    private long operations;
    private long created;
    private long unnamed;

    /**
     * Records what an answer to a request of {@code operation} says was created.
     *
     * @param write    true for POST, PUT and PATCH, the methods whose 2xx answers create
     * @param answer   the upstream's whole answer; null when there was none (the operation still counts, for a
     *                 write: it reached, or may have reached, the upstream)
     * @param resource what the answer names (see {@link CreatedRule}); nullable
     */
    public synchronized Mark record(String operation, boolean write, UpstreamResult.Answer answer, String resource) {
        Set<String> known = duplicates.get(operation);
        if (known == null) {
            known = recent.get(operation);
        }
        if (write && known == null) {
            known = new LinkedHashSet<>();
            recent.put(operation, known);
            operations++;
        }
        if (answer == null || known == null) {
            return Mark.NOTHING;
        }
        int status = answer.status();
        if (write && status >= 200 && status < 300) {
            String id = resource;
            if (id == null && status == 201) {
                id = "unnamed-" + ++unnamed;
            }
            if (id == null) {
                return Mark.NOTHING;
            }
            if (known.contains(id)) {
                return new Mark(false, id);
            }
            created++;
            if (known.size() < MAX_IDS_PER_OPERATION) {
                known.add(id);
            }
            if (known.size() == 2 && !duplicates.containsKey(operation) && duplicates.size() < MAX_DUPLICATES) {
                recent.remove(operation);
                duplicates.put(operation, known);
            }
            return new Mark(true, id);
        }
        // Not a creation, but an answer naming what this operation already made (a 409 replay) is shown as one.
        return resource != null && known.contains(resource) ? new Mark(false, resource) : Mark.NOTHING;
    }

    /** The ledger now. */
    public synchronized ProxyLedger snapshot() {
        List<ProxyLedger.Duplicate> list = new ArrayList<>(duplicates.size());
        duplicates.forEach((operation, ids) -> list.add(new ProxyLedger.Duplicate(operation, List.copyOf(ids))));
        if (duplicates.size() >= MAX_DUPLICATES) {
            // Past the bound of kept duplicates, later ones live among the recent operations.
            recent.forEach((operation, ids) -> {
                if (ids.size() > 1) {
                    list.add(new ProxyLedger.Duplicate(operation, List.copyOf(ids)));
                }
            });
        }
        return new ProxyLedger(operations, created, list);
    }

    /** Forgets everything: what {@code POST /__admin/reset} does. */
    public synchronized void clear() {
        recent.clear();
        duplicates.clear();
        operations = 0;
        created = 0;
        unnamed = 0;
    }
}
