package dev.idempotent.seatgrant.server.grade;

import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * The grade: every check's result, each signal's score, the duplicate count and the verdict.
 *
 * <p>A signal is 2 when all its checks pass, 1 when at least half do, 0 otherwise (also when none of its checks
 * ran). Any duplicate seat makes Idempotency 0. The worker passes with Timeout semantics at least 1, Idempotency
 * at least 1 and a sum of at least 5 of 8: the seat-grant rubric's rule (6 of 10, non-zero on timeouts and
 * idempotency), scaled to the four signals behaviour can show.
 *
 * @param checks     the results, in catalogue order
 * @param signals    each signal's score, 0 to 2
 * @param duplicates users left with more than one seat, over all checks
 * @param pass       the verdict
 */
public record GradeReport(List<CheckResult> checks, Map<Signal, Integer> signals, int duplicates, boolean pass) {

    /** The lowest sum of the four signals that passes. */
    public static final int PASSING_SUM = 5;

    public GradeReport {
        checks = List.copyOf(checks);
        signals = Collections.unmodifiableMap(new EnumMap<>(signals));
    }

    /** Scores the results. */
    public static GradeReport of(List<CheckResult> checks) {
        int duplicates = checks.stream().mapToInt(CheckResult::duplicates).sum();
        Map<Signal, Integer> signals = new EnumMap<>(Signal.class);
        for (Signal signal : Signal.values()) {
            List<CheckResult> behind = checks.stream().filter(c -> c.signal() == signal).toList();
            long passed = behind.stream().filter(CheckResult::passed).count();
            int score;
            if (behind.isEmpty()) {
                score = 0;
            } else if (passed == behind.size()) {
                score = 2;
            } else {
                score = 2 * passed >= behind.size() ? 1 : 0;
            }
            signals.put(signal, score);
        }
        if (duplicates > 0) {
            // One seat per requestId is the invariant; nothing else a worker does makes up for breaking it.
            signals.put(Signal.IDEMPOTENCY, 0);
        }
        int sum = signals.values().stream().mapToInt(Integer::intValue).sum();
        boolean pass = signals.get(Signal.TIMEOUT) >= 1 && signals.get(Signal.IDEMPOTENCY) >= 1 && sum >= PASSING_SUM;
        return new GradeReport(checks, signals, duplicates, pass);
    }

    /** The sum of the four signals, 0 to 8. */
    public int sum() {
        return signals.values().stream().mapToInt(Integer::intValue).sum();
    }

    /** The result of the check with this id; throws if it did not run. */
    public CheckResult check(String id) {
        return checks.stream().filter(c -> c.id().equals(id)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no such check in this report: " + id));
    }
}
