package dev.idempotent.seatgrant.server.grade;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * The same worker gets the same verdict, run after run, on a busy machine: the Node and the Python worker (the
 * latter in its borderline form: a 1.2 s request timeout against a gateway that answers after 1 s, and Retry-After
 * slept to the millisecond) are graded several times, two grades at once, while a thread keeps a core busy, on the
 * checks whose outcome hangs on timing.
 */
class GradeStabilityTest {

    private static final Set<String> TIMING_SENSITIVE = Set.of("committed-then-504", "committed-then-held-open",
            "twin-deliveries", "retry-after-honoured");
    private static final int ROUNDS = 3;
    private static final Duration DELIVERY_TIMEOUT = Duration.ofSeconds(180);

    /** What a verdict is made of: the verdict, each signal, and each check's result. */
    private record Outcome(Result verdict, Map<Signal, Integer> signals, Map<String, Result> checks) {
        static Outcome of(GradeReport report) {
            Map<String, Result> checks = new LinkedHashMap<>();
            report.checks().forEach(c -> checks.put(c.id(), c.result()));
            return new Outcome(report.verdict(), report.signals(), checks);
        }
    }

    @Test
    void theNodeAndTheBorderlinePythonWorkerGetOneVerdictEveryTimeUnderLoad() throws Exception {
        assumeTrue(Workers.installed("node"), "node is not installed: skipping the stability test");
        assumeTrue(Workers.installed("python3"), "python3 is not installed: skipping the stability test");
        Map<String, List<String>> workers = new LinkedHashMap<>();
        workers.put("node", Workers.node());
        workers.put("python --borderline", Workers.python("--borderline"));
        Map<String, List<Outcome>> outcomes = new LinkedHashMap<>();
        Map<String, List<String>> tables = new LinkedHashMap<>();
        workers.keySet().forEach(name -> {
            outcomes.put(name, new ArrayList<>());
            tables.put(name, new ArrayList<>());
        });
        AtomicBoolean busy = new AtomicBoolean(true);
        Thread spinner = new Thread(() -> {
            while (busy.get()) {
                Thread.onSpinWait();
            }
        }, "busy-core");
        spinner.setDaemon(true);
        spinner.start();
        ExecutorService both = Executors.newFixedThreadPool(workers.size());
        try {
            for (int round = 0; round < ROUNDS; round++) {
                Map<String, CompletableFuture<GradeReport>> running = new LinkedHashMap<>();
                workers.forEach((name, command) -> running.put(name, CompletableFuture.supplyAsync(
                        () -> new Grader(command, DELIVERY_TIMEOUT).grade(TIMING_SENSITIVE), both)));
                for (Map.Entry<String, CompletableFuture<GradeReport>> e : running.entrySet()) {
                    GradeReport report = e.getValue().get();
                    outcomes.get(e.getKey()).add(Outcome.of(report));
                    tables.get(e.getKey()).add(ReportWriter.table(report));
                }
            }
        } finally {
            busy.set(false);
            both.shutdownNow();
        }
        for (String name : workers.keySet()) {
            List<Outcome> runs = outcomes.get(name);
            for (Outcome run : runs) {
                assertEquals(runs.get(0), run, name + ": every run the same\n" + String.join("\n", tables.get(name)));
            }
            // And the verdict is the right one: both workers are correct on these checks.
            Outcome first = runs.get(0);
            assertEquals(Result.PASS, first.verdict(), name + "\n" + tables.get(name).get(0));
            first.checks().forEach((id, result) -> assertEquals(Result.PASS, result, name + " " + id + "\n"
                    + tables.get(name).get(0)));
        }
    }
}
