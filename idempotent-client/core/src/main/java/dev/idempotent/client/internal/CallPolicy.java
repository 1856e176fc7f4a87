package dev.idempotent.client.internal;

import dev.idempotent.client.IdempotentListener.AttemptEvent;
import dev.idempotent.client.IdempotentListener.Outcome;
import dev.idempotent.client.IdempotentListener.OutcomeEvent;
import dev.idempotent.client.IdempotentRequestException;
import dev.idempotent.client.IdempotentResponse;
import dev.idempotent.client.RequestInterruptedException;
import dev.idempotent.client.RequestRejectedException;
import dev.idempotent.client.RetriesExhaustedException;
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
 * The retry policy one client applies to every call, sync or async: one resilience4j {@link Retry} (named as the
 * client's {@link Limits#retryName()}) that counts every call, the {@link Classifier}'s decisions, the
 * {@link Backoff}'s waits, the shared retry budget's tokens, and the events and listener calls that report them.
 * The loops that send and wait live in the client; everything they decide, they ask a {@link Run} of this policy.
 * Thread-safe.
 *
 * <p>How a call maps onto resilience4j's counters: a grant or replay is {@code onComplete} (successful with or
 * without retry); running out of attempts is {@code onResult} then {@code onComplete} (failed with retry); a
 * rejection, a deadline, an interrupt or a cancellation is {@code onError} with an exception resilience4j is told
 * never to retry (failed without retry, its "ignored error" event).
 */
public final class CallPolicy {

    /**
     * A client's budgets.
     *
     * @param retryName      the resilience4j Retry's name
     * @param maxAttempts    attempts per call, the first included
     * @param baseDelay      the first jitter ceiling
     * @param maxDelay       the highest jitter ceiling
     * @param retryAfterCap  the longest server-requested wait honoured
     * @param callTimeout    one call's budget: all attempts and waits
     * @param attemptTimeout one attempt's budget, from send to the last body byte
     */
    public record Limits(String retryName, int maxAttempts, Duration baseDelay, Duration maxDelay,
            Duration retryAfterCap, Duration callTimeout, Duration attemptTimeout) {
        /**
         * Checks for nulls.
         *
         * @param retryName      the Retry's name
         * @param maxAttempts    attempts per call
         * @param baseDelay      the first jitter ceiling
         * @param maxDelay       the highest jitter ceiling
         * @param retryAfterCap  the longest Retry-After honoured
         * @param callTimeout    one call's budget
         * @param attemptTimeout one attempt's budget
         */
        public Limits {
            Objects.requireNonNull(retryName, "retryName");
            Objects.requireNonNull(baseDelay, "baseDelay");
            Objects.requireNonNull(maxDelay, "maxDelay");
            Objects.requireNonNull(retryAfterCap, "retryAfterCap");
            Objects.requireNonNull(callTimeout, "callTimeout");
            Objects.requireNonNull(attemptTimeout, "attemptTimeout");
        }
    }

    /**
     * What resilience4j sees of one attempt: the verdict, and the wait the backoff chose (empty when the deadline
     * leaves no room). Resilience4j decides "retry or not" from the verdict and reads the wait as its interval.
     *
     * @param verdict what the answer meant
     * @param backoff the wait before the next attempt, when there is time for one
     */
    public record Attempted(Decision verdict, Optional<Duration> backoff) {
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
         * The call is done.
         *
         * @param response the answer, created or replayed
         */
        record Finished(IdempotentResponse response) implements Step { }

        /**
         * The call failed; the outcome is already reported.
         *
         * @param failure what to throw (or complete exceptionally with)
         */
        record Failed(IdempotentRequestException failure) implements Step { }

        /**
         * Wait, then attempt again.
         *
         * @param delay how long
         */
        record Wait(Duration delay) implements Step { }

        /**
         * Someone else ended the call first (a cancellation, or the caller completing its future) and reported its
         * outcome: leave the call's future to them.
         */
        record Ended() implements Step { }
    }

    private static final Step ENDED = new Step.Ended();

    private final Limits config;
    private final Backoff backoff;
    private final ClientEvents events;
    private final Clock clock;
    private final DoubleSupplier random;
    private final TokenBucket budget;
    private final Retry retry;

    /**
     * The policy of one client.
     *
     * @param config     the budgets
     * @param events     where attempts and outcomes are reported
     * @param clock      drives deadlines, elapsed times and HTTP-date Retry-After
     * @param random     draws from {@code [0, 1)} for the jitter
     */
    public CallPolicy(Limits config, ClientEvents events, Clock clock, DoubleSupplier random) {
        this(config, events, clock, random, null);
    }

    /**
     * The policy of one client whose resends a shared budget pays for.
     *
     * @param config     the budgets
     * @param events     where attempts and outcomes are reported
     * @param clock      drives deadlines, elapsed times and HTTP-date Retry-After
     * @param random     draws from {@code [0, 1)} for the jitter
     * @param budget     pays for every attempt after a call's first; null for none
     */
    public CallPolicy(Limits config, ClientEvents events, Clock clock, DoubleSupplier random, TokenBucket budget) {
        this.budget = budget;
        this.config = Objects.requireNonNull(config, "config");
        this.events = Objects.requireNonNull(events, "events");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.random = Objects.requireNonNull(random, "random");
        this.backoff = new Backoff(config.baseDelay(), config.maxDelay(), config.retryAfterCap());
        IntervalBiFunction<Attempted> interval = (attempt, result) -> result.get().backoff()
                .orElseThrow(() -> new IllegalStateException("asked for an interval the backoff refused"))
                .toMillis();
        RetryConfig retryConfig = RetryConfig.<Attempted>custom()
                .maxAttempts(config.maxAttempts())
                .retryOnResult(a -> a.verdict() instanceof Decision.Retry)
                // Transport failures reach resilience4j as results (Decision.Retry), never as exceptions; an
                // exception here is how a call that ended early is counted, and it is never retried.
                .retryOnException(e -> false)
                .intervalBiFunction(interval)
                .build();
        this.retry = Retry.of(config.retryName(), retryConfig);
    }

    /** {@return the one resilience4j Retry every call of this client runs through} */
    public Retry retry() {
        return retry;
    }

    /**
     * Starts one call: a fresh resilience4j context, the clock started, the deadline fixed.
     *
     * @param key            the call's key
     * @param callerDeadline the caller's deadline, if any; the earlier of it and the call timeout wins
     * @return the call's bookkeeping
     */
    public Run start(String key, Optional<Instant> callerDeadline) {
        Instant start = clock.instant();
        Instant deadline = start.plus(config.callTimeout());
        if (callerDeadline.isPresent() && callerDeadline.get().isBefore(deadline)) {
            deadline = callerDeadline.get();
        }
        return new Run(key, start, deadline, retry.asyncContext());
    }

    /**
     * One call's bookkeeping: attempts, the last retryable verdict, and the one outcome it may report. The sync
     * loop uses it from one thread; the async loop from one step at a time, while {@link #cancel(String)} may come from
     * any thread, so the outcome is reported exactly once, by whoever ends the call first.
     */
    public final class Run {
        private final String key;
        private final Instant start;
        private final Instant deadline;
        private final Retry.AsyncContext<Attempted> context;
        private final AtomicInteger attempts = new AtomicInteger();
        private final AtomicBoolean ended = new AtomicBoolean();
        private volatile Decision.Retry lastRetry;
        private volatile Instant attemptStarted;

        private Run(String key, Instant start, Instant deadline, Retry.AsyncContext<Attempted> context) {
            this.key = Objects.requireNonNull(key, "key");
            this.start = start;
            this.deadline = deadline;
            this.context = context;
        }

        /** {@return attempts sent or started so far} */
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
            return Optional.of(remaining.compareTo(config.attemptTimeout()) < 0 ? remaining : config.attemptTimeout());
        }

        /**
         * Ends a call whose deadline passed before the next attempt could start (an attempt outlived the budget,
         * or the caller's deadline had passed before the first).
         *
         * @return the exception to throw
         */
        public RetriesExhaustedException outOfTime() {
            Decision.Retry last = lastRetry != null ? lastRetry
                    : new Decision.Retry(OptionalInt.empty(), Optional.empty(), Optional.empty(),
                            "deadline passed before the first attempt", Optional.empty());
            RetriesExhaustedException e = exhausted(RetriesExhaustedException.Limit.DEADLINE, last);
            endWithError(e, Outcome.EXHAUSTED, last.status(), Optional.empty(), Optional.of(e.limit()),
                    truncated(last.answer()));
            return e;
        }

        /**
         * Decides what the current attempt's verdict means for the call, and reports it.
         *
         * @param verdict the classifier's reading of the answer or the failure
         * @return finish, fail or wait; {@link Step.Ended} when someone else ended the call first
         */
        public Step settle(Decision verdict) {
            int attempt = attempts.get();
            Duration took = sinceAttemptStarted();
            if (verdict instanceof Decision.Done done) {
                IdempotentResponse answer = done.answer();
                Outcome outcome = answer.replayed() ? Outcome.REPLAYED : Outcome.CREATED;
                events.attempt(new AttemptEvent(key, attempt, outcome, OptionalInt.of(answer.status()),
                        answer.resourceId(), Optional.empty(), done.reason(), Optional.empty(), took,
                        answer.bodyTruncated()));
                if (!end()) {
                    return ENDED;
                }
                context.onComplete();
                if (budget != null) {
                    budget.refundSuccess();
                }
                report(outcome, OptionalInt.of(answer.status()), answer.resourceId(), Optional.empty(),
                        Optional.empty(), answer.bodyTruncated());
                return new Step.Finished(answer);
            }
            if (verdict instanceof Decision.GiveUp g) {
                boolean truncated = truncated(g.answer());
                events.attempt(new AttemptEvent(key, attempt, Outcome.REJECTED, OptionalInt.of(g.status()),
                        Optional.empty(), Optional.empty(), g.reason(), Optional.empty(), took, truncated));
                RequestRejectedException e = new RequestRejectedException(key, attempt, g.status(), g.reason(),
                        g.answer());
                return failed(e, Outcome.REJECTED, OptionalInt.of(g.status()), Optional.empty(), truncated);
            }
            Decision.Retry failed = (Decision.Retry) verdict;
            lastRetry = failed;
            Optional<Duration> wait = backoff.next(attempt, failed.asked(), failed.retryAfter(), clock.instant(),
                    deadline, random.getAsDouble());
            if (attempt >= config.maxAttempts()) {
                // resilience4j counts the last attempt and says stop; onComplete then books a failed call.
                context.onResult(new Attempted(failed, wait));
                attemptEvent(attempt, Outcome.EXHAUSTED, failed, Optional.empty(), took);
                RetriesExhaustedException e = exhausted(RetriesExhaustedException.Limit.ATTEMPTS, failed);
                if (!end()) {
                    return ENDED;
                }
                context.onComplete();
                report(Outcome.EXHAUSTED, failed.status(), Optional.empty(), Optional.empty(),
                        Optional.of(e.limit()), truncated(failed.answer()));
                return new Step.Failed(e);
            }
            if (wait.isEmpty()) {
                return exhaustedEarly(RetriesExhaustedException.Limit.DEADLINE, attempt, failed, took);
            }
            if (budget != null && !budget.payForRetry()) {
                // The budget is shared by every call: when the provider fails for all of them, resends stop here.
                return exhaustedEarly(RetriesExhaustedException.Limit.BUDGET, attempt, failed, took);
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
        public RequestInterruptedException interrupted(InterruptedException cause) {
            Thread.currentThread().interrupt();
            Decision.Retry last = lastRetry;
            RequestInterruptedException e = new RequestInterruptedException(key, attempts.get(), lastStatus(), cause,
                    last == null ? Optional.empty() : last.answer());
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
            return endWithError(new CancellationException("idempotent request cancelled for key " + key),
                    Outcome.CANCELLED, lastStatus(), Optional.of(endedBy), Optional.empty(), false);
        }

        /** Ends the call with {@code e} and says to throw it, unless someone else ended it first. */
        private Step failed(IdempotentRequestException e, Outcome outcome, OptionalInt status,
                Optional<RetriesExhaustedException.Limit> limit, boolean truncated) {
            return endWithError(e, outcome, status, Optional.empty(), limit, truncated) ? new Step.Failed(e) : ENDED;
        }

        /** Ends the call before {@code maxAttempts}: the deadline or the budget left no room for a resend. */
        private Step exhaustedEarly(RetriesExhaustedException.Limit limit, int attempt, Decision.Retry failed,
                Duration took) {
            attemptEvent(attempt, Outcome.EXHAUSTED, failed, Optional.empty(), took);
            RetriesExhaustedException e = exhausted(limit, failed);
            return failed(e, Outcome.EXHAUSTED, failed.status(), Optional.of(limit), truncated(failed.answer()));
        }

        private OptionalInt lastStatus() {
            Decision.Retry last = lastRetry;
            return last == null ? OptionalInt.empty() : last.status();
        }

        private boolean end() {
            return ended.compareAndSet(false, true);
        }

        private void endWithError(Throwable e, Outcome outcome, OptionalInt status) {
            endWithError(e, outcome, status, Optional.empty(), Optional.empty(), false);
        }

        private boolean endWithError(Throwable e, Outcome outcome, OptionalInt status, Optional<String> endedBy,
                Optional<RetriesExhaustedException.Limit> limit, boolean truncated) {
            if (!end()) {
                return false;
            }
            context.onError(e);
            report(outcome, status, Optional.empty(), endedBy, limit, truncated);
            return true;
        }

        private void attemptEvent(int attempt, Outcome outcome, Decision.Retry failed, Optional<Duration> delay,
                Duration took) {
            events.attempt(new AttemptEvent(key, attempt, outcome, failed.status(), Optional.empty(), delay,
                    failed.reason(), failed.cause().map(c -> c.getClass().getName()), took,
                    truncated(failed.answer())));
        }

        private static boolean truncated(Optional<IdempotentResponse> answer) {
            return answer.isPresent() && answer.get().bodyTruncated();
        }

        private Duration sinceAttemptStarted() {
            Instant started = attemptStarted;
            return started == null ? Duration.ZERO : nonNegative(Duration.between(started, clock.instant()));
        }

        private void report(Outcome outcome, OptionalInt status, Optional<String> resourceId,
                Optional<String> endedBy, Optional<RetriesExhaustedException.Limit> limit, boolean truncated) {
            events.outcome(new OutcomeEvent(key, attempts.get(), outcome, status, resourceId,
                    nonNegative(Duration.between(start, clock.instant())), endedBy, limit, truncated));
        }

        private static Duration nonNegative(Duration d) {
            // A clock that steps back (NTP on the system clock) must not produce a negative duration.
            return d.isNegative() ? Duration.ZERO : d;
        }

        private RetriesExhaustedException exhausted(RetriesExhaustedException.Limit limit, Decision.Retry last) {
            return new RetriesExhaustedException(key, attempts.get(), limit, last.status(), last.reason(),
                    last.cause().orElse(null), last.answer());
        }
    }
}
