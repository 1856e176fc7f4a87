package dev.idempotent.seatgrant.server.grade;

import dev.idempotent.seatgrant.server.ServerConfig;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Grades one seat-grant worker, given as a command, against the fixed catalogue of checks: each check gets its own
 * fresh in-memory server and fault plan, and checks run side by side, since none shares a server.
 *
 * <pre>{@code
 * GradeReport report = new Grader(List.of("node", "worker.mjs"), Duration.ofSeconds(60)).grade(Set.of());
 * }</pre>
 */
public final class Grader {

    /** The default bound on one delivery, after which the worker is killed and the delivery counts as a nack. */
    public static final Duration DEFAULT_TIMEOUT_PER_DELIVERY = Duration.ofSeconds(60);

    /** One catalogue entry as {@code grade --list} shows it. */
    public record CheckInfo(String id, Signal signal, String summary) { }

    private final WorkerCommand worker;

    /**
     * @param command            the worker's command and arguments, run once per delivery
     * @param timeoutPerDelivery how long one delivery may run before it is killed and counted as a nack
     */
    public Grader(List<String> command, Duration timeoutPerDelivery) {
        if (timeoutPerDelivery.isNegative() || timeoutPerDelivery.isZero()) {
            throw new IllegalArgumentException("the delivery timeout must be positive");
        }
        this.worker = new WorkerCommand(command, timeoutPerDelivery);
    }

    /** The catalogue, in report order. */
    public static List<CheckInfo> catalogue() {
        return Catalogue.checks().stream().map(c -> new CheckInfo(c.id(), c.signal(), c.summary())).toList();
    }

    /**
     * Runs the checks with these ids (all of them when {@code only} is empty) and scores the results.
     *
     * @throws IllegalArgumentException if an id is not in the catalogue
     * @throws WorkerStartException if the worker's command cannot be started
     * @throws WorkerUnreachableException if the first check's first delivery failed with no request reaching
     *                                    the server
     */
    public GradeReport grade(Collection<String> only) {
        Set<String> known = Set.copyOf(catalogue().stream().map(CheckInfo::id).toList());
        for (String id : only) {
            if (!known.contains(id)) {
                throw new IllegalArgumentException("no check called '" + id + "' (see grade --list)");
            }
        }
        List<Check> selected = Catalogue.checks().stream()
                .filter(c -> only.isEmpty() || only.contains(c.id()))
                .toList();
        // The waits are mostly the server's and the worker's, not CPU; but every delivery starts a process.
        int parallel = Math.max(4, 2 * Runtime.getRuntime().availableProcessors());
        ExecutorService pool = Executors.newFixedThreadPool(Math.min(parallel, selected.size()), runnable -> {
            Thread thread = new Thread(runnable, "grade-check");
            thread.setDaemon(true);
            return thread;
        });
        try {
            List<Future<CheckResult>> futures = new ArrayList<>();
            for (Check check : selected) {
                // Only the first check's first delivery asks whether the worker reaches the server at all.
                boolean probe = check == selected.get(0);
                futures.add(pool.submit(() -> run(check, probe)));
            }
            List<CheckResult> results = new ArrayList<>();
            for (Future<CheckResult> future : futures) {
                results.add(future.get());
            }
            return GradeReport.of(results);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException cause) {
                throw cause;
            }
            throw new IllegalStateException("a check failed to run", e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while grading", e);
        } finally {
            pool.shutdownNow();
        }
    }

    private CheckResult run(Check check, boolean probe) {
        CheckResult result = runOnce(check, true, probe);
        return result != null ? result : runOnce(check, false, false);
    }

    /** One trial of the check; null when it was inconclusive and {@code mayRetry}, so the caller tries again. */
    private CheckResult runOnce(Check check, boolean mayRetry, boolean probe) {
        ServerConfig config = check.server().apply(ServerConfig.builder().db("mem")).build();
        try (Trial trial = new Trial(worker, config, probe)) {
            Check.Judgement judgement = check.scenario().run(trial);
            if (judgement.inconclusive() && mayRetry && trial.seats() <= 1) {
                return null;
            }
            boolean passed = judgement.passed();
            String reason = judgement.reason();
            if (passed && trial.seats() > 1) {
                // Whatever else a check looks at, a second seat for the requestId fails it.
                passed = false;
                reason = trial.seats() + " seats for one requestId";
            }
            return new CheckResult(check.id(), check.signal(), passed, reason + " | " + trial.facts(),
                    trial.duplicates());
        }
    }
}
