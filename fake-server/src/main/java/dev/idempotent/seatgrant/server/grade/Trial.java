package dev.idempotent.seatgrant.server.grade;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.idempotent.seatgrant.server.FakeSeatServer;
import dev.idempotent.seatgrant.server.JournalEntry;
import dev.idempotent.seatgrant.server.ServerConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * One check's world: a fresh in-memory server, one {@code seat.requested} event, and an at-least-once bus that
 * delivers the event to the worker command. Also reads what happened back: the POSTs from the journal, the seats
 * from the ledger, and the deliveries' logs.
 */
final class Trial implements AutoCloseable {

    /** How many times the bus delivers an event that keeps being nacked, the first delivery included. */
    static final int MAX_DELIVERIES = 3;

    /** How long to wait for the journal to catch up with the store: beyond the catalogue's longest fault delay. */
    private static final Duration SETTLE_LIMIT = Duration.ofSeconds(5);

    private static final String SEATS = "/v1/seats";
    private static final ObjectMapper JSON = new ObjectMapper();

    final FakeSeatServer server;
    final String requestId;
    final String workspaceId;
    final String userId;
    private final WorkerCommand worker;
    private final List<Delivery> deliveries = Collections.synchronizedList(new ArrayList<>());
    /** Set while the trial's first delivery is still to be checked for a worker that never reached the server. */
    private final AtomicBoolean probeFirstDelivery;
    private int ownRequests;
    private int ownSeats;

    /**
     * @param probeFirstDelivery whether a first delivery that fails without any request reaching the server stops
     *                           the grading with {@link WorkerUnreachableException}
     */
    Trial(WorkerCommand worker, ServerConfig config, boolean probeFirstDelivery) {
        this.worker = worker;
        this.probeFirstDelivery = new AtomicBoolean(probeFirstDelivery);
        String tag = HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextInt());
        this.requestId = "req_" + tag;
        this.workspaceId = "ws_grade";
        this.userId = "user_" + tag;
        this.server = FakeSeatServer.start(config);
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
        return deliver(MAX_DELIVERIES, nacked -> { });
    }

    /**
     * Delivers the event until it is acked or rejected, at most {@code max} times; {@code afterNack} runs after
     * each nacked delivery, before the next (a check may change the fault plan there).
     */
    List<Delivery> deliver(int max, Consumer<Delivery> afterNack) {
        List<Delivery> mine = new ArrayList<>();
        for (int i = 0; i < max; i++) {
            Delivery delivery = worker.deliver(eventLine(), apiBase());
            if (probeFirstDelivery.getAndSet(false)) {
                stopIfNeverReached(delivery);
            }
            mine.add(delivery);
            deliveries.add(delivery);
            if (!delivery.nacked()) {
                break;
            }
            afterNack.accept(delivery);
        }
        settle();
        return mine;
    }

    /**
     * Throws {@link WorkerUnreachableException} when {@code delivery} exited non-zero on its own and no request
     * that arrived while it ran is in the journal, nor any seat of its in the ledger. A request whose answer a
     * fault holds enters the journal late, so this waits for one as long as the catalogue's longest hold; only a
     * worker that is failing anyway pays that wait.
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
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private boolean reachedDuring(Delivery delivery) {
        return seats() > 0 || server.journal().stream().anyMatch(e -> delivery.covers(e.at()));
    }

    /** The first stderr line, trimmed, cut to 200 characters, with the base URL (and its host and port) redacted. */
    private String stderrHead(Delivery delivery) {
        String line = delivery.stderrHead();
        URI base = apiBase();
        for (String secret : List.of(base.toString(), base.getRawAuthority(), base.getRawPath())) {
            if (secret != null && secret.length() > 1) {
                line = line.replace(secret, "[SEATS_BASE_URL]");
            }
        }
        line = line.replaceAll("\\p{Cntrl}", "?").trim();
        if (line.isEmpty()) {
            return "(none)";
        }
        return line.length() > 200 ? line.substring(0, 200) + "..." : line;
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
            List<List<Delivery>> chains = List.of(first.join(), second.join());
            settle();
            if (!posts().isEmpty()) {
                // A twin that gave up on its held POST may be gone before the hold ends; that POST still commits.
                awaitEntry(e -> "delay".equals(e.fault()), Duration.ofMillis(Catalogue.TWIN_HOLD_MS).plus(SETTLE_LIMIT));
            }
            return chains;
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
            if (journaled >= server.ledger().seats()) {
                return;
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private void awaitEntry(Predicate<JournalEntry> wanted, Duration limit) {
        long deadline = System.nanoTime() + limit.toNanos();
        while (System.nanoTime() < deadline && server.journal().stream().noneMatch(wanted)) {
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /**
     * POSTs the event's payload (or another user's, with {@code otherUser}) with {@code Idempotency-Key:
     * requestId}, as another consumer of the same event would; the worker's POSTs then find the key taken.
     */
    int postAsAnotherConsumer(boolean otherUser) {
        ObjectNode body = JSON.createObjectNode()
                .put("workspaceId", workspaceId)
                .put("userId", otherUser ? userId + "_other" : userId)
                .put("role", "member");
        HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        HttpRequest request = HttpRequest.newBuilder(URI.create(apiBase() + SEATS))
                .timeout(Duration.ofSeconds(30))
                .header("content-type", "application/json")
                .header("idempotency-key", requestId)
                .POST(HttpRequest.BodyPublishers.ofString(body.toString()))
                .build();
        try {
            int status = client.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
            ownRequests++;
            if (status == 201 && otherUser) {
                // Another user's seat is not the event's; the event's own user's seat is, whoever wrote it.
                ownSeats++;
            }
            return status;
        } catch (IOException e) {
            throw new UncheckedIOException("the grader's own POST failed", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /** The worker's POSTs to the seat API under its base path, in arrival order (the grader's own left out). */
    List<JournalEntry> posts() {
        List<JournalEntry> all = server.journal().stream()
                .filter(e -> e.method().equals("POST") && e.path().equals(SEATS) && !outsideBasePath(e))
                // Arrival order; pipelined requests read together share a first-byte time, and seq breaks the tie.
                .sorted(Comparator.comparing(JournalEntry::at).thenComparingLong(JournalEntry::seq))
                .toList();
        return all.subList(Math.min(ownRequests, all.size()), all.size());
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
        return server.journal().stream()
                .anyMatch(e -> e.method().equals("GET") && e.path().equals(SEATS) && e.at().isAfter(after));
    }

    /** Requests that missed the base path (the server journals them with their own path and a 404). */
    long requestsOutsideBasePath() {
        return server.journal().stream().filter(this::outsideBasePath).count();
    }

    private boolean outsideBasePath(JournalEntry e) {
        // No seat-API answer is a 404 without a fault except a path outside the base path.
        return !server.config().basePath().isEmpty() && e.fault() == null && Objects.equals(e.status(), 404);
    }

    /** Seats the event's user holds (a seat the grader wrote for another user left out). */
    long seats() {
        return server.ledger().seats() - ownSeats;
    }

    /** Users with more than one seat. */
    int duplicates() {
        return server.ledger().duplicates().size();
    }

    /** Whether every POST carried the event's requestId as its Idempotency-Key. */
    boolean keyedByRequestId(List<JournalEntry> posts) {
        return posts.stream().allMatch(e -> requestId.equals(e.idempotencyKey()));
    }

    /** Every delivery this trial made, in the order they ended. */
    List<Delivery> deliveries() {
        synchronized (deliveries) {
            return List.copyOf(deliveries);
        }
    }

    /** How many lines of {@code delivery}'s log mention the requestId. */
    long linesNamingRequestId(Delivery delivery) {
        return delivery.log().stream().filter(line -> line.contains(requestId)).count();
    }

    /** The facts behind every verdict: deliveries, POSTs, keys and seats, in one line. */
    String facts() {
        List<JournalEntry> posts = posts();
        return "deliveries: " + Evidence.deliveries(deliveries())
                + " | POSTs: " + (posts.isEmpty() ? "none" : Evidence.answers(posts))
                + " | keys: " + Evidence.keys(posts, requestId)
                + " | seats: " + seats();
    }

    @Override
    public void close() {
        server.close();
    }
}
