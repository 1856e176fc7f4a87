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
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The fixed catalogue of checks. Each check's server, fault plan and judgement live here, side by side, so a
 * reader sees what a check does and what it accepts in one place.
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
    // Arrival to arrival, a retry that honoured Retry-After cannot be early by more than clock granularity.
    private static final Duration RETRY_AFTER_SLACK = Duration.ofMillis(50);

    private static final List<Check> CHECKS = List.of(
            // Timeout semantics: an answer lost after the commit is "maybe done", never "failed".
            new Check("seed-2-reset-then-replay", Signal.TIMEOUT,
                    "the first POST is committed, then reset; the retry gets the 409 replay, and nothing follows it",
                    b -> b.faultPlan(plan(first(Fault.RESET_AFTER_COMMIT))), Catalogue::resetThenReplay),
            new Check("committed-then-504", Signal.TIMEOUT,
                    "the first POST is committed, then a gateway answers 504 after 1 s; one seat, same key, acked",
                    b -> b.faultPlan(plan(first(Fault.STATUS_AFTER_COMMIT).withStatus(504)
                            .withDelayMs(GATEWAY_DELAY_MS))),
                    t -> lostAnswer(t, "a 504 after the commit")),
            new Check("committed-then-close", Signal.TIMEOUT,
                    "the first POST is committed, then the connection closes with no answer; one seat, same key, acked",
                    b -> b.faultPlan(plan(first(Fault.CLOSE_AFTER_COMMIT))),
                    t -> lostAnswer(t, "a connection closed after the commit")),
            new Check("committed-then-held-open", Signal.TIMEOUT,
                    "the first POST is committed, then held open for 10 s; the worker must time out on its own and"
                            + " retry with the same key",
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
                    "the first POST is committed and answered 504, every retry 503, so the worker nacks; the"
                            + " redelivery (a new process) must replay, not write a second seat",
                    b -> b.faultPlan(plan(first(Fault.STATUS_AFTER_COMMIT).withStatus(504),
                            FaultRule.of(Fault.STATUS, 503).withMethodAndPath(null, SEATS))),
                    Catalogue::redelivery),
            new Check("replay-original-style", Signal.IDEMPOTENCY,
                    "replays come as 201 + Idempotent-Replayed: true (--replay-status original); after a lost 502"
                            + " the replay is read as success",
                    b -> b.replayStatus(ReplayStatus.ORIGINAL)
                            .faultPlan(plan(first(Fault.STATUS_AFTER_COMMIT).withStatus(502))),
                    Catalogue::originalStyleReplay),
            // Error classes: replay, retry or give up, each where it belongs.
            new Check("seed-3-400-not-retried", Signal.ERROR_CLASSES,
                    "every POST gets 400: one POST per delivery, no retry, no ack",
                    b -> b.faultPlan(plan(FaultRule.of(Fault.STATUS, 400).withMethodAndPath("POST", SEATS))),
                    t -> notRetried(t, 400)),
            new Check("seed-4-503-then-201", Signal.ERROR_CLASSES,
                    "the first POST gets 503, the retry 201: both in one delivery under the requestId, acked",
                    b -> b.faultPlan(plan(first(Fault.STATUS).withStatus(503))), Catalogue::unavailableThenCreated),
            new Check("seed-5-exhaustion-is-a-nack", Signal.ERROR_CLASSES,
                    "every POST gets 503: the worker retries, gives up within the delivery, and nacks (exit 1),"
                            + " never a silent ack",
                    b -> b.faultPlan(plan(FaultRule.of(Fault.STATUS, 503).withMethodAndPath("POST", SEATS))),
                    Catalogue::exhaustion),
            new Check("in-progress-409-retried", Signal.ERROR_CLASSES,
                    "another consumer already holds the key: the first POST gets 409 in progress (problem, Retry-After:"
                            + " 1); the worker retries and acks the replay",
                    b -> b.faultPlan(plan(FaultRule.of(Fault.STATUS, 409).withRetryAfter(1)
                            .withMethodAndPath("POST", SEATS).withAttempt(2).withTimes(1))),
                    Catalogue::inProgress),
            new Check("retry-after-honoured", Signal.ERROR_CLASSES,
                    "the first POST gets 429 with Retry-After: 2; the retry comes at least 2 s later (from the journal)",
                    b -> b.faultPlan(plan(first(Fault.STATUS).withStatus(429).withRetryAfter(RETRY_AFTER_SECONDS))),
                    Catalogue::retryAfter),
            new Check("422-not-retried", Signal.ERROR_CLASSES,
                    "the requestId was already used with another payload: the 422 is not retried within a delivery",
                    b -> b, Catalogue::keyMismatch),
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

    // --- Timeout semantics ---

    private static Judgement resetThenReplay(Trial t) {
        List<Delivery> ds = t.deliver();
        List<JournalEntry> first = t.postsDuring(ds.get(0));
        if (first.size() < 2) {
            return fail("no retry within the delivery after the reset (delivery 1: " + ds.get(0).verdict() + ")");
        }
        if (!t.keyedByRequestId(first)) {
            return fail("the retry after the reset did not carry the requestId as its key");
        }
        if (first.size() > 2) {
            return fail("kept POSTing after the 409 replay: " + first.size() + " POSTs in delivery 1");
        }
        if (!ds.get(0).acked()) {
            return fail("the 409 replay was not read as success (delivery 1: " + ds.get(0).verdict() + ")");
        }
        return pass("retried the reset with the same key, acked the 409 replay, no third POST");
    }

    private static Judgement lostAnswer(Trial t, String what) {
        List<Delivery> ds = t.deliver();
        List<JournalEntry> posts = t.posts();
        if (posts.isEmpty()) {
            return fail("never POSTed (" + Evidence.deliveries(ds) + ")");
        }
        if (posts.size() > 1 && !t.keyedByRequestId(posts)) {
            return fail("resent the grant after " + what + " without the requestId as its key");
        }
        if (!last(ds).acked()) {
            return fail("the seat exists but the event was never acknowledged after " + what);
        }
        if (posts.size() == 1) {
            // Acking a lost answer blind would lose every grant the server did not commit; looking first is safe.
            return t.lookedUpSeatsAfter(posts.get(0).at())
                    ? pass("looked the seat up instead of resending after " + what + ", and acked")
                    : fail("acked after " + what + " without resending or looking: a lost answer is not a success");
        }
        return pass("resent with the same key after " + what + " and acked the replay");
    }

    private static Judgement heldOpen(Trial t) {
        List<Delivery> ds = t.deliver();
        Delivery d1 = ds.get(0);
        List<JournalEntry> first = t.postsDuring(d1);
        if (first.isEmpty()) {
            return fail("no POST in delivery 1 (" + d1.verdict() + ")");
        }
        if (first.size() < 2) {
            return fail(d1.timedOut()
                    ? "no request timeout: the first POST was still waiting when the delivery was killed after "
                            + Evidence.seconds(d1.took())
                    : "did not retry within the delivery after the held-open POST (delivery 1: " + d1.verdict() + ")");
        }
        Duration gap = Duration.between(first.get(0).at(), first.get(1).at());
        if (gap.toMillis() >= HANG_MS - 250) {
            return fail("no request timeout: the retry came " + Evidence.seconds(gap)
                    + " later, only after the server closed the held connection at 10 s");
        }
        if (!t.keyedByRequestId(first)) {
            return fail("the retry after the timeout did not carry the requestId as its key");
        }
        if (!last(ds).acked()) {
            return fail("timed out and retried, but the event was never acknowledged");
        }
        return pass("timed out on its own and retried with the same key " + Evidence.seconds(gap)
                + " after the held POST arrived, well inside the server's 10 s hang; acked");
    }

    // --- Idempotency ---

    private static Judgement createdOnce(Trial t) {
        List<Delivery> ds = t.deliver();
        List<JournalEntry> posts = t.posts();
        if (posts.isEmpty()) {
            return fail("never POSTed (" + Evidence.deliveries(ds) + ")");
        }
        if (posts.get(0).idempotencyKey() == null) {
            return fail("the POST carried no Idempotency-Key: nothing stops a resend from writing a second seat");
        }
        if (!t.keyedByRequestId(posts)) {
            return fail("the Idempotency-Key is not the event's requestId, so no other delivery can match it");
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
                    + " apart, more than the 3 s hold, twice); grade again on a less loaded machine");
        }
        if (!t.keyedByRequestId(posts)) {
            return fail("the twins' POSTs did not all carry the requestId as their key");
        }
        if (!last(chains.get(0)).acked() || !last(chains.get(1)).acked()) {
            return fail("a twin was never acknowledged (" + Evidence.deliveries(List.of(last(chains.get(0)), last(chains.get(1))))
                    + ")");
        }
        return pass("two deliveries " + Evidence.seconds(apart) + " apart, inside the 3 s hold: one seat, both acked");
    }

    private static Judgement redelivery(Trial t) {
        List<Delivery> ds = t.deliver(Trial.MAX_DELIVERIES, nacked -> t.server.faultPlan(FaultPlan.none()));
        Delivery d1 = ds.get(0);
        if (d1.acked()) {
            return fail("acked delivery 1 although every answer after the lost 504 was 503: a silent ack");
        }
        if (d1.rejected()) {
            return fail("rejected (dead-lettered) an event after a 504 and 503s, all of which may pass");
        }
        if (t.seats() > 1) {
            return fail("the redelivery wrote a second seat: the worker's memory of the first did not survive");
        }
        if (t.posts().size() > 1 && !t.keyedByRequestId(t.posts())) {
            return fail("the deliveries' POSTs did not all carry the requestId as their key");
        }
        if (!last(ds).acked()) {
            return fail("the redelivery was never acknowledged");
        }
        return pass("nacked delivery 1; the redelivery found the seat the first one wrote, and acked");
    }

    private static Judgement originalStyleReplay(Trial t) {
        List<Delivery> ds = t.deliver();
        List<JournalEntry> first = t.postsDuring(ds.get(0));
        if (first.size() < 2) {
            return fail("no retry within the delivery after a 502 (delivery 1: " + ds.get(0).verdict() + ")");
        }
        if (!t.keyedByRequestId(first)) {
            return fail("the retry did not carry the requestId as its key");
        }
        if (first.size() > 2) {
            return fail("kept POSTing after the 201 replay: " + first.size() + " POSTs in delivery 1");
        }
        if (!ds.get(0).acked()) {
            return fail("the 201 + Idempotent-Replayed replay was not read as success (" + ds.get(0).verdict() + ")");
        }
        return pass("acked the 201 replay after the 502, no third POST");
    }

    // --- Error classes ---

    private static Judgement notRetried(Trial t, int status) {
        List<Delivery> ds = t.deliver();
        if (t.posts().isEmpty()) {
            return fail("never POSTed (" + Evidence.deliveries(ds) + ")");
        }
        return notRetriedAfter(t, ds, status);
    }

    private static Judgement unavailableThenCreated(Trial t) {
        List<Delivery> ds = t.deliver();
        List<JournalEntry> first = t.postsDuring(ds.get(0));
        if (first.size() < 2) {
            return fail("did not retry the 503 within the delivery (delivery 1: " + ds.get(0).verdict() + ")");
        }
        if (!t.keyedByRequestId(first)) {
            return fail("the two attempts were not both under the requestId");
        }
        if (!ds.get(0).acked()) {
            return fail("the 201 after the 503 was not acknowledged (" + ds.get(0).verdict() + ")");
        }
        return pass("retried the 503 once under the same requestId, acked the 201");
    }

    private static Judgement exhaustion(Trial t) {
        List<Delivery> ds = t.deliver(2, nacked -> { });
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
        t.postAsAnotherConsumer(false);
        List<Delivery> ds = t.deliver();
        List<JournalEntry> first = t.postsDuring(ds.get(0));
        if (first.isEmpty()) {
            return fail("no POST in delivery 1 (" + ds.get(0).verdict() + ")");
        }
        if (!t.keyedByRequestId(first)) {
            return fail("the POSTs did not carry the requestId as their key, so the other consumer's seat was not"
                    + " found");
        }
        if (first.size() < 2) {
            return fail(ds.get(0).acked()
                    ? "acked a 409 that held no seat (the key was still in progress) without retrying"
                    : "did not retry the in-progress 409 within the delivery (" + ds.get(0).verdict() + ")");
        }
        if (!ds.get(0).acked()) {
            return fail("retried, but did not read the replay as success (" + ds.get(0).verdict() + ")");
        }
        return pass("retried the in-progress 409 and acked the replay that followed");
    }

    private static Judgement retryAfter(Trial t) {
        List<Delivery> ds = t.deliver();
        List<JournalEntry> first = t.postsDuring(ds.get(0));
        if (first.size() < 2) {
            return fail("did not retry the 429 within the delivery (delivery 1: " + ds.get(0).verdict() + ")");
        }
        Duration gap = Duration.between(first.get(0).at(), first.get(1).at());
        if (gap.plus(RETRY_AFTER_SLACK).getSeconds() < RETRY_AFTER_SECONDS) {
            return fail("retried " + Evidence.seconds(gap) + " after a 429 that said Retry-After: " + RETRY_AFTER_SECONDS);
        }
        if (!t.keyedByRequestId(first)) {
            return fail("the retry did not carry the requestId as its key");
        }
        if (!ds.get(0).acked()) {
            return fail("waited, but the 201 that followed was not acknowledged (" + ds.get(0).verdict() + ")");
        }
        return pass("waited " + Evidence.seconds(gap) + " for Retry-After: " + RETRY_AFTER_SECONDS + ", then acked");
    }

    private static Judgement keyMismatch(Trial t) {
        t.postAsAnotherConsumer(true);
        List<Delivery> ds = t.deliver();
        List<JournalEntry> posts = t.posts();
        Optional<JournalEntry> firstAnswer = posts.stream().findFirst();
        if (firstAnswer.isEmpty()) {
            return fail("never POSTed (" + Evidence.deliveries(ds) + ")");
        }
        if (!Integer.valueOf(422).equals(firstAnswer.get().status())) {
            return fail("the POST was not answered 422: its key is not the event's requestId");
        }
        return notRetriedAfter(t, ds, 422);
    }

    private static Judgement notRetriedAfter(Trial t, List<Delivery> ds, int status) {
        for (int i = 0; i < ds.size(); i++) {
            int n = t.postsDuring(ds.get(i)).size();
            if (n > 1) {
                return fail("retried a " + status + ": " + n + " POSTs in delivery " + (i + 1));
            }
            if (ds.get(i).acked()) {
                return fail("acked an event that got " + status + " and has no seat: the event is silently lost");
            }
        }
        String redelivered = last(ds).rejected() ? "rejected" : "nacked each time (no reject code; not held against it)";
        return pass("one POST per delivery, never retried; " + redelivered);
    }

    // --- Observability ---

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
                        return fail("a log line names " + what + ": " + Evidence.line(line));
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
