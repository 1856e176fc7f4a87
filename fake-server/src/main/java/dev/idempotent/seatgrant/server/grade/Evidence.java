package dev.idempotent.seatgrant.server.grade;

import dev.idempotent.seatgrant.server.JournalEntry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Renders journal entries and deliveries as the short phrases evidence strings are made of. */
final class Evidence {

    private static final int MAX_LINE = 160;

    private Evidence() {
    }

    /** Each delivery's verdict in order, repeats folded: {@code nack (exit 1) x2, ack}. */
    static String deliveries(List<Delivery> deliveries) {
        return deliveries.isEmpty() ? "none" : fold(deliveries.stream().map(Delivery::verdict).toList());
    }

    /** What each request got, in arrival order, repeats folded: {@code 504 after commit, 409 replay}. */
    static String answers(List<JournalEntry> requests) {
        return fold(requests.stream().map(Evidence::answer).toList());
    }

    /** What one request got, as the worker experienced it and with what the server did behind it. */
    static String answer(JournalEntry e) {
        if (e.method().equals("GET")) {
            return "looked up (" + (e.status() == null ? "no answer" : e.status()) + ")";
        }
        String fault = e.fault();
        if (fault != null) {
            return switch (fault) {
                case "reset-after-commit" -> "reset after commit";
                case "close-after-commit" -> "closed after commit";
                case "hang-after-commit" -> "held open after commit";
                case "status-after-commit" -> e.status() == 409 ? "409 in progress after commit"
                        : e.status() + " after commit";
                case "reset" -> "reset";
                case "close" -> "closed";
                case "status" -> e.status() == 409 ? "409 in progress" : String.valueOf(e.status());
                case "delay" -> "held, then " + plain(e);
                default -> fault;
            };
        }
        return plain(e);
    }

    private static String plain(JournalEntry e) {
        Integer status = e.status();
        if (status == null) {
            return "no answer";
        }
        if (status == 409) {
            return e.seatId() == null ? "409 in progress" : "409 replay";
        }
        if (status == 201 && !e.committed() && e.seatId() != null) {
            return "201 replay";
        }
        return String.valueOf(status);
    }

    /**
     * The Idempotency-Key of each POST: {@code the requestId on all 3}, one other key on all of them (and how it
     * relates to the requestId), or the sequence with repeats folded.
     */
    static String keys(List<JournalEntry> posts, String requestId) {
        if (posts.isEmpty()) {
            return "-";
        }
        if (posts.stream().allMatch(e -> requestId.equals(e.idempotencyKey()))) {
            return "the requestId on all " + posts.size();
        }
        List<String> distinctKeys = posts.stream().map(JournalEntry::idempotencyKey).distinct().toList();
        if (distinctKeys.size() == 1) {
            String key = distinctKeys.get(0);
            return key == null ? "none on all " + posts.size()
                    : "one key on all " + posts.size() + ", not the requestId: " + key(key, requestId);
        }
        if (distinctKeys.size() > 3) {
            long keyless = posts.stream().filter(e -> e.idempotencyKey() == null).count();
            return distinctKeys.size() + " different keys on " + posts.size() + " POSTs" + (keyless > 0 ? ", "
                    + keyless + " without one" : "") + (distinctKeys.contains(requestId)
                    ? ", the requestId among them" : ", none of them the requestId");
        }
        return fold(posts.stream().map(e -> e.idempotencyKey() == null ? "none" : key(e.idempotencyKey(), requestId))
                .toList());
    }

    /** A key as evidence: {@code the requestId}, {@code 'seat-grant:' + the requestId}, or its first 12 characters. */
    static String key(String key, String requestId) {
        if (key.equals(requestId)) {
            return "the requestId";
        }
        int at = key.indexOf(requestId);
        if (at >= 0) {
            String before = key.substring(0, at);
            String after = key.substring(at + requestId.length());
            return (before.isEmpty() ? "" : "'" + line(before) + "' + ") + "the requestId"
                    + (after.isEmpty() ? "" : " + '" + line(after) + "'");
        }
        return line(key.length() > 12 ? key.substring(0, 12) + "..." : key);
    }

    /** Seconds with two decimals: {@code 2.03 s}. */
    static String seconds(Duration d) {
        return String.format(Locale.ROOT, "%.2f s", d.toMillis() / 1000.0);
    }

    /** A worker's log line, cut to a readable length and with control characters shown as {@code ?}. */
    static String line(String line) {
        String cut = line.length() > MAX_LINE ? line.substring(0, MAX_LINE) + "..." : line;
        return cut.replaceAll("\\p{Cntrl}", "?");
    }

    private static String fold(List<String> items) {
        List<String> out = new ArrayList<>();
        int i = 0;
        while (i < items.size()) {
            int j = i;
            while (j < items.size() && items.get(j).equals(items.get(i))) {
                j++;
            }
            out.add(j - i > 1 ? items.get(i) + " x" + (j - i) : items.get(i));
            i = j;
        }
        return String.join(", ", out);
    }
}
