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
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One check's world: a fresh in-memory server, one {@code seat.requested} event, and an at-least-once bus that
 * delivers the event to the worker command. Also reads what happened back: the requests from the journal in
 * arrival order, the seats from the ledger, and the deliveries' output.
 */
final class Trial implements AutoCloseable {

    /** How many times the bus delivers an event that keeps being nacked, the first delivery included. */
    static final int MAX_DELIVERIES = 3;

    /**
     * How long the bus waits after a nack before it redelivers: 2 s, then 4 s, as brokers back off. A twin that
     * nacks an in-progress 409 has ended the twins' hold with that very request, so its redelivery finds the seat.
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
    /** How much longer than the usual delivery timeout this trial's deliveries may run: its check's longest hold. */
    private final Duration extraBudget;
    /** How long one delivery may run before it is killed. */
    private final Duration budget;
    private final Pauser pauser;
    private final Redaction redaction;
    /** Each chain of deliveries the bus made (one; two for twins), each in the order its deliveries ran. */
    private final List<List<Delivery>> chains = new CopyOnWriteArrayList<>();
    /** The most deliveries each chain of {@link #chains} could have had, in the same order. */
    private final List<Integer> bounds = new CopyOnWriteArrayList<>();
    /** Set while the trial's first delivery is still to be checked for a worker that never reached the server. */
    private final AtomicBoolean probeFirstDelivery;
    /** The names the event speaks: the packet's, or a handout's ({@code grade --handout}). */
    private volatile HandoutNames names = HandoutNames.none();
    /** Deliveries of this trial that have ended (counted as they end, before their chain is done). */
    private final AtomicInteger ended = new AtomicInteger();
    /** How the twins' hold ended; null when no POST was held, or while it is. */
    private volatile HoldEnd holdEnd;
    /** When the twins' hold ended; null when no POST was held, or while it is. */
    private volatile Instant holdEndedAt;

    /**
     * @param probeFirstDelivery whether a first delivery that fails without any request reaching the server stops
     *                           the grading with {@link WorkerUnreachableException}
     */
    Trial(WorkerCommand worker, ServerConfig config, boolean probeFirstDelivery, Pauser pauser) {
        this(worker, config, probeFirstDelivery, pauser, Duration.ZERO);
    }

    /**
     * @param extraBudget how much longer than the usual delivery timeout each delivery of this trial may run (a
     *                    check that holds an answer for long gives that much more)
     */
    Trial(WorkerCommand worker, ServerConfig config, boolean probeFirstDelivery, Pauser pauser, Duration extraBudget) {
        this.worker = worker;
        this.pauser = pauser;
        this.probeFirstDelivery = new AtomicBoolean(probeFirstDelivery);
        // Drawn per trial in the shapes real ids have, so nothing in the event tells a worker it is being graded.
        this.requestId = UUID.randomUUID().toString();
        this.workspaceId = "ws_" + base62(16);
        this.userId = "usr_" + base62(16);
        this.extraBudget = extraBudget;
        this.budget = worker.timeout().plus(extraBudget);
        this.server = FakeSeatServer.start(config);
        this.redaction = new Redaction(server.apiBaseUri());
    }

    /** Puts the events of this trial in a handout's names. */
    void speak(HandoutNames handout) {
        this.names = handout;
    }

    /** The event as the bus puts it on the worker's stdin: one JSON line, in the packet's or the handout's names. */
    String eventLine() {
        ObjectNode event = JSON.createObjectNode()
                .put(names.name("requestId"), requestId)
                .put(names.name("workspaceId"), workspaceId)
                .put(names.name("userId"), userId)
                .put(names.name("role"), names.name("member"));
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
                Delivery delivery = worker.deliver(eventLine(), apiBase(), budget);
                ended.incrementAndGet();
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
            synchronized (chains) {
                chains.add(List.copyOf(mine));
                bounds.add(max);
            }
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
     * that arrived while it ran is in the journal, nor any seat in the ledger. A POST a delay fault holds counts as
     * soon as it is held; one whose answer an after-commit fault holds enters the journal late, so this waits for
     * one as long as the check's longest hold; only a worker that is failing anyway pays that wait.
     */
    private void stopIfNeverReached(Delivery delivery) {
        if (delivery.timedOut() || delivery.exit() == Delivery.ACK) {
            return;
        }
        long deadline = System.nanoTime() + extraBudget.plus(SETTLE_LIMIT).toNanos();
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
        // A POST a delay fault holds has reached the server, though the journal has yet to hear of it.
        return seats() > 0 || server.heldSince().isPresent()
                || server.journal().stream().anyMatch(e -> delivery.covers(e.at()));
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
     * whichever twin was nacked. The first POST is held ({@link Catalogue#TWIN_HOLD}) until the other twin's next
     * request has been answered, or a delivery ends, or the hold's bound runs out: the twins overlap by the
     * grader's watching, not by a machine fast enough to start both inside a fixed hold. Returns each twin's chain.
     */
    List<List<Delivery>> twins() {
        // Two threads of our own: the common pool may have a single thread on a small machine, which would
        // deliver the twins one after the other.
        ExecutorService both = Executors.newFixedThreadPool(2);
        try {
            CompletableFuture<List<Delivery>> first = CompletableFuture.supplyAsync(this::deliver, both);
            CompletableFuture<List<Delivery>> second = CompletableFuture.supplyAsync(this::deliver, both);
            holdForTheOtherTwin(CompletableFuture.allOf(first, second));
            List<List<Delivery>> pair = List.of(first.join(), second.join());
            // Nobody is left to wait for: a POST still held goes on to its commit now.
            server.releaseHolds();
            if (!posts().isEmpty()) {
                // A twin that gave up on its held POST may be gone before the hold ends; that POST still commits.
                awaitEntry(e -> "delay".equals(e.fault()), SETTLE_LIMIT);
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

    /** How the twins' hold ended: by a request, a delivery's end, its bound; null while none has ended. */
    enum HoldEnd {
        REQUEST("a request after the held POST was answered"),
        DELIVERY_END("a delivery ended"),
        BOUND("its bound ran out");

        final String words;

        HoldEnd(String words) {
            this.words = words;
        }
    }

    /**
     * Watches the server while the twins run: once a POST is held, it ends the hold when a request whose first
     * byte came after the hold began has been answered (the other twin's, or the held twin's own after it gave up),
     * or when a delivery ends; the server ends it itself at the fault's bound. Returns when {@code twins} are done.
     */
    private void holdForTheOtherTwin(CompletableFuture<?> twins) {
        Instant seen = null;
        while (!twins.isDone()) {
            if (holdEnd == null) {
                Optional<Instant> since = server.heldSince();
                if (since.isPresent()) {
                    Instant began = since.get();
                    seen = began;
                    HoldEnd end = server.journal(0).stream().anyMatch(e -> e.at().isAfter(began)) ? HoldEnd.REQUEST
                            : ended.get() > 0 ? HoldEnd.DELIVERY_END : null;
                    if (end != null) {
                        holdEndedAt = Instant.now();
                        holdEnd = end;
                        server.releaseHolds();
                    }
                } else if (seen != null) {
                    holdEndedAt = Instant.now();
                    holdEnd = HoldEnd.BOUND;
                }
            }
            if (!nap()) {
                return;
            }
        }
    }

    /**
     * Why the twins' race was not run, when it was not: the hold ended by a delivery's end or its bound, and only
     * then did another request come (the other twin came late). Empty when a request ended the hold, and when no
     * request came after it at all (a twin that never came is the worker's doing).
     */
    Optional<String> lateTwin() {
        HoldEnd end = holdEnd;
        Instant at = holdEndedAt;
        if (end == null || end == HoldEnd.REQUEST
                || server.journal().stream().noneMatch(e -> e.at().isAfter(at) && e.path().equals(SEATS))) {
            return Optional.empty();
        }
        return Optional.of("the other twin came late: the first POST's hold ended because " + end.words
                + ", and only then did another request come");
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

    /**
     * The worker's POSTs and lookups on {@code /v1/seats} under its base path that arrived while one of this trial's
     * deliveries ran, in arrival order. A request from outside every delivery counts for nothing here; the liveness
     * gate names it ({@link #strays()}).
     */
    private List<JournalEntry> calls() {
        List<Delivery> all = deliveries();
        return server.journal().stream()
                .filter(e -> e.path().equals(SEATS) && !outsideBasePath(e))
                .filter(e -> all.stream().anyMatch(d -> d.covers(e.at())))
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

    /** Whether the worker listed the seats before {@code post}, within the delivery that sent it. */
    boolean lookedUpBefore(JournalEntry post) {
        Optional<Delivery> sender = deliveries().stream().filter(d -> d.covers(post.at())).findFirst();
        return sender.isPresent() && calls().stream().anyMatch(e -> e.method().equals("GET")
                && e.at().isBefore(post.at()) && sender.get().covers(e.at()));
    }

    /** When the worker first listed the seats after {@code after}; empty if it never did. */
    Optional<Instant> firstLookupAfter(Instant after) {
        return calls().stream().filter(e -> e.method().equals("GET") && e.at().isAfter(after)).map(JournalEntry::at)
                .findFirst();
    }

    /**
     * Whether the worker listed the seats after {@code after} and before {@code before}: a lookup ahead of a resend.
     */
    boolean lookedUpSeatsBetween(Instant after, Instant before) {
        return calls().stream().anyMatch(e -> e.method().equals("GET") && e.at().isAfter(after)
                && e.at().isBefore(before));
    }

    /**
     * Every request that reached this trial's server while none of its deliveries ran (the trial's server stays up
     * until the whole grade ends, so a process that outlived its delivery is seen), as evidence; empty when none.
     */
    Optional<String> strays() {
        List<Delivery> all = deliveries();
        if (all.isEmpty()) {
            return Optional.empty();
        }
        List<JournalEntry> outside = server.journal().stream()
                .filter(e -> all.stream().noneMatch(d -> d.covers(e.at())))
                .sorted(Comparator.comparing(JournalEntry::at).thenComparingLong(JournalEntry::seq))
                .toList();
        if (outside.isEmpty()) {
            return Optional.empty();
        }
        Instant lastEnd = all.stream().map(Delivery::end).max(Comparator.naturalOrder()).orElseThrow();
        JournalEntry first = outside.get(0);
        String when = first.at().isAfter(lastEnd) ? Evidence.seconds(Duration.between(lastEnd, first.at()))
                + " after the last delivery ended" : "between two deliveries";
        return Optional.of(outside.size() + (outside.size() == 1 ? " request" : " requests") + " while no delivery"
                + " ran, the first " + request(first) + " " + when + "; a worker must not outlive its delivery");
    }

    /**
     * Every request that was not the seat API's ({@code /v1/seats} and {@code /v1/seats/ID}), such as the admin
     * API a {@code fake-server serve} has (grade's servers answer it 404), as evidence; empty when none.
     */
    Optional<String> offApi() {
        List<JournalEntry> off = server.journal().stream()
                .filter(e -> !e.path().equals(SEATS) && !e.path().startsWith(SEATS + "/"))
                .sorted(Comparator.comparing(JournalEntry::at).thenComparingLong(JournalEntry::seq))
                .toList();
        if (off.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(off.size() + (off.size() == 1 ? " request" : " requests") + " beside the seat API, the first "
                + request(off.get(0)) + "; a worker touches /v1/seats and nothing else");
    }

    /** A request as the gates name it: method, path (redacted, cut) and what it got. */
    private String request(JournalEntry e) {
        String path = Evidence.line(redact(e.path()));
        return e.method() + " " + (path.length() > 60 ? path.substring(0, 60) + "..." : path) + " ("
                + (e.status() == null ? "no answer" : e.status()) + ")";
    }

    /**
     * Why the event's end and its seat disagree, for the outcome gate: acked with no seat, or a seat written for
     * an event the bus was told to give up on (rejected, or nacked to the bound). Empty when they agree, and when
     * the event had not reached an end (a delivery killed at the timeout is the liveness gate's).
     */
    Optional<String> lostWork() {
        List<List<Delivery>> ended;
        List<Integer> bound;
        synchronized (chains) {
            ended = List.copyOf(chains);
            bound = List.copyOf(bounds);
        }
        if (ended.isEmpty() || ended.stream().anyMatch(List::isEmpty)) {
            return Optional.empty();
        }
        boolean acked = ended.stream().anyMatch(c -> c.get(c.size() - 1).acked());
        long seats = seats();
        String how = Evidence.deliveries(deliveries());
        if (acked && seats == 0) {
            return Optional.of("the event (requestId " + requestId + ") was acked, but no seat exists: the grant is"
                    + " lost (" + how + "; POSTs: " + (posts().isEmpty() ? "none" : Evidence.answers(posts())) + ")");
        }
        boolean givenUp = true;
        for (int i = 0; i < ended.size(); i++) {
            Delivery last = ended.get(i).get(ended.get(i).size() - 1);
            givenUp &= last.rejected() || last.nacked() && !last.timedOut() && ended.get(i).size() >= bound.get(i);
        }
        if (!acked && givenUp && seats > 0) {
            return Optional.of("the event (requestId " + requestId + ") was never acked, but its seat exists: the"
                    + " bus gave up on work that was done (" + how + ")");
        }
        return Optional.empty();
    }

    /**
     * The first log line of this trial's deliveries that names its base URL, its host and port, or its base path's
     * token, and what it names; empty when none does.
     */
    Optional<String> urlInLogs() {
        URI base = apiBase();
        String full = base.toString();
        String hostPort = base.getHost() + ":" + base.getPort();
        String path = base.getRawPath();
        String token = path.substring(path.lastIndexOf('/') + 1);
        List<String> needles = List.of(full, hostPort, "localhost:" + base.getPort(), token);
        for (Delivery d : deliveries()) {
            for (String line : d.log()) {
                for (String needle : needles) {
                    if (!needle.isEmpty() && line.contains(needle)) {
                        String what = needle.equals(token) ? "the base path's token" : needle.equals(full)
                                ? "the base URL" : "the host and port";
                        return Optional.of("a log line names " + what + ": " + Evidence.line(redact(line)));
                    }
                }
            }
        }
        return Optional.empty();
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

    /**
     * Words that say which attempt a line is about or how it came out, in JSON, key=value or prose; a status or an
     * exit code counts as an outcome.
     */
    private static final Pattern ATTEMPT_OR_OUTCOME = Pattern.compile("(?i)attempt|tr(y|ies|ied)|retr|outcome|status"
            + "|result|grant|replay|creat|succe|fail|error|exhaust|gave up|giving up|give up|reject|ack|done|dead"
            + "|timeout|timed out|reset|closed|\\b[1-5][0-9][0-9]\\b");
    private static final Pattern KEY_FIELD = Pattern.compile(
            "(?i)idempotency[-_ ]?key\"?\\s*[:=]\\s*\"?([^\"',}\\]\\s]+)");
    private static final Pattern STATUS_FIELD = Pattern.compile(
            "(?i)\\bstatus(?:[-_ ]?code)?\"?\\s*[:=]\\s*\"?([0-9]{3})\\b");
    private static final Pattern REPLAY_CLAIM = Pattern.compile(
            "(?i)replay(?:ed)?\"?\\s*[:=]\\s*\"?true|outcome\"?\\s*[:=]\\s*\"?replay");

    /**
     * How many lines of {@code delivery}'s log count for observability: each names the requestId together with the
     * attempt or the outcome. A line that only names the requestId (a "processing ..." line) does not.
     */
    long linesNamingRequestId(Delivery delivery) {
        return delivery.log().stream()
                .filter(line -> line.contains(requestId) && ATTEMPT_OR_OUTCOME.matcher(line.replace(requestId, ""))
                        .find())
                .count();
    }

    /**
     * The first log line of this trial's deliveries that the journal contradicts, and how: it names an
     * Idempotency-Key no request carried, a status no request was answered, or a replay when the server replayed
     * nothing. Empty when every line agrees (a line that names no key, status or replay agrees by saying nothing).
     */
    Optional<String> contradiction() {
        List<JournalEntry> journal = server.journal();
        Set<String> keys = new java.util.HashSet<>();
        Set<String> statuses = new java.util.HashSet<>();
        boolean replayed = false;
        for (JournalEntry e : journal) {
            if (e.idempotencyKey() != null) {
                keys.add(e.idempotencyKey());
            }
            if (e.status() != null) {
                statuses.add(String.valueOf(e.status()));
            }
            replayed |= e.method().equals("POST") && e.seatId() != null && !e.committed() && e.status() != null;
        }
        for (Delivery d : deliveries()) {
            for (String line : d.log()) {
                Matcher key = KEY_FIELD.matcher(line);
                while (key.find()) {
                    String named = key.group(1);
                    if (!keys.contains(named) && !named.equalsIgnoreCase("null") && !named.equalsIgnoreCase("none")) {
                        return Optional.of("names an Idempotency-Key no request carried ("
                                + Evidence.key(named, requestId) + "): " + Evidence.line(redact(line)));
                    }
                }
                Matcher status = STATUS_FIELD.matcher(line);
                while (status.find()) {
                    if (!statuses.contains(status.group(1))) {
                        return Optional.of("names a status " + status.group(1) + " no request was answered: "
                                + Evidence.line(redact(line)));
                    }
                }
                if (!replayed && REPLAY_CLAIM.matcher(line).find()) {
                    return Optional.of("names a replay, and the server replayed nothing: "
                            + Evidence.line(redact(line)));
                }
            }
        }
        return Optional.empty();
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
            return Optional.of("delivery " + (i + 1) + " never ended: killed at the " + budget.toSeconds()
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
            // calls() leaves these out; the facts still show them, as the liveness gate names them.
            List<JournalEntry> outside = server.journal().stream()
                    .filter(e -> e.path().equals(SEATS) && all.stream().noneMatch(d -> d.covers(e.at())))
                    .sorted(Comparator.comparing(JournalEntry::at).thenComparingLong(JournalEntry::seq))
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

    private static String base62(int length) {
        String digits = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
        StringBuilder out = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            out.append(digits.charAt(ThreadLocalRandom.current().nextInt(digits.length())));
        }
        return out.toString();
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
