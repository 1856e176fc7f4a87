package dev.idempotent.seatgrant.server.grade;

import dev.idempotent.seatgrant.server.ApiNames;
import dev.idempotent.seatgrant.server.ServerConfig;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Grades one seat-grant worker, given as a command, against the fixed catalogue of checks: each check gets its own
 * fresh in-memory server and fault plan, and checks run side by side, since none shares a server. Before the first
 * delivery, the grader warms its own JVM on a throwaway server ({@link Warmup}), so no check meets a cold server.
 *
 * <pre>{@code
 * GradeReport report = new Grader(List.of("node", "worker.mjs"), Duration.ofSeconds(60)).grade(Set.of());
 * }</pre>
 *
 * <p>Thread-safe: two grades may run at once, each with its own servers.
 */
public final class Grader {

    /** The default bound on one delivery, after which the worker is killed and the delivery counts as a nack. */
    public static final Duration DEFAULT_TIMEOUT_PER_DELIVERY = Duration.ofSeconds(60);

    /** The most times {@link #grade(Collection, int)} grades a worker in one call. */
    public static final int MAX_REPEAT = 20;

    /** One catalogue entry as {@code grade --list} shows it. */
    public record CheckInfo(String id, Signal signal, String summary) { }

    private static final String NO_URL_IN_LOGS = "no-url-in-logs";

    private final WorkerCommand worker;
    private final Trial.Pauser pauser;
    /** Whether to skip the namespace probe and contain deliveries by process group only. */
    private volatile boolean noNamespace;
    private final List<Check> checks;

    /**
     * @param command            the worker's command and arguments, run once per delivery
     * @param timeoutPerDelivery how long one delivery may run before it is killed and counted as a nack
     */
    public Grader(List<String> command, Duration timeoutPerDelivery) {
        this(command, timeoutPerDelivery, duration -> Thread.sleep(duration.toMillis()));
    }

    /** As a test builds one: {@code pauser} stands in for the bus's wait between a nack and the redelivery. */
    Grader(List<String> command, Duration timeoutPerDelivery, Trial.Pauser pauser) {
        this(command, timeoutPerDelivery, pauser, Catalogue.HOLD);
    }

    /**
     * As a test builds one that need not wait out the shipped 30 s hold: {@code committed-then-held-open} holds its
     * POST for {@code hold} instead (it must still be well above the request timeouts of the workers graded).
     */
    Grader(List<String> command, Duration timeoutPerDelivery, Trial.Pauser pauser, Duration hold) {
        this(command, timeoutPerDelivery, pauser, hold, Catalogue.TWIN_HOLD);
    }

    /** As above, with the twins' hold bounded by {@code twinHold} instead of the shipped 30 s. */
    Grader(List<String> command, Duration timeoutPerDelivery, Trial.Pauser pauser, Duration hold, Duration twinHold) {
        if (timeoutPerDelivery.isNegative() || timeoutPerDelivery.isZero()) {
            throw new IllegalArgumentException("the delivery timeout must be positive");
        }
        this.worker = new WorkerCommand(command, timeoutPerDelivery);
        this.pauser = pauser;
        this.checks = Catalogue.checks(hold, twinHold);
    }

    /** As a test builds one with the bus's real waits and a shorter hold (see above). */
    Grader(List<String> command, Duration timeoutPerDelivery, Duration hold) {
        this(command, timeoutPerDelivery, duration -> Thread.sleep(duration.toMillis()), hold);
    }

    /**
     * Grades a worker written to a generated handout, in the handout's names (from its {@code mapping.tsv}): the
     * variable that carries the API root, the event's fields, the route, and the JSON fields of the request, the
     * answer and the list. Check ids stay; so does the {@code Idempotency-Key} header. Returns this grader.
     *
     * @throws IllegalArgumentException if the handout's names cannot be a route and JSON fields
     */
    public Grader speaking(HandoutNames handout) {
        this.apiNames = handout.apiNames();
        this.names = handout;
        worker.baseUrlVariable(handout.name(WorkerCommand.BASE_URL_VARIABLE));
        return this;
    }

    private volatile ApiNames apiNames = ApiNames.PACKET;
    private volatile HandoutNames names = HandoutNames.none();

    /**
     * Contains each delivery by its session and process group only, never in a PID namespace of its own: what
     * {@code grade --no-namespace} asks for. Returns this grader.
     */
    public Grader withoutNamespace() {
        this.noNamespace = true;
        return this;
    }

    /**
     * How the last grade contained its deliveries: {@code containment: process groups only} when it could not give
     * each its own PID namespace (or was told not to), otherwise a line that says it did; empty before the first
     * grade.
     */
    public String containment() {
        return graded ? worker.containment().toString() : "";
    }

    private volatile boolean graded;

    /** The catalogue, in report order. */
    public static List<CheckInfo> catalogue() {
        return Catalogue.checks().stream().map(c -> new CheckInfo(c.id(), c.signal(), c.summary())).toList();
    }

    /**
     * Runs the checks with these ids (all of them when {@code only} is empty) once and scores the results.
     *
     * @throws IllegalArgumentException if an id is not in the catalogue
     * @throws WorkerStartException if the worker's command cannot be started
     * @throws WorkerUnreachableException if the first check's first delivery failed with no request reaching
     *                                    the server
     */
    public GradeReport grade(Collection<String> only) {
        return grade(only, 1);
    }

    /**
     * Grades the worker {@code repeat} times over, each time from fresh servers, and scores the runs together: a
     * check passes only if it passed every time; one that passed only sometimes fails, named as flaky.
     *
     * @throws IllegalArgumentException if an id is not in the catalogue, or {@code repeat} is not 1 to
     *                                  {@value #MAX_REPEAT}
     * @throws WorkerStartException if the worker's command cannot be started
     * @throws WorkerUnreachableException if the first check's first delivery failed with no request reaching
     *                                    the server
     */
    public GradeReport grade(Collection<String> only, int repeat) {
        if (repeat < 1 || repeat > MAX_REPEAT) {
            throw new IllegalArgumentException("repeat must be from 1 to " + MAX_REPEAT);
        }
        Set<String> known = Set.copyOf(catalogue().stream().map(CheckInfo::id).toList());
        for (String id : only) {
            if (!known.contains(id)) {
                throw new IllegalArgumentException("no check called '" + id + "'");
            }
        }
        List<Check> selected = checks.stream()
                .filter(c -> only.isEmpty() || only.contains(c.id()))
                .toList();
        // Probed once per grade: the machine may have changed (user namespaces turned off) since the last.
        worker.contain(noNamespace ? Containment.processGroupsOnly() : Containment.probe());
        graded = true;
        Warmup.once();
        List<List<CheckResult>> runs = new ArrayList<>();
        for (int i = 0; i < repeat; i++) {
            runs.add(runAll(selected, i == 0));
        }
        List<CheckResult> merged = new ArrayList<>();
        for (int c = 0; c < selected.size(); c++) {
            int index = c;
            merged.add(CheckResult.merge(runs.stream().map(run -> run.get(index)).toList()));
        }
        return GradeReport.of(merged);
    }

    /**
     * Runs the checks side by side. Every trial's server stays bound until the last check has ended, so a process
     * that outlived its delivery cannot reach a later check's server on a reused port, and whatever it sends is seen:
     * only then are the liveness and integrity gates read from each server's journal.
     */
    private List<CheckResult> runAll(List<Check> selected, boolean probe) {
        // The waits are mostly the server's and the worker's, not CPU; but every delivery starts a process.
        int parallel = Math.max(4, 2 * Runtime.getRuntime().availableProcessors());
        ExecutorService pool = Executors.newFixedThreadPool(Math.min(parallel, selected.size()), runnable -> {
            Thread thread = new Thread(runnable, "grade-check");
            thread.setDaemon(true);
            return thread;
        });
        List<List<Trial>> trials = new ArrayList<>();
        selected.forEach(c -> trials.add(new CopyOnWriteArrayList<>()));
        try {
            List<Future<CheckResult>> futures = new ArrayList<>();
            for (int i = 0; i < selected.size(); i++) {
                Check check = selected.get(i);
                List<Trial> opened = trials.get(i);
                // Only the first check's first delivery asks whether the worker reaches the server at all.
                boolean probeThis = probe && i == 0;
                futures.add(pool.submit(() -> run(check, probeThis, opened)));
            }
            List<CheckResult> results = new ArrayList<>();
            for (int i = 0; i < futures.size(); i++) {
                CheckResult result = futures.get(i).get();
                String stray = trials.get(i).stream().map(Trial::strays).flatMap(Optional::stream).findFirst()
                        .orElse(null);
                String offApi = trials.get(i).stream().map(Trial::offApi).flatMap(Optional::stream).findFirst()
                        .orElse(null);
                results.add(stray == null && offApi == null ? result : result.withLateFindings(stray, offApi));
            }
            return urlsJudgedOverEveryCheck(selected, trials, results);
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
            trials.stream().flatMap(List::stream).forEach(Trial::close);
        }
    }

    /**
     * {@code no-url-in-logs} judged over every check's deliveries, not only its own: a worker that logs its base URL
     * in any delivery fails it, the line named. The other checks' results stand.
     */
    private static List<CheckResult> urlsJudgedOverEveryCheck(List<Check> selected, List<List<Trial>> trials,
                                                              List<CheckResult> results) {
        int noUrl = -1;
        for (int i = 0; i < selected.size(); i++) {
            if (selected.get(i).id().equals(NO_URL_IN_LOGS)) {
                noUrl = i;
            }
        }
        if (noUrl < 0 || results.get(noUrl).result() == Result.FAIL) {
            return results;
        }
        for (int i = 0; i < selected.size(); i++) {
            for (Trial trial : trials.get(i)) {
                Optional<String> named = trial.urlInLogs();
                if (named.isPresent()) {
                    CheckResult r = results.get(noUrl);
                    List<CheckResult> judged = new ArrayList<>(results);
                    // Its own facts stay; its own reason (a pass) gives way to the line found.
                    String facts = r.evidence().contains(" | ") ? r.evidence().substring(r.evidence().indexOf(" | "))
                            : "";
                    judged.set(noUrl, new CheckResult(r.id(), r.signal(), Result.FAIL, "in " + selected.get(i).id()
                            + ", " + named.get() + facts, r.duplicates(), r.deliveries(), r.runs(), 0,
                            r.neverEnded(), r.stray(), r.lostWork(), r.offApi()));
                    return judged;
                }
            }
        }
        return results;
    }

    /**
     * One check, tried a second time on a fresh server when the first trial did not pass and could not tell: the
     * trial's own server was the slow party (and the failure is one a slow server could cause), or the trial did not
     * set up what the check needs. A second such trial is reported inconclusive. Each trial is added to
     * {@code opened}, still open, for the caller to read and close.
     */
    private CheckResult run(Check check, boolean probe, List<Trial> opened) {
        Attempt first = runOnce(check, probe, opened);
        if (first.doubt().isEmpty()) {
            return first.result();
        }
        Attempt second = runOnce(check, false, opened);
        if (second.doubt().isEmpty()) {
            return second.result();
        }
        CheckResult r = second.result();
        return new CheckResult(r.id(), r.signal(), Result.INCONCLUSIVE, second.doubt().get() + ", twice: not the"
                + " worker's doing; grade again on a less loaded machine | " + second.facts(), r.duplicates(),
                r.deliveries(), 1, 0, r.neverEnded(), null, r.lostWork(), null);
    }

    /** A trial's result, its facts, and why it cannot be trusted when it cannot (empty: it can). */
    private record Attempt(CheckResult result, String facts, Optional<String> doubt) { }

    private Attempt runOnce(Check check, boolean probe, List<Trial> opened) {
        // The worker gets an address with no admin API behind it; what it sends there is journaled for the gates.
        // Every check's API under a base path drawn alike, so no check is recognisable by its URL.
        ServerConfig config = check.server().apply(ServerConfig.builder().db("mem").adminApi(false)
                .basePath(Catalogue.basePath()).apiNames(apiNames)).build();
        Trial trial = new Trial(worker, config, probe, pauser, check.extraBudget());
        trial.speak(names);
        opened.add(trial);
        Check.Judgement judgement = check.scenario().run(trial);
        String facts = trial.facts();
        CheckResult result = new CheckResult(check.id(), check.signal(),
                judgement.passed() ? Result.PASS : Result.FAIL, judgement.reason() + " | " + facts,
                trial.duplicates(), trial.deliveryResults(), 1, judgement.passed() ? 1 : 0,
                trial.neverEnded().orElse(null), null, trial.lostWork().orElse(null), null);
        Optional<String> doubt = Optional.empty();
        if (judgement.inconclusive()) {
            doubt = Optional.of(judgement.reason());
        } else if (!judgement.passed() && !judgement.certain() && trial.duplicates() == 0) {
            // A pass on a slow server stands; so do an early retry and an extra seat, which no slow server causes. Any
            // other failure may be the server's doing, so it is tried again.
            doubt = trial.slowAnswer().map(slow -> "the grader's own server was the slow party (" + slow
                    + ", more than " + Trial.SLOW_ANSWER.toMillis() + " ms)");
        }
        return new Attempt(result, facts, doubt);
    }
}
