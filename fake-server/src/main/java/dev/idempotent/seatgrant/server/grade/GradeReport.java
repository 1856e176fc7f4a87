package dev.idempotent.seatgrant.server.grade;

import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * The grade: every check's result, each signal's score, the two gates and the verdict.
 *
 * <p>A signal is 2 when all its checks pass, 1 when at least half do (3 of 5, 2 of 4, 3 of 6, 1 of 2), 0 otherwise
 * (also when none of its checks ran). Any duplicate seat makes Idempotency 0. The sum passes with Timeout semantics
 * at least 1, Idempotency at least 1 and at least 5 of 8: the seat-grant rubric's rule (6 of 10, non-zero on timeouts
 * and idempotency), scaled to the four signals behaviour can show. Four gates stand beside the sum, and any fails
 * the worker whatever its sum: <b>safety</b> (no user ends with two seats), <b>liveness</b> (every delivery ends on
 * its own before the delivery timeout, and no request reaches a check's server while none of its deliveries runs),
 * <b>outcome</b> (every event acked has its one seat, and no event given up on has one) and <b>integrity</b> (the
 * worker touched the seat API and nothing else).
 *
 * <p>An inconclusive check counts as not passed in the signals, which are so the worker's lowest possible scores.
 * The verdict is {@link Result#INCONCLUSIVE} only when the inconclusive checks decide it: the worker fails with them
 * counted as failures and would pass with them counted as passes.
 *
 * @param checks     the results, in catalogue order
 * @param signals    each signal's score, 0 to 2
 * @param duplicates users left with more than one seat, over all checks
 * @param safety     the safety gate: no duplicate seat
 * @param liveness   the liveness gate: no delivery killed at the delivery timeout, no request outside a delivery
 * @param outcome    the outcome gate: an ack has its seat, a seat has its ack
 * @param integrity  the integrity gate: nothing but the seat API touched
 * @param verdict    pass, fail, or inconclusive
 */
public record GradeReport(List<CheckResult> checks, Map<Signal, Integer> signals, int duplicates, Gate safety,
                          Gate liveness, Gate outcome, Gate integrity, Result verdict) {

    /** The lowest sum of the four signals that passes. */
    public static final int PASSING_SUM = 5;

    public GradeReport {
        checks = List.copyOf(checks);
        signals = Collections.unmodifiableMap(new EnumMap<>(signals));
    }

    /** Scores the results. */
    public static GradeReport of(List<CheckResult> checks) {
        int duplicates = checks.stream().mapToInt(CheckResult::duplicates).sum();
        Map<Signal, Integer> low = scores(checks, CheckResult::passed, duplicates);
        Map<Signal, Integer> high = scores(checks, c -> c.result() != Result.FAIL, duplicates);
        Gate safety = duplicates == 0
                ? new Gate(true, "no user ended with two seats")
                : new Gate(false, duplicates + (duplicates == 1 ? " user" : " users") + " ended with two seats or more: "
                        + String.join(", ", checks.stream().filter(c -> c.duplicates() > 0).map(CheckResult::id)
                                .toList()));
        Gate liveness = checks.stream().filter(c -> c.neverEnded() != null).findFirst()
                .map(c -> new Gate(false, c.id() + ": " + c.neverEnded()))
                .or(() -> checks.stream().filter(c -> c.stray() != null).findFirst()
                        .map(c -> new Gate(false, c.id() + ": " + c.stray())))
                .orElseGet(() -> new Gate(true, "every delivery ended on its own, and no request came outside one"));
        Gate outcome = checks.stream().filter(c -> c.lostWork() != null).findFirst()
                .map(c -> new Gate(false, c.id() + ": " + c.lostWork()))
                .orElseGet(() -> new Gate(true, "every acked event has its seat, and every seat its ack"));
        Gate integrity = checks.stream().filter(c -> c.offApi() != null).findFirst()
                .map(c -> new Gate(false, c.id() + ": " + c.offApi()))
                .orElseGet(() -> new Gate(true, "only the seat API was touched"));
        Result verdict;
        if (!safety.passed() || !liveness.passed() || !outcome.passed() || !integrity.passed() || !sumPasses(high)) {
            verdict = Result.FAIL;
        } else {
            verdict = sumPasses(low) ? Result.PASS : Result.INCONCLUSIVE;
        }
        return new GradeReport(checks, low, duplicates, safety, liveness, outcome, integrity, verdict);
    }

    private static Map<Signal, Integer> scores(List<CheckResult> checks, Predicate<CheckResult> counts,
                                               int duplicates) {
        Map<Signal, Integer> signals = new EnumMap<>(Signal.class);
        for (Signal signal : Signal.values()) {
            List<CheckResult> behind = checks.stream().filter(c -> c.signal() == signal).toList();
            long passed = behind.stream().filter(counts).count();
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
        return signals;
    }

    private static boolean sumPasses(Map<Signal, Integer> signals) {
        int sum = signals.values().stream().mapToInt(Integer::intValue).sum();
        return signals.get(Signal.TIMEOUT) >= 1 && signals.get(Signal.IDEMPOTENCY) >= 1 && sum >= PASSING_SUM;
    }

    /** Whether the worker passes: the verdict is {@link Result#PASS}. */
    public boolean pass() {
        return verdict == Result.PASS;
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
