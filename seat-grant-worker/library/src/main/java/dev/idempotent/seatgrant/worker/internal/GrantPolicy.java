package dev.idempotent.seatgrant.worker.internal;

import dev.idempotent.seatgrant.worker.GrantException;
import dev.idempotent.seatgrant.worker.GrantExhaustedException;
import dev.idempotent.seatgrant.worker.GrantInterruptedException;
import dev.idempotent.seatgrant.worker.GrantListener;
import dev.idempotent.seatgrant.worker.GrantListener.AttemptEvent;
import dev.idempotent.seatgrant.worker.GrantListener.Outcome;
import dev.idempotent.seatgrant.worker.GrantListener.OutcomeEvent;
import dev.idempotent.seatgrant.worker.GrantOutcome;
import dev.idempotent.seatgrant.worker.GrantRejectedException;
import dev.idempotent.seatgrant.worker.SeatGrantConfig;
import io.github.resilience4j.core.IntervalBiFunction;
import io.github.resilience4j.retry.Retry;
import io.github.resilience4j.retry.RetryConfig;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.CancellationException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.DoubleSupplier;

/**
 * The retry policy one worker applies to every call, sync or async: one resilience4j {@link Retry} (named
 * {@value #RETRY_NAME}) that counts every call, the {@link Classifier}'s verdicts, the {@link Backoff}'s waits, and
 * the events and listener calls that report them. The loops that send and wait live in the worker; everything
 * they decide, they ask a {@link Run} of this policy. Thread-safe.
 *
 * <p>How a call maps onto resilience4j's counters: a grant or replay is {@code onComplete} (successful with or
 * without retry); running out of attempts is {@code onResult} then {@code onComplete} (failed with retry); a
 * rejection, a deadline, an interrupt or a cancellation is {@code onError} with an exception resilience4j is told
 * never to retry (failed without retry, its "ignored error" event).
 */
public final class GrantPolicy {

    /** The name of the worker's resilience4j Retry. */
    public static final String RETRY_NAME = "seat-grant";

    /**
     * What resilience4j sees of one attempt: the verdict, and the wait the backoff chose (empty when the deadline
     * leaves no room). Resilience4j decides "retry or not" from the verdict and reads the wait as its interval.
     *
     * @param verdict what the answer meant
     * @param backoff the wait before the next attempt, when there is time for one
     */
    public record Attempted(Verdict verdict, Optional<Duration> backoff) {
        /**
         * Checks for nulls.
         *
         * @param verdict what the answer meant
         * @param backoff the wait before the next attempt, when there is time for one
         */
        public Attempted {
            Objects.requireNonNull(verdict, "verdict");
            Objects.requireNonNull(backoff, "backoff");
        }
    }

    /** What the loop does after an attempt: return, throw, or wait and try again. */
    public sealed interface Step {
        /**
         * The grant is done.
         *
         * @param outcome granted or replayed
         */
        record Finished(GrantOutcome outcome) implements Step { }

        /**
         * The grant failed; the outcome is already reported.
         *
         * @param failure what to throw (or complete exceptionally with)
         */
        record Failed(GrantException failure) implements Step { }

        /**
         * Wait, then attempt again.
         *
         * @param delay how long
         */
        record Wait(Duration delay) implements Step { }
    }

    private final SeatGrantConfig config;
    private final Classifier classifier = new Classifier();
    private final Backoff backoff;
    private final GrantEvents events;
    private final Clock clock;
    private final DoubleSupplier random;
    private final Retry retry;

    /**
     * The policy of one worker.
     *
     * @param config   the budgets and the listener
     * @param clock    drives deadlines, elapsed times and HTTP-date Retry-After
     * @param random   draws from {@code [0, 1)} for the jitter
     */
    public GrantPolicy(SeatGrantConfig config, Clock clock, DoubleSupplier random) {
        this.config = Objects.requireNonNull(config, "config");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.random = Objects.requireNonNull(random, "random");
        this.backoff = new Backoff(config.baseDelay(), config.maxDelay(), config.retryAfterCap());
        this.events = new GrantEvents(config.listener());
        IntervalBiFunction<Attempted> interval = (attempt, result) -> result.get().backoff()
                .orElseThrow(() -> new IllegalStateException("asked for an interval the backoff refused"))
                .toMillis();
        RetryConfig retryConfig = RetryConfig.<Attempted>custom()
                .maxAttempts(config.maxAttempts())
                .retryOnResult(a -> a.verdict() instanceof Verdict.Retry)
                // Transport failures reach resilience4j as results (Verdict.Retry), never as exceptions; an
                // exception here is how a call that ended early is counted, and it is never retried.
                .retryOnException(e -> false)
                .intervalBiFunction(interval)
                .build();
        this.retry = Retry.of(RETRY_NAME, retryConfig);
    }

    /** {@return the one resilience4j Retry every call of this worker runs through} */
    public Retry retry() {
        return retry;
    }

    /** {@return the classifier the loops hand answers to} */
    public Classifier classifier() {
        return classifier;
    }

    /**
     * Starts one call: a fresh resilience4j context, the clock started, the deadline fixed.
     *
     * @param requestId      the event's requestId
     * @param callerDeadline the caller's deadline, if any; the earlier of it and the call timeout wins
     * @return the call's bookkeeping
     */
    public Run start(String requestId, Optional<Instant> callerDeadline) {
        Instant start = clock.instant();
        Instant deadline = start.plus(config.callTimeout());
        if (callerDeadline.isPresent() && callerDeadline.get().isBefore(deadline)) {
            deadline = callerDeadline.get();
        }
        return new Run(requestId, start, deadline, retry.asyncContext());
    }

    /**
     * One call's bookkeeping: attempts, the last retryable verdict, and the one outcome it may report. The sync
     * loop uses it from one thread; the async loop from one step at a time, while {@link #cancel(String)} may come from
     * any thread, so the outcome is reported exactly once, by whoever ends the call first.
     */
    public final class Run {
        private final String requestId;
        private final Instant start;
        private final Instant deadline;
        private final Retry.AsyncContext<Attempted> context;
        private final AtomicInteger attempts = new AtomicInteger();
        private final AtomicBoolean ended = new AtomicBoolean();
        private volatile Verdict.Retry lastRetry;
        private volatile Instant attemptStarted;

        private Run(String requestId, Instant start, Instant deadline, Retry.AsyncContext<Attempted> context) {
            this.requestId = Objects.requireNonNull(requestId, "requestId");
            this.start = start;
            this.deadline = deadline;
            this.context = context;
        }

        /** {@return POSTs sent or started so far} */
        public int attempts() {
            return attempts.get();
        }

        /** {@return whether the outcome has been reported} */
        public boolean ended() {
            return ended.get();
        }

        /**
         * Begins the next attempt.
         *
         * @return its timeout (the request timeout, cut to the time left), or empty when no time is left: then
         *     end the call with {@link #outOfTime()}
         */
        public Optional<Duration> begin() {
            Duration remaining = Duration.between(clock.instant(), deadline);
            if (remaining.isNegative() || remaining.isZero()) {
                return Optional.empty();
            }
            attempts.incrementAndGet();
            attemptStarted = clock.instant();
            return Optional.of(remaining.compareTo(config.requestTimeout()) < 0 ? remaining : config.requestTimeout());
        }

        /**
         * Ends a call whose deadline passed before the next attempt could start (an attempt outlived the budget,
         * or the caller's deadline had passed before the first).
         *
         * @return the exception to throw
         */
        public GrantExhaustedException outOfTime() {
            Verdict.Retry last = lastRetry != null ? lastRetry
                    : new Verdict.Retry(OptionalInt.empty(), Optional.empty(), "deadline passed before the first attempt",
                            Optional.empty());
            GrantExhaustedException e = exhausted(GrantExhaustedException.Limit.DEADLINE, last);
            endWithError(e, Outcome.EXHAUSTED, last.status());
            return e;
        }

        /**
         * Decides what the current attempt's verdict means for the call, and reports it.
         *
         * @param verdict the classifier's reading of the answer or the failure
         * @return finish, fail or wait
         */
        public Step settle(Verdict verdict) {
            int attempt = attempts.get();
            Duration took = sinceAttemptStarted();
            if (verdict instanceof Verdict.Done done) {
                boolean replayed = done instanceof Verdict.Replay;
                Outcome outcome = replayed ? Outcome.REPLAYED : Outcome.GRANTED;
                events.attempt(new AttemptEvent(requestId, attempt, outcome, OptionalInt.of(done.status()),
                        Optional.of(done.seatId()), Optional.empty(), done.reason(), Optional.empty(), took));
                if (end()) {
                    context.onComplete();
                    report(outcome, OptionalInt.of(done.status()), Optional.of(done.seatId()));
                }
                return new Step.Finished(replayed
                        ? new GrantOutcome.Replayed(done.seatId(), attempt)
                        : new GrantOutcome.Granted(done.seatId(), attempt));
            }
            if (verdict instanceof Verdict.GiveUp g) {
                events.attempt(new AttemptEvent(requestId, attempt, Outcome.REJECTED, OptionalInt.of(g.status()),
                        Optional.empty(), Optional.empty(), g.reason(), Optional.empty(), took));
                GrantRejectedException e = new GrantRejectedException(requestId, attempt, g.status(), g.reason());
                endWithError(e, Outcome.REJECTED, OptionalInt.of(g.status()));
                return new Step.Failed(e);
            }
            Verdict.Retry failed = (Verdict.Retry) verdict;
            lastRetry = failed;
            Optional<Duration> wait = backoff.next(attempt, failed.retryAfter(), clock.instant(), deadline,
                    random.getAsDouble());
            if (attempt >= config.maxAttempts()) {
                // resilience4j counts the last attempt and says stop; onComplete then books a failed call.
                context.onResult(new Attempted(failed, wait));
                attemptEvent(attempt, Outcome.EXHAUSTED, failed, Optional.empty(), took);
                GrantExhaustedException e = exhausted(GrantExhaustedException.Limit.ATTEMPTS, failed);
                if (end()) {
                    context.onComplete();
                    report(Outcome.EXHAUSTED, failed.status(), Optional.empty());
                }
                return new Step.Failed(e);
            }
            if (wait.isEmpty()) {
                attemptEvent(attempt, Outcome.EXHAUSTED, failed, Optional.empty(), took);
                GrantExhaustedException e = exhausted(GrantExhaustedException.Limit.DEADLINE, failed);
                endWithError(e, Outcome.EXHAUSTED, failed.status());
                return new Step.Failed(e);
            }
            // resilience4j counts the attempt, publishes its retry event and hands back the backoff's wait.
            Duration delay = Duration.ofMillis(context.onResult(new Attempted(failed, wait)));
            attemptEvent(attempt, Outcome.RETRY, failed, Optional.of(delay), took);
            return new Step.Wait(delay);
        }

        /**
         * Ends the call because its thread was interrupted; restores the interrupt flag.
         *
         * @param cause the interrupt
         * @return the exception to throw
         */
        public GrantInterruptedException interrupted(InterruptedException cause) {
            Thread.currentThread().interrupt();
            GrantInterruptedException e = new GrantInterruptedException(requestId, attempts.get(), cause);
            endWithError(e, Outcome.INTERRUPTED, OptionalInt.empty());
            return e;
        }

        /**
         * Ends the call because something other than an answer or a transport failure ended an attempt: the
         * caller's own code threw while an attempt was being prepared (a request customizer, say), or the caller's
         * client, the scheduler or a callback failed. Reports nothing if the call already ended. The loop then
         * rethrows {@code failure} as it is.
         *
         * @param failure what was thrown
         */
        public void failed(Throwable failure) {
            endWithError(failure, Outcome.FAILED, lastStatus());
        }

        /**
         * Ends the call because it was stopped from outside, unless it already ended.
         *
         * @param endedBy what stopped it, as {@link OutcomeEvent#endedBy()} words it ({@code cancel},
         *                {@code timeout}, {@code exception:<class>}, {@code completed} or {@code close})
         * @return whether this call reported the cancellation (false when an outcome was already reported)
         */
        public boolean cancel(String endedBy) {
            Objects.requireNonNull(endedBy, "endedBy");
            return endWithError(new CancellationException("seat grant cancelled for requestId " + requestId),
                    Outcome.CANCELLED, lastStatus(), Optional.of(endedBy));
        }

        private OptionalInt lastStatus() {
            Verdict.Retry last = lastRetry;
            return last == null ? OptionalInt.empty() : last.status();
        }

        private boolean end() {
            return ended.compareAndSet(false, true);
        }

        private void endWithError(Throwable e, Outcome outcome, OptionalInt status) {
            endWithError(e, outcome, status, Optional.empty());
        }

        private boolean endWithError(Throwable e, Outcome outcome, OptionalInt status, Optional<String> endedBy) {
            if (!end()) {
                return false;
            }
            context.onError(e);
            report(outcome, status, Optional.empty(), endedBy);
            return true;
        }

        private void attemptEvent(int attempt, Outcome outcome, Verdict.Retry failed, Optional<Duration> delay,
                Duration took) {
            events.attempt(new AttemptEvent(requestId, attempt, outcome, failed.status(), Optional.empty(), delay,
                    failed.reason(), failed.cause().map(c -> c.getClass().getName()), took));
        }

        private Duration sinceAttemptStarted() {
            Instant started = attemptStarted;
            return started == null ? Duration.ZERO : nonNegative(Duration.between(started, clock.instant()));
        }

        private void report(Outcome outcome, OptionalInt status, Optional<String> seatId) {
            report(outcome, status, seatId, Optional.empty());
        }

        private void report(Outcome outcome, OptionalInt status, Optional<String> seatId, Optional<String> endedBy) {
            events.outcome(new OutcomeEvent(requestId, attempts.get(), outcome, status, seatId,
                    nonNegative(Duration.between(start, clock.instant())), endedBy));
        }

        private static Duration nonNegative(Duration d) {
            // A clock that steps back (NTP on the system clock) must not produce a negative duration.
            return d.isNegative() ? Duration.ZERO : d;
        }

        private GrantExhaustedException exhausted(GrantExhaustedException.Limit limit, Verdict.Retry last) {
            return new GrantExhaustedException(requestId, attempts.get(), limit, last.status(), last.reason(),
                    last.cause().orElse(null));
        }
    }
}
