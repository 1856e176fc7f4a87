package dev.idempotent.seatgrant.server.grade;

import static dev.idempotent.seatgrant.server.grade.Check.Judgement.certainly;
import static dev.idempotent.seatgrant.server.grade.Check.Judgement.fail;
import static dev.idempotent.seatgrant.server.grade.Check.Judgement.pass;

import dev.idempotent.seatgrant.server.Fault;
import dev.idempotent.seatgrant.server.FaultPlan;
import dev.idempotent.seatgrant.server.FaultRule;
import dev.idempotent.seatgrant.server.JournalEntry;
import dev.idempotent.seatgrant.server.ReplayStatus;
import dev.idempotent.seatgrant.server.grade.Check.Judgement;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The fixed catalogue of checks. Each check's server, fault plan and judgement live here, side by side, so a
 * reader sees what a check does and what it accepts in one place.
 *
 * <p>Each check judges the one property its id names, and counts towards one signal, read as the seed rubric's
 * column words it: <b>Timeout semantics</b> is acting on "a dropped response can follow a durable write" (a resend
 * made safe by the key, or a lookup, after a lost answer; a keyless resend is the opposite); <b>Idempotency</b> is
 * the key on every POST and one seat (a duplicate seat is Idempotency's alone, whichever check it happened in);
 * <b>Error classes</b> is the replay read as success, 429/503 retried, 400/422 not; <b>Observability</b> reads the
 * log. Whether the event's end agrees with its seat is the outcome gate's, not a check's. No check writes a seat
 * of its own: every fault is on the worker's own POSTs, so a worker whose stable key is not the requestId is judged
 * on the same footing.
 *
 * <p>The catalogue's own waits are short (a 1 s gateway, a 2 s Retry-After; the twins' hold
 * ends when the other twin's request comes), so a correct worker is
 * never kept waiting long; the one long wait is the 30 s hold of {@code committed-then-held-open}, far from any
 * usual request timeout, so "timed out on its own" never sits on a boundary. The worker's own backoff is its
 * business.
 */
final class Catalogue {

    /** The gateway's wait before its 504: long enough to look like a gateway, short enough to keep grades fast. */
    static final long GATEWAY_DELAY_MS = 1_000;
    /**
     * How long the server holds a committed POST open: three times the usual 10 s request timeout, so a worker that
     * has one is never judged on the boundary between its timeout and the hold.
     */
    static final Duration HOLD = Duration.ofSeconds(30);
    /**
     * The most the first twin's POST is held before its commit: the hold ends as soon as a request that came after
     * it has been answered or a delivery ends ({@link Trial#twins()}), so both twins are in flight together however
     * slow the machine; this bound only stops a twin that never comes from stalling the grade.
     */
    static final Duration TWIN_HOLD = Duration.ofSeconds(30);
    /** The Retry-After the rate-limit check sends, in seconds. */
    static final int RETRY_AFTER_SECONDS = 2;

    private static final String SEATS = "/v1/seats";
    // A retry that honoured Retry-After cannot be early by more than clock granularity (and Node's timers, which
    // may fire a millisecond early).
    private static final Duration RETRY_AFTER_SLACK = Duration.ofMillis(50);

    private static final List<Check> CHECKS = build(HOLD, TWIN_HOLD);

    private Catalogue() {
    }

    /** Every check, in the order reports list them. */
    static List<Check> checks() {
        return CHECKS;
    }

    /**
     * The catalogue with {@code committed-then-held-open} holding for {@code hold} instead of {@link #HOLD}: for
     * tests, which need not wait 30 s where a shorter hold tells the same.
     */
    static List<Check> checks(Duration hold) {
        return checks(hold, TWIN_HOLD);
    }

    /** As {@link #checks(Duration)}, with the twins' hold bounded by {@code twinHold} instead of {@link #TWIN_HOLD}. */
    static List<Check> checks(Duration hold, Duration twinHold) {
        return hold.equals(HOLD) && twinHold.equals(TWIN_HOLD) ? CHECKS : build(hold, twinHold);
    }

    private static List<Check> build(Duration hold, Duration twinHold) {
        return List.of(
            // Timeout semantics: an answer lost after the commit is "maybe done", never "failed".
            new Check("seed-2-reset-then-replay", Signal.TIMEOUT,
                    "the first POST is committed, then reset; the worker resends with the same key (or looks the"
                            + " seat up first), never acks the lost answer blind",
                    b -> b.faultPlan(plan(first(Fault.RESET_AFTER_COMMIT))),
                    t -> actedOnCommit(t, "the reset", Duration.ZERO)),
            new Check("committed-then-504", Signal.TIMEOUT,
                    "the first POST is committed, then a gateway answers 504 after 1 s; the worker resends with the"
                            + " same key (or looks the seat up)",
                    b -> b.faultPlan(plan(first(Fault.STATUS_AFTER_COMMIT).withStatus(504)
                            .withDelayMs(GATEWAY_DELAY_MS))),
                    t -> actedOnCommit(t, "a 504 after the commit", Duration.ofMillis(GATEWAY_DELAY_MS))),
            new Check("committed-then-close", Signal.TIMEOUT,
                    "the first POST is committed, then the connection closes with no answer; the worker resends with"
                            + " the same key (or looks the seat up)",
                    b -> b.faultPlan(plan(first(Fault.CLOSE_AFTER_COMMIT))),
                    t -> actedOnCommit(t, "a connection closed after the commit", Duration.ZERO)),
            new Check("committed-then-408", Signal.TIMEOUT,
                    "the first POST is committed, then answered 408 (OkHttp resends that on its own, key or no key);"
                            + " the worker resends with the same key (or looks the seat up)",
                    b -> b.faultPlan(plan(first(Fault.STATUS_AFTER_COMMIT).withStatus(408))),
                    t -> actedOnCommit(t, "a 408 after the commit", Duration.ZERO)),
            new Check("committed-then-held-open", Signal.TIMEOUT,
                    "the first POST is committed, then held open for " + hold.toSeconds() + " s; the worker must time"
                            + " out on its own before the hold ends and resend with the same key (or look the seat up)",
                    b -> b.faultPlan(plan(first(Fault.HANG_AFTER_COMMIT).withDelayMs(hold.toMillis()))),
                    t -> heldOpen(t, hold), hold),
            // Idempotency: the key on every POST, one seat per requestId, however the event arrives.
            new Check("seed-1-201-once", Signal.IDEMPOTENCY,
                    "a clean 201: one POST carrying Idempotency-Key = requestId, acked",
                    b -> b, Catalogue::createdOnce),
            new Check("twin-deliveries", Signal.IDEMPOTENCY,
                    "the event is delivered twice at once; the first POST is held before its commit until the other"
                            + " twin's request is answered (at most " + twinHold.toSeconds() + " s); one key on every"
                            + " POST, one seat",
                    b -> b.faultPlan(plan(first(Fault.DELAY).withDelayMs(twinHold.toMillis()))), Catalogue::twins),
            new Check("redelivery-after-nack", Signal.IDEMPOTENCY,
                    "the first POST is committed and answered 504, every retry 503, so the worker nacks; the bus"
                            + " redelivers 2 s later (a new process), which must carry the same key: one seat",
                    b -> b.faultPlan(plan(first(Fault.STATUS_AFTER_COMMIT).withStatus(504),
                            FaultRule.of(Fault.STATUS, 503).withMethodAndPath(null, SEATS))),
                    Catalogue::redelivery),
            new Check("replay-original-style", Signal.IDEMPOTENCY,
                    "replays come as 201 + Idempotent-Replayed: true (--replay-status original); after a lost 502"
                            + " the resend (or lookup) finds the first seat: one key on every POST, one seat",
                    b -> b.replayStatus(ReplayStatus.ORIGINAL)
                            .faultPlan(plan(first(Fault.STATUS_AFTER_COMMIT).withStatus(502))),
                    Catalogue::originalStyleReplay),
            // Error classes: replay, retry or give up, each where it belongs.
            new Check("seed-3-400-not-retried", Signal.ERROR_CLASSES,
                    "every POST gets 400: one POST per delivery, no retry, no ack",
                    b -> b.faultPlan(plan(FaultRule.of(Fault.STATUS, 400).withMethodAndPath("POST", SEATS))),
                    t -> notRetried(t, 400)),
            new Check("seed-4-503-then-201", Signal.ERROR_CLASSES,
                    "the first POST gets 503, the retry 201: both in one delivery, acked",
                    b -> b.faultPlan(plan(first(Fault.STATUS).withStatus(503))), Catalogue::unavailableThenCreated),
            new Check("seed-5-exhaustion-is-a-nack", Signal.ERROR_CLASSES,
                    "every POST gets 503: the worker retries, gives up within the delivery, and nacks (exit 1),"
                            + " never a silent ack",
                    b -> b.faultPlan(plan(FaultRule.of(Fault.STATUS, 503).withMethodAndPath("POST", SEATS))),
                    Catalogue::exhaustion),
            new Check("in-progress-409-retried", Signal.ERROR_CLASSES,
                    "the first POST is answered as if another consumer held the key (409 problem, Retry-After: 1);"
                            + " the worker retries (or looks the seat up) within the delivery and acks the replay",
                    b -> b.faultPlan(plan(first(Fault.STATUS_AFTER_COMMIT).withStatus(409).withRetryAfter(1))),
                    Catalogue::inProgress),
            new Check("retry-after-honoured", Signal.ERROR_CLASSES,
                    "the first POST gets 429 with Retry-After: 2; the retry comes at least 2 s later (first byte to"
                            + " first byte, from the journal)",
                    b -> b.faultPlan(plan(first(Fault.STATUS).withStatus(429).withRetryAfter(RETRY_AFTER_SECONDS))),
                    Catalogue::retryAfter),
            new Check("422-not-retried", Signal.ERROR_CLASSES,
                    "every POST gets 422 before the commit (the key was used with another payload): no retry within"
                            + " a delivery, no ack",
                    b -> b.faultPlan(plan(FaultRule.of(Fault.STATUS, 422).withMethodAndPath("POST", SEATS))),
                    t -> notRetried(t, 422)),
            // Observability: the requestId with the attempt or outcome in every attempt's log, true to the journal,
            // and no URL anywhere in it.
            new Check("requestid-in-every-attempt-log", Signal.OBSERVABILITY,
                    "503, then a reset after the commit, then the replay: each delivery's log has a line per POST"
                            + " naming the requestId with the attempt or outcome, and none the journal contradicts",
                    b -> b.faultPlan(plan(first(Fault.STATUS).withStatus(503),
                            FaultRule.of(Fault.RESET_AFTER_COMMIT).withMethodAndPath("POST", SEATS).withAttempt(2)
                                    .withTimes(1))),
                    Catalogue::requestIdLogged),
            new Check("no-url-in-logs", Signal.OBSERVABILITY,
                    "503, then a reset after the commit, then the replay; no log line of any check's deliveries"
                            + " names its host and port, its base URL or its base path's token",
                    b -> b.faultPlan(plan(first(Fault.STATUS).withStatus(503),
                                    FaultRule.of(Fault.RESET_AFTER_COMMIT).withMethodAndPath("POST", SEATS)
                                            .withAttempt(2).withTimes(1))),
                    Catalogue::noUrlLogged));
    }

    // --- Timeout semantics: after a lost answer, did the worker act as if the write may have happened? A resend under
    // the lost POST's key, or a lookup, does; a blind ack does not, and neither does a resend without the key (it
    // ignores the commit). Whether the answer that followed was read as success is Error classes' and the outcome
    // gate's to judge.

    /**
     * @param notBefore how long after the lost POST's first byte its answer was written at the earliest (the
     *                  gateway's delay); a resend sooner than that certainly did not see it
     */
    private static Judgement actedOnCommit(Trial t, String what, Duration notBefore) {
        List<Delivery> ds = t.deliver();
        List<JournalEntry> posts = t.posts();
        if (posts.isEmpty()) {
            return fail("never POSTed (" + Evidence.deliveries(ds) + ")");
        }
        JournalEntry lost = posts.get(0);
        boolean looked = t.lookedUpSeatsAfter(lost.at());
        if (posts.size() == 1 && !looked) {
            if (ds.stream().anyMatch(Delivery::acked)) {
                return fail("acked after " + what + " without resending or looking: a lost answer is not a success");
            }
            return fail("never resent after " + what + " nor looked the seat up (" + Evidence.deliveries(ds) + ")");
        }
        if (posts.size() == 1) {
            // Acking a lost answer blind would lose every grant the server did not commit; looking first is safe.
            return pass("looked the seat up instead of resending after " + what);
        }
        JournalEntry resend = posts.get(1);
        Optional<Judgement> unsafe = unsafeResend(t, lost, resend, what);
        if (unsafe.isPresent()) {
            return unsafe.get();
        }
        String looking = t.lookedUpSeatsBetween(lost.at(), resend.at()) ? "looked the seat up, then " : "";
        if (ds.get(0).covers(resend.at())) {
            String cause = resendCause(lost, resend, what, notBefore);
            return pass((looking.isEmpty() ? cause : looking + cause) + ", and " + (ds.get(0).acked() ? "acked"
                    : "got") + " (" + Evidence.answer(resend) + ")");
        }
        return pass("nacked after " + what + "; the bus redelivered, and the redelivery's POST, under the same key,"
                + " got " + Evidence.answer(resend));
    }

    /**
     * A resend that ignored the commit: without the lost POST's key (none, or a new one), and with no lookup before
     * it. Empty when the resend was safe.
     */
    private static Optional<Judgement> unsafeResend(Trial t, JournalEntry lost, JournalEntry resend, String what) {
        if (lost.idempotencyKey() != null && lost.idempotencyKey().equals(resend.idempotencyKey())
                || t.lookedUpSeatsBetween(lost.at(), resend.at())) {
            return Optional.empty();
        }
        String how = resend.idempotencyKey() == null ? "without an Idempotency-Key"
                : lost.idempotencyKey() == null ? "with a key the lost POST did not carry" : "under a new key";
        return Optional.of(fail("resent after " + what + " " + how + " and without looking first: a resend that"
                + " ignores the commit may write a second seat"));
    }

    /**
     * Why the worker resent within a delivery, true to the journal: after the lost answer, or certainly before it
     * was written (sooner after the first POST's first byte than the fault's own delay: the worker's request
     * timeout fired first, so the fault itself was never seen). A resend in between is taken as one after the
     * answer: when exactly a client read an answer is not in the journal, and a loaded machine blurs it.
     */
    private static String resendCause(JournalEntry lost, JournalEntry resend, String what, Duration notBefore) {
        Duration after = Duration.between(lost.at(), resend.at());
        if (after.compareTo(notBefore) < 0) {
            return "resent within the delivery " + Evidence.seconds(after) + " after the first POST, before " + what
                    + " could reach it (its own request timeout)";
        }
        return "resent within the delivery after " + what;
    }

    private static Judgement heldOpen(Trial t, Duration hold) {
        List<Delivery> ds = t.deliver();
        Delivery d1 = ds.get(0);
        List<JournalEntry> first = t.postsDuring(d1);
        if (first.isEmpty()) {
            return fail("no POST in delivery 1 (" + d1.verdict() + ")");
        }
        JournalEntry held = first.get(0);
        // The worker had stopped waiting by the time it resent, looked, or its delivery ended, whichever came first:
        // each needs the held request given up (a process that exits closes its sockets).
        Instant stopped = first.size() > 1 ? first.get(1).at() : d1.end();
        Instant lookup = t.firstLookupAfter(held.at()).orElse(null);
        if (lookup != null && lookup.isBefore(stopped)) {
            stopped = lookup;
        }
        Duration waited = Duration.between(held.at(), stopped);
        if (d1.timedOut() && first.size() < 2 && lookup == null) {
            return fail("no request timeout: the first POST was still waiting when the delivery was killed after "
                    + Evidence.seconds(d1.took()));
        }
        // The server closes the held connection the whole hold after the commit, which follows the POST's first
        // byte: a worker without a timeout of its own cannot stop waiting sooner, and one that stopped sooner had one.
        if (waited.compareTo(hold) >= 0) {
            return fail("no request timeout: waited " + Evidence.seconds(waited) + " for the held POST, until the"
                    + " server closed it at " + hold.toSeconds() + " s");
        }
        List<JournalEntry> posts = t.posts();
        if (posts.size() < 2 && !t.lookedUpSeatsAfter(held.at())) {
            return fail("timed out after " + Evidence.seconds(waited) + ", but never resent nor looked the seat up ("
                    + Evidence.deliveries(ds) + ")");
        }
        if (posts.size() >= 2) {
            Optional<Judgement> unsafe = unsafeResend(t, held, posts.get(1), "its timeout");
            if (unsafe.isPresent()) {
                return unsafe.get();
            }
        }
        String how = first.size() > 1 ? "resent within the delivery" : posts.size() > 1
                ? "ended the delivery (" + d1.verdict() + ") and the bus redelivered" : "looked the seat up";
        return pass("timed out on its own " + Evidence.seconds(waited) + " after the held POST arrived, before the"
                + " server's " + hold.toSeconds() + " s hold ended; " + how + (last(ds).acked() ? "; acked" : ""));
    }

    // --- Idempotency: the key on every POST, one seat per requestId, and a key another producer of the requestId
    // would share.

    private static Judgement createdOnce(Trial t) {
        List<Delivery> ds = t.deliver();
        List<JournalEntry> posts = t.posts();
        if (posts.isEmpty()) {
            return fail("never POSTed (" + Evidence.deliveries(ds) + ")");
        }
        String key = posts.get(0).idempotencyKey();
        if (key == null) {
            return certainly("the POST carried no Idempotency-Key: nothing stops a resend from writing a second seat");
        }
        if (!t.keyedByRequestId(posts)) {
            return certainly("the Idempotency-Key is " + Evidence.key(key, t.requestId) + ", not the requestId itself:"
                    + " another producer of the same requestId (a second consumer, a replayed event) would not be"
                    + " deduplicated against it");
        }
        if (posts.size() > 1) {
            return fail(posts.size() + " POSTs for one clean 201");
        }
        if (!ds.get(0).acked()) {
            return fail("a 201 was not acknowledged (" + ds.get(0).verdict() + ")");
        }
        return pass("one POST with the requestId as its key, acked");
    }

    /**
     * The Idempotency column's own question for a check's POSTs: more than one seat, or a POST without the key
     * the others carry. Empty when every POST carried one and the same key and there is at most one seat.
     */
    private static Optional<Judgement> notIdempotent(Trial t, List<JournalEntry> posts, String seatsWhy) {
        if (t.seats() > 1) {
            return Optional.of(certainly(seatsWhy));
        }
        // The rubric's "check first without a key" is half the column: a keyless POST the worker looked before, within
        // its delivery, is let through here, and the twins (two seats) and seed-1 (no key) show what it still lacks.
        long blind = posts.stream().filter(e -> e.idempotencyKey() == null && !t.lookedUpBefore(e)).count();
        if (blind > 0) {
            return Optional.of(certainly(blind + " of " + posts.size() + " POSTs carried no Idempotency-Key, with no"
                    + " lookup before them: only chance kept this to one seat"));
        }
        long keys = posts.stream().map(JournalEntry::idempotencyKey).filter(java.util.Objects::nonNull).distinct()
                .count();
        if (keys > 1) {
            return Optional.of(certainly(posts.size() + " POSTs under " + keys + " different keys: a new key per attempt"
                    + " deduplicates nothing"));
        }
        return Optional.empty();
    }

    private static Judgement twins(Trial t) {
        List<List<Delivery>> chains = t.twins();
        List<JournalEntry> posts = t.posts();
        Optional<String> late = t.lateTwin();
        if (posts.size() < 2) {
            if (late.isPresent()) {
                return Judgement.inconclusive(late.get() + ", and " + posts.size() + " POST"
                        + (posts.size() == 1 ? "" : "s") + " came in all");
            }
            return fail("only " + posts.size() + " POST for two deliveries at once; the check needs both to POST");
        }
        Duration apart = Duration.between(posts.get(0).at(), posts.get(1).at());
        Optional<Judgement> broken = notIdempotent(t, posts, "two deliveries at once, " + Evidence.seconds(apart)
                + " apart, wrote " + t.seats() + " seats");
        if (broken.isPresent()) {
            return broken.get();
        }
        if (late.isPresent()) {
            return Judgement.inconclusive(late.get());
        }
        return pass("two deliveries " + Evidence.seconds(apart) + " apart, the first POST held until the other"
                + " twin's request was answered, one key: one seat ("
                + Evidence.deliveries(List.of(last(chains.get(0)), last(chains.get(1)))) + ")");
    }

    private static Judgement redelivery(Trial t) {
        List<Delivery> ds = t.deliverThenRedeliver(() -> t.server.faultPlan(FaultPlan.none()));
        List<JournalEntry> posts = t.posts();
        if (posts.isEmpty()) {
            return fail("never POSTed (" + Evidence.deliveries(ds) + ")");
        }
        Optional<Judgement> broken = notIdempotent(t, posts,
                "the redelivery wrote a second seat: the worker's memory of the first did not survive");
        if (broken.isPresent()) {
            return broken.get();
        }
        if (ds.size() < 2 || t.postsDuring(ds.get(1)).isEmpty() && !t.lookedUpSeatsAfter(ds.get(1).start())) {
            return fail("the redelivery never reached the server (" + Evidence.deliveries(ds) + ")");
        }
        String first = ds.get(0).nacked() ? "nacked delivery 1" : ds.get(0).verdict() + " on delivery 1 (redelivered"
                + " all the same, as a bus does when an ack is lost)";
        return pass(first + "; the redelivery carried the same key and found the seat the first one wrote"
                + (last(ds).acked() ? ", and acked" : ""));
    }

    private static Judgement originalStyleReplay(Trial t) {
        List<Delivery> ds = t.deliver();
        List<JournalEntry> posts = t.posts();
        if (posts.isEmpty()) {
            return fail("never POSTed (" + Evidence.deliveries(ds) + ")");
        }
        Optional<Judgement> broken = notIdempotent(t, posts,
                "the resend after the 502 wrote a second seat instead of finding the first");
        if (broken.isPresent()) {
            return broken.get();
        }
        if (posts.size() < 2) {
            return pass(t.lookedUpSeatsAfter(posts.get(0).at()) ? "looked the seat up after the 502: one seat"
                    : "one POST, one seat (" + Evidence.deliveries(ds) + ")");
        }
        return pass(posts.size() + " POSTs under one key after the 502, one seat"
                + (last(ds).acked() ? "; acked" : ""));
    }

    // --- Error classes: what was and was not retried, key or no key.

    private static Judgement notRetried(Trial t, int status) {
        List<Delivery> ds = t.deliver();
        if (t.posts().isEmpty()) {
            return fail("never POSTed (" + Evidence.deliveries(ds) + ")");
        }
        for (int i = 0; i < ds.size(); i++) {
            int n = t.postsDuring(ds.get(i)).size();
            if (n > 1) {
                return fail("retried a " + status + ": " + n + " POSTs in delivery " + (i + 1));
            }
            if (ds.get(i).acked()) {
                return fail("acked an event that got " + status + " and has no seat: the event is silently lost");
            }
        }
        String redelivered = last(ds).rejected() ? "rejected"
                : "nacked each time (no reject code; not held against it)";
        return pass("one POST per delivery, never retried; " + redelivered);
    }

    private static Judgement unavailableThenCreated(Trial t) {
        List<Delivery> ds = t.deliver();
        List<JournalEntry> first = t.postsDuring(ds.get(0));
        if (first.size() < 2) {
            return fail("did not retry the 503 within the delivery (delivery 1: " + ds.get(0).verdict() + ")");
        }
        if (!ds.get(0).acked()) {
            return fail("the 201 after the 503 was not acknowledged (" + ds.get(0).verdict() + ")");
        }
        return pass("retried the 503 within the delivery, acked the " + Evidence.answer(first.get(1)));
    }

    private static Judgement exhaustion(Trial t) {
        List<Delivery> ds = t.deliver(2);
        for (int i = 0; i < ds.size(); i++) {
            Delivery d = ds.get(i);
            int n = t.postsDuring(d).size();
            if (d.timedOut()) {
                return fail("never gave up: delivery " + (i + 1) + " was killed at the delivery timeout after " + n
                        + " POSTs");
            }
            if (d.acked()) {
                return fail("acked after " + n + " failed POSTs: a silent ack of an event that has no seat");
            }
            if (d.rejected()) {
                return fail("rejected (dead-lettered) an event whose every answer was a 503, which may pass");
            }
            if (n < 2) {
                return fail("gave up on a 503 without retrying (" + n + " POST in delivery " + (i + 1) + ")");
            }
        }
        return pass("each delivery retried, gave up within its budget and nacked");
    }

    private static Judgement inProgress(Trial t) {
        List<Delivery> ds = t.deliver();
        Delivery d1 = ds.get(0);
        List<JournalEntry> first = t.postsDuring(d1);
        if (first.isEmpty()) {
            return fail("no POST in delivery 1 (" + d1.verdict() + ")");
        }
        if (first.size() < 2 && t.lookedUpSeatsAfter(first.get(0).at()) && d1.acked()) {
            // A lookup after the in-progress 409 that finds the seat is as good as the retry that would replay it.
            return pass("looked the seat up after the in-progress 409 and acked");
        }
        if (first.size() < 2) {
            return fail(d1.acked()
                    ? "acked a 409 that held no seat (the key was still in progress) without retrying"
                    : "did not retry the in-progress 409 within the delivery (" + d1.verdict() + ")");
        }
        if (!d1.acked()) {
            return fail("retried, but did not read the answer that followed (" + Evidence.answer(first.get(1))
                    + ") as success (" + d1.verdict() + ")");
        }
        return pass("retried the in-progress 409 " + Evidence.seconds(Duration.between(first.get(0).at(),
                first.get(1).at())) + " later and acked the " + Evidence.answer(first.get(1)));
    }

    private static Judgement retryAfter(Trial t) {
        List<Delivery> ds = t.deliver();
        List<JournalEntry> first = t.postsDuring(ds.get(0));
        if (first.size() < 2) {
            return fail("did not retry the 429 within the delivery (delivery 1: " + ds.get(0).verdict() + ")");
        }
        // First byte to first byte: a worker that waited the whole Retry-After after reading the 429 is never early
        // by this measure, however long the server or the machine took to answer it.
        Duration gap = Duration.between(first.get(0).at(), first.get(1).at());
        if (gap.plus(RETRY_AFTER_SLACK).getSeconds() < RETRY_AFTER_SECONDS) {
            // Measured first byte to first byte, an early retry is the worker's doing however slow the server was.
            return certainly("retried " + Evidence.seconds(gap) + " after a 429 that said Retry-After: "
                    + RETRY_AFTER_SECONDS);
        }
        if (!ds.get(0).acked()) {
            return fail("waited, but the " + Evidence.answer(first.get(1)) + " that followed was not acknowledged ("
                    + ds.get(0).verdict() + ")");
        }
        return pass("waited " + Evidence.seconds(gap) + " for Retry-After: " + RETRY_AFTER_SECONDS + ", then acked");
    }

    // --- Observability: the log lines, whatever else happened.

    private static Judgement requestIdLogged(Trial t) {
        List<Delivery> ds = t.deliver();
        if (t.posts().isEmpty()) {
            return fail("never POSTed (" + Evidence.deliveries(ds) + ")");
        }
        for (int i = 0; i < ds.size(); i++) {
            int posts = t.postsDuring(ds.get(i)).size();
            long lines = t.linesNamingRequestId(ds.get(i));
            if (lines < posts) {
                return fail("delivery " + (i + 1) + " made " + posts + " POSTs but " + lines
                        + " log lines name the requestId with the attempt or outcome");
            }
        }
        Optional<String> contradiction = t.contradiction();
        if (contradiction.isPresent()) {
            return fail("a log line the journal contradicts " + contradiction.get());
        }
        long lines = ds.stream().mapToLong(t::linesNamingRequestId).sum();
        return pass(lines + " log lines name the requestId with the attempt or outcome, at least one per POST in"
                + " every delivery, none contradicted by the journal");
    }

    private static Judgement noUrlLogged(Trial t) {
        List<Delivery> ds = t.deliver();
        Optional<String> named = t.urlInLogs();
        if (named.isPresent()) {
            return fail(named.get());
        }
        if (t.posts().isEmpty()) {
            long outside = t.requestsOutsideBasePath();
            return fail("no POST reached SEATS_BASE_URL + /v1/seats" + (outside > 0 ? " (" + outside
                    + " requests went to the host's root instead, 404: the base URL's path must be kept)" : ""));
        }
        long lines = ds.stream().mapToLong(d -> d.log().size()).sum();
        return pass(lines + " log lines; none names the host and port, the base URL or its token");
    }

    // --- helpers ---

    private static FaultPlan plan(FaultRule... rules) {
        return FaultPlan.of(rules);
    }

    /**
     * A rule for the first POST of the grant: the first attempt under its key (or its payload, when keyless), and
     * only once, so a worker that sends a fresh key per attempt is not handed a new first POST every time.
     */
    private static FaultRule first(Fault fault) {
        FaultRule rule = fault.needsStatus() ? FaultRule.of(fault, 500) : FaultRule.of(fault);
        return rule.withMethodAndPath("POST", SEATS).withAttempt(1).withTimes(1);
    }

    private static <T> T last(List<T> list) {
        return list.get(list.size() - 1);
    }

    /**
     * A base path drawn per trial, the same shape for every check, so none is recognisable by its URL: a word of 4
     * to 8 lower-case letters, then a token of 24 hex digits, e.g. {@code /qzkvx/8f3a9c01b2d4e6f7a9c0b1d2}.
     */
    static String basePath() {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        StringBuilder word = new StringBuilder();
        for (int i = random.nextInt(4, 9); i > 0; i--) {
            word.append((char) ('a' + random.nextInt(26)));
        }
        byte[] token = new byte[12];
        random.nextBytes(token);
        return "/" + word + "/" + HexFormat.of().formatHex(token);
    }
}
