package dev.idempotent.seatgrant.server.junit;

import dev.idempotent.seatgrant.server.JournalEntry;
import dev.idempotent.seatgrant.server.ProxyLedger;
import java.util.List;

/**
 * The words for a proxy's suspected duplicates, in {@link FakeServerExtension#assertNoSuspectedDuplicates()}'s
 * message and at the end of {@link FakeServerExtension#assertNoDuplicates()}'s: one paragraph per group, naming
 * each operation and what it created, then its requests as {@link DuplicatesMessage} writes them.
 *
 * <pre>
 * Expected no suspected duplicates; found 1 (operations with the same method and path, bodies that differ only in
 * volatile fields, each creating a resource):
 *   POST /orders: 2 operations, each created a resource: fingerprint:5f0c… created /orders/1,
 *   fingerprint:9a41… created /orders/2; their requests:
 *     #1 POST /orders, attempt 1, no key: committed /orders/1; fault status-after-commit answered 504; ...
 * </pre>
 *
 * <p>Cut as {@link DuplicatesMessage} cuts: at most {@value DuplicatesMessage#MAX_SUBJECTS} groups and
 * {@value DuplicatesMessage#MAX_REQUESTS} requests each, then a count of the rest.
 */
final class SuspectsMessage {

    private static final String WHAT = "operations with the same method and path, bodies that differ only in volatile "
            + "fields, each creating a resource";

    private SuspectsMessage() {
    }

    /** The message of {@link FakeServerExtension#assertNoSuspectedDuplicates()}. */
    static String describe(List<ProxyLedger.Suspected> suspected, List<JournalEntry> journal) {
        return groups(new StringBuilder("Expected no suspected duplicates; found ").append(suspected.size())
                .append(" (").append(WHAT).append("):"), suspected, journal).toString();
    }

    /** What {@link FakeServerExtension#assertNoDuplicates()} adds after the duplicates; empty when there are none. */
    static String after(List<ProxyLedger.Suspected> suspected, List<JournalEntry> journal) {
        if (suspected.isEmpty()) {
            return "";
        }
        return groups(new StringBuilder("\nAlso ").append(suspected.size())
                .append(suspected.size() == 1 ? " suspected duplicate (" : " suspected duplicates (").append(WHAT)
                .append("):"), suspected, journal).toString();
    }

    private static StringBuilder groups(StringBuilder out, List<ProxyLedger.Suspected> suspected,
                                        List<JournalEntry> journal) {
        for (ProxyLedger.Suspected group : suspected.subList(0, Math.min(DuplicatesMessage.MAX_SUBJECTS,
                suspected.size()))) {
            out.append("\n  ").append(group.method()).append(' ').append(group.path()).append(": ")
                    .append(group.operations().size()).append(" operations, each created a resource: ");
            for (int i = 0; i < group.operations().size(); i++) {
                out.append(i == 0 ? "" : ", ").append(group.operations().get(i)).append(" created ")
                        .append(group.created().get(i));
            }
            List<JournalEntry> requests = journal.stream()
                    .filter(e -> e.operation() != null && group.operations().contains(e.operation())).toList();
            if (requests.isEmpty()) {
                out.append("; none of their requests is left in the journal");
                continue;
            }
            out.append("; their requests:");
            for (JournalEntry e : requests.subList(0, Math.min(DuplicatesMessage.MAX_REQUESTS, requests.size()))) {
                out.append("\n    ").append(DuplicatesMessage.request(e));
            }
            if (requests.size() > DuplicatesMessage.MAX_REQUESTS) {
                out.append("\n    ... and ").append(requests.size() - DuplicatesMessage.MAX_REQUESTS)
                        .append(" more requests");
            }
        }
        if (suspected.size() > DuplicatesMessage.MAX_SUBJECTS) {
            out.append("\n  ... and ").append(suspected.size() - DuplicatesMessage.MAX_SUBJECTS)
                    .append(" more suspected duplicates");
        }
        return out;
    }
}
