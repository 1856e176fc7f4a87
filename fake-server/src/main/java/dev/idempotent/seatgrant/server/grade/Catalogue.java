package dev.idempotent.seatgrant.server.grade;

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
 * <p>Each check judges the one property its id names, and counts towards one signal: a duplicate seat is
 * Idempotency's alone (the safety gate and the Idempotency score see it, whichever check it happened in); the
 * timeout checks ask whether a lost answer was resent, with or without a key; the error-class checks ask what was
 * and was not retried; the observability checks read the log. No check writes a seat of its own: every fault is on
 * the worker's own POSTs, so a worker whose stable key is not the requestId is judged on the same footing.
 *
 * <p>The catalogue's own waits are short (a 1 s gateway, a 3 s hold, a 2 s Retry-After, a 10 s hang), so a correct
 * worker is never kept waiting long; the worker's own backoff is its business.
 */
final class Catalogue {

    /** The gateway's wait before its 504: long enough to look like a gateway, short enough to keep grades fast. */
    static final long GATEWAY_DELAY_MS = 1_000;
    /** How long the server holds a committed POST open; a worker must time out on its own well before. */
    static final long HANG_MS = 10_000;
    /** How long the first twin's POST is held before its commit, so that both twins are in flight together. */
    static final long TWIN_HOLD_MS = 3_000;
    /** The Retry-After the rate-limit check sends, in seconds. */
    static final int RETRY_AFTER_SECONDS = 2;

    private static final String SEATS = "/v1/seats";
    // A retry that honoured Retry-After cannot be early by more than clock granularity (and Node's timers, which
    // may fire a millisecond early).
    private static final Duration RETRY_AFTER_SLACK = Duration.ofMillis(50);

    private static final List<Check> CHECKS = List.of(
            // Timeout semantics: an answer lost after the commit is "maybe done", never "failed".
            new Check("seed-2-reset-then-replay", Signal.TIMEOUT,
                    "the first POST is committed, then reset; the worker resends within the delivery, stops at the"
                            + " answer (the 409 replay, with a key) and acks",
                    b -> b.faultPlan(plan(first(Fault.RESET_AFTER_COMMIT))), Catalogue::resetThenReplay),
            new Check("committed-then-504", Signal.TIMEOUT,
                    "the first POST is committed, then a gateway answers 504 after 1 s; the worker resends (or looks"
                            + " the seat up) and acks",
                    b -> b.faultPlan(plan(first(Fault.STATUS_AFTER_COMMIT).withStatus(504)
                            .withDelayMs(GATEWAY_DELAY_MS))),
                    t -> lostAnswer(t, "a 504 after the commit", Duration.ofMillis(GATEWAY_DELAY_MS))),
            new Check("committed-then-close", Signal.TIMEOUT,
                    "the first POST is committed, then the connection closes with no answer; the worker resends (or"
                            + " looks the seat up) and acks",
                    b -> b.faultPlan(plan(first(Fault.CLOSE_AFTER_COMMIT))),
                    t -> lostAnswer(t, "a connection closed after the commit", Duration.ZERO)),
            new Check("committed-then-408", Signal.TIMEOUT,
                    "the first POST is committed, then answered 408 (OkHttp resends that on its own, key or no key);"
                            + " the worker resends (or looks the seat up) and acks, one seat with a key",
                    b -> b.faultPlan(plan(first(Fault.STATUS_AFTER_COMMIT).withStatus(408))),
                    t -> lostAnswer(t, "a 408 after the commit", Duration.ZERO)),
            new Check("committed-then-held-open", Signal.TIMEOUT,
                    "the first POST is committed, then held open for 10 s; the worker must time out on its own and"
                            + " resend",
                    b -> b.faultPlan(plan(first(Fault.HANG_AFTER_COMMIT).withDelayMs(HANG_MS))),
                    Catalogue::heldOpen),
            // Idempotency: one seat per requestId, however the event arrives.
            new Check("seed-1-201-once", Signal.IDEMPOTENCY,
                    "a clean 201: one POST carrying Idempotency-Key = requestId, acked",
                    b -> b, Catalogue::createdOnce),
            new Check("twin-deliveries", Signal.IDEMPOTENCY,
                    "the event is delivered twice at once; the first POST is held 3 s before its commit; one seat",
                    b -> b.faultPlan(plan(first(Fault.DELAY).withDelayMs(TWIN_HOLD_MS))), Catalogue::twins),
            new Check("redelivery-after-nack", Signal.IDEMPOTENCY,
                    "the first POST is committed and answered 504, every retry 503, so the worker nacks; the bus"
                            + " redelivers 2 s later (a new process), which must replay, not write a second seat",
                    b -> b.faultPlan(plan(first(Fault.STATUS_AFTER_COMMIT).withStatus(504),
                            FaultRule.of(Fault.STATUS, 503).withMethodAndPath(null, SEATS))),
                    Catalogue::redelivery),
            new Check("replay-original-style", Signal.IDEMPOTENCY,
                    "replays come as 201 + Idempotent-Replayed: true (--replay-status original); after a lost 502"
                            + " the replay is read as success, one seat",
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
                            + " the worker retries within the delivery and acks the replay that follows",
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
            // Observability: the requestId in every attempt's log, and no URL anywhere in it.
            new Check("requestid-in-every-attempt-log", Signal.OBSERVABILITY,
                    "503, then a reset after the commit, then the replay: each delivery's log names the requestId at"
                            + " least once per POST",
                    b -> b.faultPlan(plan(first(Fault.STATUS).withStatus(503),
                            FaultRule.of(Fault.RESET_AFTER_COMMIT).withMethodAndPath("POST", SEATS).withAttempt(2)
                                    .withTimes(1))),
                    Catalogue::requestIdLogged),
            new Check("no-url-in-logs", Signal.OBSERVABILITY,
                    "the API is served under a secret-looking base path; no log line names the host and port, the"
                            + " base URL or its token",
                    b -> b.basePath("/t/tok_" + HexFormat.of().formatHex(randomBytes()))
                            .faultPlan(plan(first(Fault.STATUS).withStatus(503),
                                    FaultRule.of(Fault.RESET_AFTER_COMMIT).withMethodAndPath("POST", SEATS)
                                            .withAttempt(2).withTimes(1))),
                    Catalogue::noUrlLogged));

    private Catalogue() {
    }

    /** Every check, in the order reports list them. */
    static List<Check> checks() {
        return CHECKS;
    }

    // --- Timeout semantics: was the lost answer resent? A keyless resend is the right timeout behaviour; the
    // second seat it writes is Idempotency's to count.

    private static Judgement resetThenReplay(Trial t) {
        List<Delivery> ds = t.deliver();
        Delivery d1 = ds.get(0);
        List<JournalEntry> first = t.postsDuring(d1);
        if (first.isEmpty()) {
            return fail("no POST in delivery 1 (" + d1.verdict() + ")");
        }
        if (first.size() < 2) {
            return fail(d1.acked() ? "acked after the reset without resending: a lost answer is not a success"
                    : "did not resend within the delivery after the reset (delivery 1: " + d1.verdict() + ")");
        }
        String settled = Evidence.answer(first.get(1));
        if (first.size() > 2) {
            return fail("kept POSTing after the resend was answered (" + settled + "): " + first.size()
                    + " POSTs in delivery 1");
        }
        if (!d1.acked()) {
            return fail("resent after the reset, but did not read the answer (" + settled + ") as success ("
                    + d1.verdict() + ")");
        }
        return pass(resendCause(first.get(0), first.get(1), "the reset", Duration.ZERO) + ", stopped at the answer ("
                + settled + ") and acked");
    }

    /**
     * @param notBefore how long after the lost POST's first byte its answer was written at the earliest (the
     *                  gateway's delay); a resend sooner than that certainly did not see it
     */
    private static Judgement lostAnswer(Trial t, String what, Duration notBefore) {
        List<Delivery> ds = t.deliver();
        List<JournalEntry> posts = t.posts();
        if (posts.isEmpty()) {
            return fail("never POSTed (" + Evidence.deliveries(ds) + ")");
        }
        JournalEntry lost = posts.get(0);
        Delivery last = last(ds);
        boolean looked = t.lookedUpSeatsAfter(lost.at());
        if (posts.size() == 1 && !looked) {
            if (last.acked()) {
                return fail("acked after " + what + " without resending or looking: a lost answer is not a success");
            }
            return fail("never resent after " + what + " nor looked the seat up (" + Evidence.deliveries(ds) + ")");
        }
        if (!last.acked()) {
            return fail("resent after " + what + ", but the event was never acknowledged (" + Evidence.deliveries(ds)
                    + ")");
        }
        if (posts.size() == 1) {
            // Acking a lost answer blind would lose every grant the server did not commit; looking first is safe.
            return pass("looked the seat up instead of resending after " + what + ", and acked");
        }
        JournalEntry resend = posts.get(1);
        if (ds.get(0).covers(resend.at())) {
            return pass(resendCause(lost, resend, what, notBefore) + ", and acked (" + Evidence.answer(resend) + ")");
        }
        return pass("nacked after " + what + "; the bus redelivered, and the redelivery's POST got "
                + Evidence.answer(resend) + "; acked");
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

    private static Judgement heldOpen(Trial t) {
        List<Delivery> ds = t.deliver();
        Delivery d1 = ds.get(0);
        List<JournalEntry> first = t.postsDuring(d1);
        if (first.isEmpty()) {
            return fail("no POST in delivery 1 (" + d1.verdict() + ")");
        }
        JournalEntry held = first.get(0);
        // The worker stopped waiting when it resent, or when its delivery ended.
        Instant stopped = first.size() > 1 ? first.get(1).at() : d1.end();
        Duration waited = Duration.between(held.at(), stopped);
        if (d1.timedOut() && first.size() < 2) {
            return fail("no request timeout: the first POST was still waiting when the delivery was killed after "
                    + Evidence.seconds(d1.took()));
        }
        // The server closes the held connection 10 s after the commit, which follows the POST's first byte: a worker
        // without a timeout of its own cannot stop waiting sooner, and one that stopped sooner had one.
        if (waited.compareTo(Duration.ofMillis(HANG_MS)) >= 0) {
            return fail("no request timeout: waited " + Evidence.seconds(waited) + " for the held POST, until the"
                    + " server closed it at 10 s");
        }
        List<JournalEntry> posts = t.posts();
        if (posts.size() < 2 && !t.lookedUpSeatsAfter(held.at())) {
            return fail("timed out after " + Evidence.seconds(waited) + ", but never resent nor looked the seat up ("
                    + Evidence.deliveries(ds) + ")");
        }
        if (!last(ds).acked()) {
            return fail("timed out and resent, but the event was never acknowledged (" + Evidence.deliveries(ds) + ")");
        }
        String how = first.size() > 1 ? "resent within the delivery" : "ended the delivery ("
                + d1.verdict() + ") and the bus redelivered";
        return pass("timed out on its own " + Evidence.seconds(waited) + " after the held POST arrived, well inside the"
                + " server's 10 s hang; " + how + "; acked");
    }

    // --- Idempotency: one seat per requestId, and a key another producer of the requestId would share.

    private static Judgement createdOnce(Trial t) {
        List<Delivery> ds = t.deliver();
        List<JournalEntry> posts = t.posts();
        if (posts.isEmpty()) {
            return fail("never POSTed (" + Evidence.deliveries(ds) + ")");
        }
        String key = posts.get(0).idempotencyKey();
        if (key == null) {
            return fail("the POST carried no Idempotency-Key: nothing stops a resend from writing a second seat");
        }
        if (!t.keyedByRequestId(posts)) {
            return fail("the Idempotency-Key is " + Evidence.key(key, t.requestId) + ", not the requestId itself:"
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

    private static Judgement twins(Trial t) {
        List<List<Delivery>> chains = t.twins();
        List<JournalEntry> posts = t.posts();
        if (posts.size() < 2) {
            return fail("only " + posts.size() + " POST for two deliveries at once; the check needs both to POST");
        }
        Duration apart = Duration.between(posts.get(0).at(), posts.get(1).at());
        if (t.seats() > 1) {
            return fail("two deliveries at once, " + Evidence.seconds(apart) + " apart, wrote " + t.seats() + " seats");
        }
        if (apart.toMillis() >= TWIN_HOLD_MS) {
            return Judgement.inconclusive("the twins did not overlap (their first POSTs came " + Evidence.seconds(apart)
                    + " apart, more than the 3 s hold)");
        }
        if (!last(chains.get(0)).acked() && !last(chains.get(1)).acked()) {
            return fail("neither twin was acknowledged (" + Evidence.deliveries(List.of(last(chains.get(0)),
                    last(chains.get(1)))) + ")");
        }
        return pass("two deliveries " + Evidence.seconds(apart) + " apart, inside the 3 s hold: one seat");
    }

    private static Judgement redelivery(Trial t) {
        List<Delivery> ds = t.deliverThenRedeliver(() -> t.server.faultPlan(FaultPlan.none()));
        if (t.posts().isEmpty()) {
            return fail("never POSTed (" + Evidence.deliveries(ds) + ")");
        }
        if (t.seats() > 1) {
            return fail("the redelivery wrote a second seat: the worker's memory of the first did not survive");
        }
        if (!last(ds).acked()) {
            return fail("the redelivery was never acknowledged (" + Evidence.deliveries(ds) + ")");
        }
        String first = ds.get(0).nacked() ? "nacked delivery 1" : ds.get(0).verdict() + " on delivery 1 (redelivered"
                + " all the same, as a bus does when an ack is lost)";
        return pass(first + "; the redelivery found the seat the first one wrote, and acked");
    }

    private static Judgement originalStyleReplay(Trial t) {
        List<Delivery> ds = t.deliver();
        List<JournalEntry> posts = t.posts();
        if (posts.isEmpty()) {
            return fail("never POSTed (" + Evidence.deliveries(ds) + ")");
        }
        if (t.seats() > 1) {
            return fail("the resend after the 502 wrote a second seat instead of finding the first");
        }
        if (posts.size() < 2) {
            return fail("never resent after the 502 (" + Evidence.deliveries(ds) + ")");
        }
        int replay = posts.size();
        for (int i = 0; i < posts.size(); i++) {
            if ("201 replay".equals(Evidence.answer(posts.get(i)))) {
                replay = i;
                break;
            }
        }
        if (replay < posts.size() - 1) {
            return fail("kept POSTing after the 201 replay: " + (posts.size() - replay - 1) + " more");
        }
        if (!last(ds).acked()) {
            return fail("the 201 + Idempotent-Replayed replay was not read as success (" + Evidence.deliveries(ds)
                    + ")");
        }
        return pass("acked the 201 replay after the 502, no POST after it");
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
            return fail("retried " + Evidence.seconds(gap) + " after a 429 that said Retry-After: "
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
                        + " log lines name the requestId");
            }
        }
        long lines = ds.stream().mapToLong(t::linesNamingRequestId).sum();
        return pass(lines + " log lines name the requestId, at least one per POST in every delivery");
    }

    private static Judgement noUrlLogged(Trial t) {
        List<Delivery> ds = t.deliver();
        String base = t.apiBase().toString();
        String hostPort = t.apiBase().getHost() + ":" + t.apiBase().getPort();
        String path = t.apiBase().getRawPath();
        String token = path.substring(path.lastIndexOf('/') + 1);
        List<String> needles = List.of(base, hostPort, "localhost:" + t.apiBase().getPort(), token);
        for (Delivery d : ds) {
            for (String line : d.log()) {
                for (String needle : needles) {
                    if (line.contains(needle)) {
                        String what = needle.equals(token) ? "the base path's token" : needle.equals(base)
                                ? "the base URL" : "the host and port";
                        return fail("a log line names " + what + ": " + Evidence.line(t.redact(line)));
                    }
                }
            }
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

    private static byte[] randomBytes() {
        byte[] bytes = new byte[12];
        ThreadLocalRandom.current().nextBytes(bytes);
        return bytes;
    }
}
