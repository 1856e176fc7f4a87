package dev.idempotent.seatgrant.server.grade;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.idempotent.seatgrant.server.FakeSeatServer;
import dev.idempotent.seatgrant.server.FaultRule;
import dev.idempotent.seatgrant.server.JournalEntry;
import dev.idempotent.seatgrant.server.ServerConfig;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Predicate;

/**
 * One check's world: a fresh in-memory server, one {@code seat.requested} event, and an at-least-once bus that
 * delivers the event to the worker command. Also reads what happened back: the requests from the journal in
 * arrival order, the seats from the ledger, and the deliveries' output.
 */
final class Trial implements AutoCloseable {

    /** How many times the bus delivers an event that keeps being nacked, the first delivery included. */
    static final int MAX_DELIVERIES = 3;

    /**
     * How long the bus waits after a nack before it redelivers: 2 s, then 4 s, as brokers back off. A nack of an
     * in-progress 409 inside the twins' 3 s hold therefore cannot use up the redeliveries within the hold.
     */
    static final List<Duration> REDELIVERY_DELAYS = List.of(Duration.ofSeconds(2), Duration.ofSeconds(4));

    /**
     * An answer slower than this, first byte to written, beyond its fault's own delay, makes the grader's own server
     * the slow party.
     */
    static final Duration SLOW_ANSWER = Duration.ofMillis(250);

    /** How long to wait for the journal to catch up with the store: beyond the catalogue's longest fault delay. */
    private static final Duration SETTLE_LIMIT = Duration.ofSeconds(5);

    private static final String SEATS = "/v1/seats";
    private static final ObjectMapper JSON = new ObjectMapper();

    /** Sleeps between a nack and the redelivery; tests pass one that records instead of sleeping. */
    @FunctionalInterface
    interface Pauser {
        void pause(Duration duration) throws InterruptedException;
    }

    final FakeSeatServer server;
    final String requestId;
    final String workspaceId;
    final String userId;
    private final WorkerCommand worker;
    private final Pauser pauser;
    private final Redaction redaction;
    /** Each chain of deliveries the bus made (one; two for twins), each in the order its deliveries ran. */
    private final List<List<Delivery>> chains = new CopyOnWriteArrayList<>();
    /** Set while the trial's first delivery is still to be checked for a worker that never reached the server. */
    private final AtomicBoolean probeFirstDelivery;

    /**
     * @param probeFirstDelivery whether a first delivery that fails without any request reaching the server stops
     *                           the grading with {@link WorkerUnreachableException}
     */
    Trial(WorkerCommand worker, ServerConfig config, boolean probeFirstDelivery, Pauser pauser) {
        this.worker = worker;
        this.pauser = pauser;
        this.probeFirstDelivery = new AtomicBoolean(probeFirstDelivery);
        String tag = HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextInt());
        this.requestId = "req_" + tag;
        this.workspaceId = "ws_grade";
        this.userId = "user_" + tag;
        this.server = FakeSeatServer.start(config);
        this.redaction = new Redaction(server.apiBaseUri());
    }

    /** The event as the bus puts it on the worker's stdin: one JSON line. */
    String eventLine() {
        ObjectNode event = JSON.createObjectNode()
                .put("requestId", requestId)
                .put("workspaceId", workspaceId)
                .put("userId", userId)
                .put("role", "member");
        return event.toString();
    }

    /** What the worker gets as {@code SEATS_BASE_URL}: scheme, host, port and base path, no trailing slash. */
    URI apiBase() {
        return server.apiBaseUri();
    }

    /** Delivers the event until it is acked or rejected, at most {@link #MAX_DELIVERIES} times. */
    List<Delivery> deliver() {
        return deliver(MAX_DELIVERIES);
    }

    /**
     * Delivers the event until it is acked or rejected, at most {@code max} times, waiting {@link #REDELIVERY_DELAYS}
     * between a nack and the next delivery. A delivery killed at the timeout is not redelivered: the liveness gate
     * has failed the worker already, and the next delivery would meet the same fault plan.
     */
    List<Delivery> deliver(int max) {
        return chain(max, false, () -> { });
    }

    /**
     * Delivers the event, runs {@code between}, then delivers it again whatever the first delivery said (a nack, or
     * an ack or reject that a bus lost on its way: at-least-once delivery redelivers either way), until it is acked
     * or rejected, at most {@link #MAX_DELIVERIES} deliveries in all.
     */
    List<Delivery> deliverThenRedeliver(Runnable between) {
        return chain(MAX_DELIVERIES, true, between);
    }

    private List<Delivery> chain(int max, boolean alwaysRedeliverFirst, Runnable afterFirst) {
        List<Delivery> mine = new ArrayList<>();
        try {
            for (int i = 0; i < max; i++) {
                if (i > 0) {
                    pause(REDELIVERY_DELAYS.get(Math.min(i, REDELIVERY_DELAYS.size()) - 1));
                }
                Delivery delivery = worker.deliver(eventLine(), apiBase());
                if (probeFirstDelivery.getAndSet(false)) {
                    stopIfNeverReached(delivery);
                }
                mine.add(delivery);
                if (i == 0) {
                    afterFirst.run();
                }
                boolean again = i == 0 && alwaysRedeliverFirst || delivery.nacked() && !delivery.timedOut();
                if (!again) {
                    break;
                }
            }
        } finally {
            chains.add(List.copyOf(mine));
        }
        settle();
        return mine;
    }

    private void pause(Duration duration) {
        try {
            pauser.pause(duration);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while the bus waited to redeliver", e);
        }
    }

    /**
     * Throws {@link WorkerUnreachableException} when {@code delivery} exited non-zero on its own and no request
     * that arrived while it ran is in the journal, nor any seat in the ledger. A request whose answer a fault holds
     * enters the journal late, so this waits for one as long as the catalogue's longest hold; only a worker that is
     * failing anyway pays that wait.
     */
    private void stopIfNeverReached(Delivery delivery) {
        if (delivery.timedOut() || delivery.exit() == Delivery.ACK) {
            return;
        }
        Duration limit = Duration.ofMillis(Catalogue.TWIN_HOLD_MS).plus(SETTLE_LIMIT);
        long deadline = System.nanoTime() + limit.toNanos();
        while (!reachedDuring(delivery)) {
            if (System.nanoTime() >= deadline) {
                throw new WorkerUnreachableException("the worker never reached the server in its first delivery"
                        + " (exit " + delivery.exit() + "); first line of its stderr: " + stderrHead(delivery));
            }
            if (!nap()) {
                return;
            }
        }
    }

    private boolean reachedDuring(Delivery delivery) {
        return seats() > 0 || server.journal().stream().anyMatch(e -> delivery.covers(e.at()));
    }

    /** The first stderr line, redacted, trimmed, cut to 200 characters. */
    private String stderrHead(Delivery delivery) {
        String line = redact(delivery.stderrHead()).replaceAll("\\p{Cntrl}", "?").trim();
        if (line.isEmpty()) {
            return "(none)";
        }
        return line.length() > 200 ? line.substring(0, 200) + "..." : line;
    }

    /** {@code text} with the base URL, its host and port, and its path shown as {@code [SEATS_BASE_URL]}. */
    String redact(String text) {
        return redaction.apply(text);
    }

    /**
     * Delivers the event twice at the same moment, as a bus does when a consumer's ack is slow, then redelivers
     * whichever twin was nacked. Returns each twin's chain of deliveries.
     */
    List<List<Delivery>> twins() {
        // Two threads of our own: the common pool may have a single thread on a small machine, which would
        // deliver the twins one after the other.
        ExecutorService both = Executors.newFixedThreadPool(2);
        try {
            CompletableFuture<List<Delivery>> first = CompletableFuture.supplyAsync(this::deliver, both);
            CompletableFuture<List<Delivery>> second = CompletableFuture.supplyAsync(this::deliver, both);
            List<List<Delivery>> pair = List.of(first.join(), second.join());
            if (!posts().isEmpty()) {
                // A twin that gave up on its held POST may be gone before the hold ends; that POST still commits.
                awaitEntry(e -> "delay".equals(e.fault()), Duration.ofMillis(Catalogue.TWIN_HOLD_MS).plus(SETTLE_LIMIT));
            }
            settle();
            return pair;
        } catch (CompletionException e) {
            if (e.getCause() instanceof RuntimeException cause) {
                throw cause;
            }
            throw e;
        } finally {
            both.shutdownNow();
        }
    }

    /**
     * Waits, briefly and bounded, until every committed seat has its journal entry. A request enters the journal
     * when its outcome is known, and an after-commit fault can still be on its timer when a worker that gave up
     * on it has already exited; the verdict must not be read before that entry lands.
     */
    private void settle() {
        long deadline = System.nanoTime() + SETTLE_LIMIT.toNanos();
        while (System.nanoTime() < deadline) {
            long journaled = server.journal().stream().filter(JournalEntry::committed).count();
            if (journaled >= server.ledger().seats() || !nap()) {
                return;
            }
        }
    }

    private void awaitEntry(Predicate<JournalEntry> wanted, Duration limit) {
        long deadline = System.nanoTime() + limit.toNanos();
        while (System.nanoTime() < deadline && server.journal().stream().noneMatch(wanted)) {
            if (!nap()) {
                return;
            }
        }
    }

    /** A short wait while polling the journal; false when interrupted. */
    private static boolean nap() {
        try {
            Thread.sleep(20);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** The worker's POSTs to the seat API under its base path, in arrival order (by their first byte). */
    List<JournalEntry> posts() {
        return calls().stream().filter(e -> e.method().equals("POST")).toList();
    }

    /** The worker's POSTs and lookups on {@code /v1/seats} under its base path, in arrival order. */
    private List<JournalEntry> calls() {
        return server.journal().stream()
                .filter(e -> e.path().equals(SEATS) && !outsideBasePath(e))
                // Arrival order; pipelined requests read together share a first-byte time, and seq breaks the tie.
                .sorted(Comparator.comparing(JournalEntry::at).thenComparingLong(JournalEntry::seq))
                .toList();
    }

    /** The worker's POSTs that arrived while {@code delivery} ran. */
    List<JournalEntry> postsDuring(Delivery delivery) {
        return posts().stream().filter(e -> delivery.covers(e.at())).toList();
    }

    /**
     * Whether the worker listed the seats ({@code GET /v1/seats}) after {@code after}, as a "check first" worker
     * does after a lost answer.
     */
    boolean lookedUpSeatsAfter(Instant after) {
        return calls().stream().anyMatch(e -> e.method().equals("GET") && e.at().isAfter(after));
    }

    /** Requests that missed the base path (the server journals them with their own path and a 404). */
    long requestsOutsideBasePath() {
        return server.journal().stream().filter(this::outsideBasePath).count();
    }

    private boolean outsideBasePath(JournalEntry e) {
        // No seat-API answer is a 404 without a fault except a path outside the base path.
        return !server.config().basePath().isEmpty() && e.fault() == null && Objects.equals(e.status(), 404);
    }

    /** Seats the ledger holds: the event's user's, since nothing else writes one. */
    long seats() {
        return server.ledger().seats();
    }

    /** Users with more than one seat. */
    int duplicates() {
        return server.ledger().duplicates().size();
    }

    /** Whether every POST carried the event's requestId as its Idempotency-Key. */
    boolean keyedByRequestId(List<JournalEntry> posts) {
        return posts.stream().allMatch(e -> requestId.equals(e.idempotencyKey()));
    }

    /** Every delivery this trial made, in the order they started. */
    List<Delivery> deliveries() {
        return chains.stream().flatMap(List::stream).sorted(Comparator.comparing(Delivery::start)).toList();
    }

    /** How many lines of {@code delivery}'s log mention the requestId. */
    long linesNamingRequestId(Delivery delivery) {
        return delivery.log().stream().filter(line -> line.contains(requestId)).count();
    }

    /**
     * Why this trial's own server was the slow party: an answer that took longer than {@link #SLOW_ANSWER} from its
     * first byte to written, beyond what its fault asked for (a clean answer: nothing; a {@code 429}: nothing; the
     * gateway's {@code 504}: its 1 s). Empty when none did.
     */
    Optional<String> slowAnswer() {
        return server.journal().stream()
                .filter(e -> e.answeredMs() != null && overrunMs(e) > SLOW_ANSWER.toMillis())
                .max(Comparator.comparingLong(this::overrunMs))
                .map(e -> "a" + (e.fault() == null ? " clean " : "n ") + Evidence.answer(e) + " took "
                        + Evidence.seconds(Duration.ofMillis(overrunMs(e))) + " from its first byte to written"
                        + (e.fault() == null ? "" : ", beyond its fault's own delay"));
    }

    /** How much longer than its fault's own delay (none without a fault) an answer took to be written. */
    private long overrunMs(JournalEntry e) {
        long intended = e.fault() == null ? 0 : server.faultPlan().rules().stream()
                .filter(rule -> rule.fault().wireName().equals(e.fault()) && rule.delayMs() != null)
                .mapToLong(FaultRule::delayMs).max().orElse(0);
        return e.answeredMs() - intended;
    }

    /**
     * Why a delivery never ended, for the liveness gate: the first delivery killed at the timeout, what it had sent
     * and what it was waiting for; empty when every delivery ended on its own.
     */
    Optional<String> neverEnded() {
        List<Delivery> all = deliveries();
        for (int i = 0; i < all.size(); i++) {
            Delivery d = all.get(i);
            if (!d.timedOut()) {
                continue;
            }
            List<JournalEntry> sent = postsDuring(d);
            String what;
            if (sent.isEmpty()) {
                what = "without a single request";
            } else {
                JournalEntry lastPost = sent.get(sent.size() - 1);
                what = "after " + sent.size() + (sent.size() == 1 ? " POST" : " POSTs") + ", the last ("
                        + Evidence.answer(lastPost) + ") " + Evidence.seconds(Duration.between(lastPost.at(), d.end()))
                        + " before the kill";
            }
            return Optional.of("delivery " + (i + 1) + " never ended: killed at the " + worker.timeout().toSeconds()
                    + " s delivery timeout " + what);
        }
        return Optional.empty();
    }

    /**
     * The facts behind every verdict, in one line: each delivery with the requests that arrived while it ran (in
     * arrival order) and how it ended, the bus's redeliveries apart from the worker's own resends, the keys and the
     * seats.
     */
    String facts() {
        List<JournalEntry> calls = calls();
        List<String> parts = new ArrayList<>();
        if (chains.size() == 2) {
            parts.add("twins at once; requests in arrival order: " + (calls.isEmpty() ? "none" : Evidence.answers(calls)));
            parts.add("twin A: " + chainVerdicts(chains.get(0)));
            parts.add("twin B: " + chainVerdicts(chains.get(1)));
        } else {
            List<Delivery> all = deliveries();
            for (int i = 0; i < all.size(); i++) {
                Delivery d = all.get(i);
                List<JournalEntry> during = calls.stream().filter(e -> d.covers(e.at())).toList();
                String label = i == 0 ? "delivery 1" : "redelivered " + Evidence.seconds(
                        Duration.between(all.get(i - 1).end(), d.start())) + " later";
                parts.add(label + ": " + (during.isEmpty() ? "no request" : Evidence.answers(during)) + " -> "
                        + d.verdict());
            }
            List<JournalEntry> outside = calls.stream().filter(e -> all.stream().noneMatch(d -> d.covers(e.at())))
                    .toList();
            if (!outside.isEmpty()) {
                parts.add("outside any delivery: " + Evidence.answers(outside));
            }
        }
        List<JournalEntry> posts = posts();
        parts.add("keys: " + Evidence.keys(posts, requestId));
        parts.add("seats: " + seats());
        return String.join(" | ", parts);
    }

    private static String chainVerdicts(List<Delivery> chain) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < chain.size(); i++) {
            String verdict = chain.get(i).verdict();
            out.add(i == 0 ? verdict : "redelivered " + Evidence.seconds(
                    Duration.between(chain.get(i - 1).end(), chain.get(i).start())) + " later: " + verdict);
        }
        return String.join(", ", out);
    }

    /** Each delivery as the report shows it, in the order they started, output redacted and cut to 8 KiB. */
    List<DeliveryResult> deliveryResults() {
        return deliveries().stream().map(d -> {
            String output = redact(d.output());
            String cut = Redaction.cut(output, DeliveryResult.MAX_OUTPUT_BYTES);
            return new DeliveryResult(d.timedOut() ? null : d.exit(), d.timedOut(), d.took().toMillis(), cut,
                    d.outputCut() || cut.length() < output.length());
        }).toList();
    }

    @Override
    public void close() {
        // A grade that stops early (a worker that never reached the server) interrupts the other checks; their
        // servers must still close whole, not half-way with a warning.
        boolean interrupted = Thread.interrupted();
        try {
            server.close();
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
