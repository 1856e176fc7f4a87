package dev.idempotent.seatgrant.server.lab;

import dev.idempotent.seatgrant.server.FaultPlan;
import dev.idempotent.seatgrant.server.Ledger;
import dev.idempotent.seatgrant.worker.SeatRequested;
import dev.idempotent.seatgrant.worker.Sleeper;
import dev.idempotent.seatgrant.worker.variants.GrantHandler;
import dev.idempotent.seatgrant.worker.variants.Variant;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Drives one batch of events through each worker variant the way an at-least-once bus would, and reads the
 * fake server's ledger afterwards.
 *
 * <p>For every variant, the same {@link DeliveryPlan}: first every event is delivered (some twice at the same
 * moment); then every event whose handler threw is redelivered to the same worker, as a nack would; then the
 * worker "crashes" and a fresh instance of the variant receives whatever is still unacknowledged plus the events
 * whose ack the crash lost. An event still unhandled after that is dead-lettered and counted as failed, and so is
 * an event a worker acknowledged although the server holds no seat for it.
 *
 * <p>Waits between a worker's attempts run {@value #BACKOFF_SPEEDUP} times faster than the worker asks, so a
 * batch finishes in seconds; the server's own faults (the gateway's delay before a 504) run in real time.
 *
 * <p>Not thread-safe; one lab runs one batch at a time.
 */
public final class IncidentLab {

    /** How much faster than asked a worker's backoff sleeps run in the lab. */
    public static final int BACKOFF_SPEEDUP = 10;

    private static final int MAX_CONSUMERS = 64;
    private static final Duration TWIN_WAIT = Duration.ofSeconds(5);
    private static final Duration ROUND_LIMIT = Duration.ofMinutes(5);

    /**
     * What to run.
     *
     * @param events     events in the batch, at least 1
     * @param variants   the variants, in table order, at least one
     * @param scenario   a shipped scenario name ({@link FaultPlan#SCENARIOS})
     * @param seed       decides twin deliveries, lost acks and the plan's random faults
     * @param server     a running fake server to use instead of embedded ones; nullable
     * @param adminToken that server's admin token; nullable
     */
    public record Settings(int events, List<Variant> variants, String scenario, long seed, URI server,
                           String adminToken) {
        public Settings {
            if (events < 1) {
                throw new IllegalArgumentException("events must be at least 1");
            }
            variants = List.copyOf(variants);
            if (variants.isEmpty()) {
                throw new IllegalArgumentException("name at least one variant");
            }
            Objects.requireNonNull(scenario, "scenario");
        }
    }

    private final Settings settings;
    private final FaultPlan plan;
    private final DeliveryPlan deliveries;

    /**
     * @throws IllegalArgumentException if the scenario is not a shipped one
     */
    public IncidentLab(Settings settings) {
        this.settings = settings;
        this.plan = planFor(settings.scenario(), settings.seed());
        this.deliveries = DeliveryPlan.of(settings.events(), settings.seed());
    }

    /**
     * The scenario's plan, reseeded only when one of its rules draws from the seed. The {@code incident} and
     * {@code reset} plans draw nothing, and a plan with another seed would no longer be the shipped scenario: the
     * server and its page would name it a custom plan instead of the scenario the table names.
     */
    static FaultPlan planFor(String scenario, long seed) {
        FaultPlan shipped = FaultPlan.scenario(scenario);
        boolean drawsFromSeed = shipped.rules().stream().anyMatch(rule -> rule.probability() != null);
        return drawsFromSeed ? new FaultPlan(seed, shipped.rules()) : shipped;
    }

    /** Events delivered twice at the same moment, for the table's header. */
    public int twinCount() {
        return deliveries.twins().size();
    }

    /** Events whose ack the simulated crash loses, for the table's header. */
    public int inFlightCount() {
        return deliveries.inFlight().size();
    }

    /**
     * With a running server ({@code --server}), asks it once, before anything is reset or printed, whether it
     * answers and lets the lab use its admin API; with embedded servers, does nothing.
     *
     * @throws IOException saying what is wrong (nothing answers, the admin token is missing or wrong, not a
     *                     fake-server) and what to do about it
     */
    public void checkServer() throws IOException, InterruptedException {
        if (settings.server() != null) {
            LabTarget.remote(settings.server(), settings.adminToken()).check();
        }
    }

    /**
     * Runs every variant and returns the rows in the order asked. Embedded servers run the variants side by side,
     * one server each; a remote server runs them one after another, reset in between.
     *
     * @param done called once per finished variant, from any thread
     * @throws IOException if a remote server's admin API fails
     */
    public List<VariantResult> run(Consumer<VariantResult> done) throws IOException, InterruptedException {
        if (settings.server() != null) {
            List<VariantResult> rows = new ArrayList<>();
            try (LabTarget target = LabTarget.remote(settings.server(), settings.adminToken())) {
                for (Variant variant : settings.variants()) {
                    VariantResult row = runVariant(variant, target);
                    done.accept(row);
                    rows.add(row);
                }
            }
            return rows;
        }
        ExecutorService perVariant = Executors.newFixedThreadPool(settings.variants().size());
        try {
            List<Future<VariantResult>> futures = new ArrayList<>();
            for (Variant variant : settings.variants()) {
                futures.add(perVariant.submit(() -> {
                    try (LabTarget target = LabTarget.embedded()) {
                        VariantResult row = runVariant(variant, target);
                        done.accept(row);
                        return row;
                    }
                }));
            }
            List<VariantResult> rows = new ArrayList<>();
            for (Future<VariantResult> future : futures) {
                rows.add(get(future));
            }
            return rows;
        } finally {
            perVariant.shutdownNow();
        }
    }

    private VariantResult runVariant(Variant variant, LabTarget target) throws IOException, InterruptedException {
        target.prepare(plan);
        List<SeatRequested> events = deliveries.events();
        Map<String, Integer> indexOf = new HashMap<>();
        for (int i = 0; i < events.size(); i++) {
            indexOf.put(events.get(i).requestId(), i);
        }
        Map<Integer, CountDownLatch> twinGates = new HashMap<>();
        deliveries.twins().forEach(i -> twinGates.put(i, new CountDownLatch(2)));
        Consumer<SeatRequested> lineUpTwins = event -> {
            CountDownLatch gate = twinGates.get(indexOf.get(event.requestId()));
            if (gate != null) {
                gate.countDown();
                awaitQuietly(gate);
            }
        };
        Sleeper faster = duration -> Thread.sleep(duration.toMillis() / BACKOFF_SPEEDUP);
        Set<Integer> acked = ConcurrentHashMap.newKeySet();
        int consumers = Math.min(MAX_CONSUMERS, events.size() + deliveries.twins().size());
        ExecutorService pool = Executors.newFixedThreadPool(consumers);
        try {
            Set<Integer> all = new TreeSet<>();
            for (int i = 0; i < events.size(); i++) {
                all.add(i);
            }
            // Each worker is one process: closed when it "crashes", as a process that dies releases what it held.
            try (GrantHandler worker = variant.create(target.baseUri(), faster, lineUpTwins)) {
                deliver(pool, worker, all, deliveries.twins(), acked);
                deliver(pool, worker, unacked(all, acked), Set.of(), acked);
            }
            Ledger beforeCrash = target.ledger();

            Set<Integer> redelivered = unacked(all, acked);
            redelivered.addAll(deliveries.inFlight());
            try (GrantHandler restarted = variant.create(target.baseUri(), faster, lineUpTwins)) {
                deliver(pool, restarted, redelivered, Set.of(), acked);
            }
            Ledger after = target.ledger();

            Map<String, Long> extraBefore = extras(beforeCrash);
            Map<String, Long> extraAfter = extras(after);
            long onTwins = 0;
            long afterLostAnswer = 0;
            for (Map.Entry<String, Long> e : extraBefore.entrySet()) {
                if (deliveries.twins().contains(indexOf.get(requestIdFor(e.getKey())))) {
                    onTwins += e.getValue();
                } else {
                    afterLostAnswer += e.getValue();
                }
            }
            long duplicates = extraAfter.values().stream().mapToLong(Long::longValue).sum();
            long beforeTotal = onTwins + afterLostAnswer;
            int deadLettered = events.size() - acked.size();
            int ackedWithoutSeat = 0;
            for (int i : acked) {
                if (!target.hasSeat(events.get(i))) {
                    ackedWithoutSeat++;
                }
            }
            return new VariantResult(variant, events.size(), target.posts(), after.seats(), duplicates,
                    deadLettered + ackedWithoutSeat, afterLostAnswer, onTwins, duplicates - beforeTotal,
                    deadLettered, ackedWithoutSeat);
        } finally {
            pool.shutdownNow();
        }
    }

    /** Delivers each index once (twice for twins, at the same moment) and waits for every delivery to end. */
    private void deliver(ExecutorService pool, GrantHandler worker, Set<Integer> indexes, Set<Integer> twins,
                         Set<Integer> acked) throws InterruptedException {
        List<Future<?>> running = new ArrayList<>();
        for (int i : indexes) {
            SeatRequested event = deliveries.events().get(i);
            int copies = twins.contains(i) ? 2 : 1;
            for (int c = 0; c < copies; c++) {
                running.add(pool.submit(() -> {
                    try {
                        worker.handle(event);
                        acked.add(i);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    } catch (Exception notAcked) {
                        // The handler gave up: the bus keeps the event and redelivers it in the next round.
                    }
                }));
            }
        }
        long deadline = System.nanoTime() + ROUND_LIMIT.toNanos();
        for (Future<?> f : running) {
            try {
                f.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (ExecutionException | java.util.concurrent.TimeoutException e) {
                f.cancel(true);
            }
        }
    }

    private static Set<Integer> unacked(Set<Integer> all, Set<Integer> acked) {
        Set<Integer> out = new TreeSet<>(all);
        out.removeAll(acked);
        return out;
    }

    /** Seats beyond the first, per grant, keyed by workspaceId (one grant per workspace in a batch). */
    private static Map<String, Long> extras(Ledger ledger) {
        Map<String, Long> out = new HashMap<>();
        for (Ledger.Duplicate d : ledger.duplicates()) {
            out.merge(d.workspaceId(), (long) d.seatIds().size() - 1, Long::sum);
        }
        return out;
    }

    private static String requestIdFor(String workspaceId) {
        return "req_" + workspaceId.substring("ws_".length());
    }

    private static void awaitQuietly(CountDownLatch gate) {
        try {
            gate.await(TWIN_WAIT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static VariantResult get(Future<VariantResult> future) throws IOException, InterruptedException {
        try {
            return future.get();
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof IOException io) {
                throw io;
            }
            if (cause instanceof RuntimeException re) {
                throw re;
            }
            throw new IllegalStateException("lab variant failed", cause);
        }
    }
}
