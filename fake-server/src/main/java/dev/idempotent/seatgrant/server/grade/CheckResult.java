package dev.idempotent.seatgrant.server.grade;

import java.util.List;
import java.util.Objects;

/**
 * How one check of the catalogue went, over one run or several ({@code grade --repeat N}).
 *
 * @param id          the check's stable kebab-case id, e.g. {@code twin-deliveries}
 * @param signal      the rubric signal it counts towards
 * @param result      pass, fail, or inconclusive (the grader could not tell; never the worker's failure). Over
 *                    several runs: a failure if any run failed, even when others passed ({@link #flaky()})
 * @param evidence    one line from the journal, the ledger and the worker's log that shows why (from a failing run,
 *                    when one failed)
 * @param duplicates  users this check's server ended with more than one seat for (0 or 1: one user per check; the
 *                    most of any run)
 * @param deliveries  each run of the worker's command in the run the evidence is from, in the order they started
 * @param runs        how many times the check ran
 * @param passes      how many of those runs passed
 * @param neverEnded  why a delivery of this check was killed at the delivery timeout (the liveness gate); nullable:
 *                    every delivery ended on its own
 * @param stray       the requests that reached this check's server while none of its deliveries ran (the liveness
 *                    gate); nullable: none did
 * @param lostWork    how the event's end and its seat disagreed (the outcome gate); nullable: they agreed
 * @param offApi      the requests beside the seat API, such as the admin API's (the integrity gate); nullable:
 *                    none
 */
public record CheckResult(String id, Signal signal, Result result, String evidence, int duplicates,
                          List<DeliveryResult> deliveries, int runs, int passes, String neverEnded, String stray,
                          String lostWork, String offApi) {

    public CheckResult {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(signal, "signal");
        Objects.requireNonNull(result, "result");
        Objects.requireNonNull(evidence, "evidence");
        deliveries = List.copyOf(deliveries);
        if (duplicates < 0) {
            throw new IllegalArgumentException("duplicates must not be negative");
        }
        if (runs < 1 || passes < 0 || passes > runs) {
            throw new IllegalArgumentException("passes must be from 0 to runs, and runs at least 1");
        }
        if ((result == Result.PASS) != (passes == runs)) {
            throw new IllegalArgumentException("a check passes exactly when every run passed");
        }
    }

    /** A result whose outcome and integrity gates have nothing to say, and which no request outlived. */
    public CheckResult(String id, Signal signal, Result result, String evidence, int duplicates,
                       List<DeliveryResult> deliveries, int runs, int passes, String neverEnded) {
        this(id, signal, result, evidence, duplicates, deliveries, runs, passes, neverEnded, null, null, null);
    }

    /**
     * This result with what its servers saw by the end of the grade: requests while none of its deliveries ran, and
     * requests beside the seat API (each nullable: none).
     */
    CheckResult withLateFindings(String newStray, String newOffApi) {
        return new CheckResult(id, signal, result, evidence, duplicates, deliveries, runs, passes, neverEnded,
                newStray, lostWork, newOffApi);
    }

    /** One conclusive run with no deliveries recorded: what a test of the scoring rules needs. */
    public CheckResult(String id, Signal signal, boolean passed, String evidence, int duplicates) {
        this(id, signal, passed ? Result.PASS : Result.FAIL, evidence, duplicates, List.of(), 1, passed ? 1 : 0,
                null);
    }

    /** Whether the worker did what the check asks, every time it ran. */
    public boolean passed() {
        return result == Result.PASS;
    }

    /** Passed in some runs and failed in others: a failure, named for what it is. */
    public boolean flaky() {
        return result == Result.FAIL && passes > 0;
    }

    /**
     * The runs of one check as one result: failed if any run failed, else inconclusive if any was, else passed. The
     * evidence and deliveries are a failing run's (else an inconclusive one's, else the last run's), prefixed with
     * the tally when the runs disagreed.
     */
    static CheckResult merge(List<CheckResult> runs) {
        if (runs.size() == 1) {
            return runs.get(0);
        }
        CheckResult shown = runs.stream().filter(r -> r.result() == Result.FAIL).findFirst()
                .or(() -> runs.stream().filter(r -> r.result() == Result.INCONCLUSIVE).findFirst())
                .orElse(runs.get(runs.size() - 1));
        int passes = runs.stream().mapToInt(CheckResult::passes).sum();
        int total = runs.stream().mapToInt(CheckResult::runs).sum();
        String evidence = shown.evidence();
        if (passes > 0 && passes < total) {
            String which = shown.result() == Result.FAIL ? "flaky: " : "";
            evidence = which + "passed " + passes + " of " + total + " runs; run " + (runs.indexOf(shown) + 1) + ": "
                    + evidence;
        }
        int duplicates = runs.stream().mapToInt(CheckResult::duplicates).max().orElse(0);
        return new CheckResult(shown.id(), shown.signal(), shown.result(), evidence, duplicates, shown.deliveries(),
                total, passes, first(runs, CheckResult::neverEnded), first(runs, CheckResult::stray),
                first(runs, CheckResult::lostWork), first(runs, CheckResult::offApi));
    }

    private static String first(List<CheckResult> runs, java.util.function.Function<CheckResult, String> finding) {
        return runs.stream().map(finding).filter(Objects::nonNull).findFirst().orElse(null);
    }
}
