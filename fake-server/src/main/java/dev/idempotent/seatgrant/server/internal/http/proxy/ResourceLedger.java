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
 *
 * <p>It also keeps the suspected duplicates ({@link SuspectRule}): per shape of write (method, path, body without its
 * volatile fields), the last operation that created something, in the same bound as the operations (the most
 * recently seen {@link #MAX_TRACKED_OPERATIONS} shapes); the groups of suspects apart from them, up to
 * {@link #MAX_DUPLICATES}, each listing at most {@link #MAX_IDS_PER_OPERATION} operations, its path cut to
 * {@value CreatedRule#MAX_ID_LENGTH} characters.
 */
public final class ResourceLedger {

    static final int MAX_TRACKED_OPERATIONS = 100_000;
    static final int MAX_DUPLICATES = 10_000;
    static final int MAX_IDS_PER_OPERATION = 1_000;

    /** What one answer meant for its operation. */
    public record Mark(boolean created, String resource) {
        static final Mark NOTHING = new Mark(false, null);
    }

    /**
     * A write as the suspect index sees it.
     *
     * @param method   its method
     * @param path     its path, without the query
     * @param shape    {@link SuspectRule#shape}
     * @param atMillis when its first byte came
     */
    public record Write(String method, String path, String shape, long atMillis) { }

    /** The last operation of one shape that created something, and the group of suspects it belongs to, if any. */
    private record Sighting(String operation, String resource, long atMillis, Suspects group) { }

    /** One group of suspected duplicates: operation to the resource it created, oldest first. */
    private record Suspects(String method, String path, Map<String, String> created) { }

    private final SuspectRule suspectRule;

    private final Map<String, Set<String>> recent = new LinkedHashMap<>(1024, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Set<String>> eldest) {
            return size() > MAX_TRACKED_OPERATIONS;
        }
    };
    private final Map<String, Set<String>> duplicates = new LinkedHashMap<>();
    private final Map<String, Sighting> lastByShape = new LinkedHashMap<>(1024, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Sighting> eldest) {
            return size() > MAX_TRACKED_OPERATIONS;
        }
    };
    private final List<Suspects> suspected = new ArrayList<>();
    private long operations;
    private long created;
    private long unnamed;

    /** A ledger that suspects by {@code suspectRule}'s window. */
    public ResourceLedger(SuspectRule suspectRule) {
        this.suspectRule = suspectRule;
    }

    /** A ledger with no volatile fields and the default window. */
    public ResourceLedger() {
        this(new SuspectRule(List.of(), SuspectRule.DEFAULT_WINDOW));
    }

    /** How this ledger tells suspected duplicates. */
    public SuspectRule suspectRule() {
        return suspectRule;
    }

    /**
     * Records what an answer to a request of {@code operation} says was created.
     *
     * @param write    true for POST, PUT and PATCH, the methods whose 2xx answers create
     * @param answer   the upstream's whole answer; null when there was none (the operation still counts, for a
     *                 write: it reached, or may have reached, the upstream)
     * @param resource what the answer names (see {@link CreatedRule}); nullable
     */
    public synchronized Mark record(String operation, boolean write, UpstreamResult.Answer answer, String resource) {
        return record(operation, write, answer, resource, null);
    }

    /**
     * {@link #record(String, boolean, UpstreamResult.Answer, String)}, and when the answer created a resource, the
     * check for a suspected duplicate: an operation of the same shape that created one within the window.
     *
     * @param sent the write as the suspect index sees it; null to skip the check
     */
    public synchronized Mark record(String operation, boolean write, UpstreamResult.Answer answer, String resource,
                                    Write sent) {
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
            if (sent != null) {
                suspect(operation, id, sent);
            }
            return new Mark(true, id);
        }
        // Not a creation, but an answer naming what this operation already made (a 409 replay) is shown as one.
        return resource != null && known.contains(resource) ? new Mark(false, resource) : Mark.NOTHING;
    }

    /**
     * Joins {@code operation} to a group of suspects when the last operation of its shape was another one that created
     * something within the window (either side: answers may come in another order than their requests).
     */
    private void suspect(String operation, String resource, Write sent) {
        Sighting last = lastByShape.get(sent.shape());
        Suspects group = null;
        long at = sent.atMillis();
        if (last != null && Math.abs(at - last.atMillis()) <= suspectRule.window().toMillis()) {
            group = last.group();
            if (!last.operation().equals(operation)) {
                if (group == null && suspected.size() < MAX_DUPLICATES) {
                    String path = sent.path().length() > CreatedRule.MAX_ID_LENGTH
                            ? sent.path().substring(0, CreatedRule.MAX_ID_LENGTH) : sent.path();
                    group = new Suspects(sent.method(), path, new LinkedHashMap<>());
                    group.created().put(last.operation(), last.resource());
                    suspected.add(group);
                }
                if (group != null && group.created().size() < MAX_IDS_PER_OPERATION) {
                    group.created().putIfAbsent(operation, resource);
                }
            }
            at = Math.max(at, last.atMillis());
        }
        lastByShape.put(sent.shape(), new Sighting(operation, resource, at, group));
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
        List<ProxyLedger.Suspected> suspects = new ArrayList<>(suspected.size());
        for (Suspects group : suspected) {
            suspects.add(new ProxyLedger.Suspected(group.method(), group.path(), List.copyOf(group.created().keySet()),
                    List.copyOf(group.created().values())));
        }
        return new ProxyLedger(operations, created, list, suspects);
    }

    /** Forgets everything: what {@code POST /__admin/reset} does. */
    public synchronized void clear() {
        recent.clear();
        duplicates.clear();
        lastByShape.clear();
        suspected.clear();
        operations = 0;
        created = 0;
        unnamed = 0;
    }
}
