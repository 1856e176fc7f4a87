package dev.idempotent.seatgrant.worker;

import dev.idempotent.seatgrant.worker.GrantListener.OutcomeEvent;
import dev.idempotent.seatgrant.worker.internal.GrantPolicy;
import dev.idempotent.seatgrant.worker.internal.GrantPolicy.Step;
import dev.idempotent.seatgrant.worker.internal.OwnedResources;
import dev.idempotent.seatgrant.worker.internal.PreparedGrant;
import dev.idempotent.seatgrant.worker.internal.SeatsApi;
import dev.idempotent.seatgrant.worker.internal.Verdict;
import io.github.resilience4j.retry.Retry;
import java.io.IOException;
import java.net.http.HttpClient;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeoutException;
import java.util.function.DoubleSupplier;

/**
 * Grants the seat a {@code seat.requested} event asks for, at most once per requestId, however often the event is
 * delivered and however the network fails. This is the answer key: depend on it, or copy it.
 *
 * <p>Every POST for an event carries {@code Idempotency-Key: <requestId>}, built once per event. Answers are
 * classified (replay and success end the call, transient failures retry, client errors stop at once); every call
 * runs through this worker's one resilience4j {@link #retry() Retry} with full-jitter backoff, {@code Retry-After}
 * honoured, at most {@link SeatGrantConfig#maxAttempts()} attempts and a per-call deadline. Each attempt and each
 * outcome is one structured log event on {@link #LOGGER_NAME} and one {@link GrantListener} call.
 *
 * <p>Thread-safe: build one per process and share it between consumer threads; two threads handling the same
 * event at once both end with the same seat (the server answers the loser with an in-progress 409, then a
 * replay). {@link #close()} it when the consumers have stopped: it releases the HTTP client and the threads the
 * worker created (never a client the caller passed in); a closed worker refuses new work with
 * {@link IllegalStateException}.
 */
public final class SeatGrantWorker implements AutoCloseable {

    /** The logger every structured event is written to, for routing or levelling them in a logging config. */
    public static final String LOGGER_NAME = "dev.idempotent.seatgrant.worker.events";

    /** The name of the worker's resilience4j {@link Retry}, which metrics modules use as a tag. */
    public static final String RETRY_NAME = GrantPolicy.RETRY_NAME;

    private final SeatGrantConfig config;
    private final OwnedResources owned;
    private final SeatsApi api;
    private final GrantPolicy policy;
    private final Sleeper sleeper;
    private final Scheduler scheduler;
    private final Set<AsyncGrant> inFlight = ConcurrentHashMap.newKeySet();
    private volatile boolean closed;

    /**
     * A worker that waits for real and reads the system clock.
     *
     * @param config what to call and how hard to try
     */
    public SeatGrantWorker(SeatGrantConfig config) {
        this(config, Sleeper.SYSTEM, Clock.systemUTC());
    }

    /**
     * A worker with its own sleeper and clock, so a test can run a backoff of seconds in microseconds and see
     * exactly what the worker asked for. The clock drives the deadline and HTTP-date Retry-After;
     * {@link #handleAsync(SeatRequested)} waits on the worker's own timer thread.
     *
     * @param config  what to call and how hard to try
     * @param sleeper how {@link #handle(SeatRequested)} waits between attempts
     * @param clock   the time deadlines and Retry-After dates are measured on
     */
    public SeatGrantWorker(SeatGrantConfig config, Sleeper sleeper, Clock clock) {
        this(config, sleeper, null, clock, () -> ThreadLocalRandom.current().nextDouble());
    }

    /**
     * A worker with its own sleeper, scheduler and clock: the sleeper serves {@link #handle(SeatRequested)}, the
     * scheduler {@link #handleAsync(SeatRequested)}.
     *
     * @param config    what to call and how hard to try
     * @param sleeper   how {@code handle} waits between attempts
     * @param scheduler how {@code handleAsync} waits between attempts
     * @param clock     the time deadlines and Retry-After dates are measured on
     */
    public SeatGrantWorker(SeatGrantConfig config, Sleeper sleeper, Scheduler scheduler, Clock clock) {
        this(config, sleeper, Objects.requireNonNull(scheduler, "scheduler"), clock,
                () -> ThreadLocalRandom.current().nextDouble());
    }

    SeatGrantWorker(SeatGrantConfig config, Sleeper sleeper, Scheduler scheduler, Clock clock, DoubleSupplier random) {
        this.config = Objects.requireNonNull(config, "config");
        this.sleeper = Objects.requireNonNull(sleeper, "sleeper");
        Objects.requireNonNull(clock, "clock");
        Objects.requireNonNull(random, "random");
        this.owned = new OwnedResources(config.httpClient().isEmpty(), config.connectTimeout());
        this.scheduler = scheduler != null ? scheduler : owned;
        HttpClient client = config.httpClient().orElseGet(owned::client);
        this.api = new SeatsApi(client, config.baseUri(), config.customizer());
        this.policy = new GrantPolicy(config, clock, random);
    }

    /** {@return the configuration this worker runs with} */
    public SeatGrantConfig config() {
        return config;
    }

    /**
     * The one resilience4j Retry every call of this worker runs through, named {@value #RETRY_NAME}. Each call
     * gets a fresh context of it, so its event publisher and {@link Retry.Metrics} count calls and retries; bind
     * any resilience4j metrics module to it (for Micrometer, {@code TaggedRetryMetricsPublisher}). The README
     * lists which outcome lands in which counter.
     *
     * @return the worker's Retry
     */
    public Retry retry() {
        return policy.retry();
    }

    /**
     * Grants the seat for {@code event}, retrying what is safe to retry, within {@link SeatGrantConfig#callTimeout()}.
     *
     * @param event the event to grant
     * @return {@link GrantOutcome.Granted} when this call created the seat, {@link GrantOutcome.Replayed} when it
     *     already existed for this requestId; acknowledge the message either way
     * @throws GrantRejectedException    when the server refused in a way a resend cannot fix
     * @throws GrantExhaustedException   when attempts or the call timeout ran out on retryable failures
     * @throws GrantInterruptedException when the thread was interrupted (the flag is restored)
     * @throws IllegalStateException     when the worker is closed, or was closed during the call
     */
    public GrantOutcome handle(SeatRequested event) {
        return handle(event, Optional.empty());
    }

    /**
     * Grants the seat for {@code event} before {@code deadline}, say the time a queue message stops being invisible.
     * The earlier of the deadline and {@link SeatGrantConfig#callTimeout()} wins; running out of it is
     * {@link GrantExhaustedException.Limit#DEADLINE}, and a deadline already past sends nothing.
     *
     * @param event    the event to grant
     * @param deadline when the call must have ended, on the worker's clock
     * @return {@link GrantOutcome.Granted} or {@link GrantOutcome.Replayed}; acknowledge the message either way
     * @throws GrantRejectedException    when the server refused in a way a resend cannot fix
     * @throws GrantExhaustedException   when attempts or time ran out on retryable failures
     * @throws GrantInterruptedException when the thread was interrupted (the flag is restored)
     * @throws IllegalStateException     when the worker is closed, or was closed during the call
     */
    public GrantOutcome handle(SeatRequested event, Instant deadline) {
        return handle(event, Optional.of(Objects.requireNonNull(deadline, "deadline")));
    }

    private GrantOutcome handle(SeatRequested event, Optional<Instant> deadline) {
        Objects.requireNonNull(event, "event");
        ensureOpen();
        // The key and body are fixed here, once, and resent unchanged on every attempt.
        PreparedGrant grant = api.prepare(event);
        GrantPolicy.Run run = policy.start(event.requestId(), deadline);
        while (true) {
            if (closed) {
                run.cancel(OutcomeEvent.CLOSE);
                throw closedDuring(event);
            }
            Optional<Duration> timeout = run.begin();
            if (timeout.isEmpty()) {
                throw run.outOfTime();
            }
            Verdict verdict;
            try {
                verdict = policy.classifier().classify(api.send(grant, run.attempts(), timeout.get()));
            } catch (IOException failure) {
                verdict = policy.classifier().classify(failure);
            } catch (InterruptedException interrupted) {
                throw run.interrupted(interrupted);
            } catch (RuntimeException callersCode) {
                // The request customizer (or a header it tried to set) threw: report the call, then rethrow as is.
                run.failed(callersCode);
                throw callersCode;
            }
            Step step = run.settle(verdict);
            if (step instanceof Step.Finished f) {
                return f.outcome();
            }
            if (step instanceof Step.Failed f) {
                throw f.failure();
            }
            try {
                sleeper.sleep(((Step.Wait) step).delay());
            } catch (InterruptedException interrupted) {
                throw run.interrupted(interrupted);
            }
        }
    }

    /**
     * Does what {@link #handle(SeatRequested)} does without holding a thread during a request or a backoff: the
     * request goes out with {@code HttpClient.sendAsync}, and the waits run on the worker's {@link Scheduler}. The
     * same classification, events, listener calls and resilience4j counting.
     *
     * <p>The future completes with {@link GrantOutcome.Granted} or {@link GrantOutcome.Replayed}, or exceptionally
     * with a {@link GrantRejectedException} or {@link GrantExhaustedException} (unwrapped: {@code join()} wraps it
     * in a {@link CompletionException}, {@code get()} in an {@link java.util.concurrent.ExecutionException}).
     *
     * <p>Whoever else completes the future first ends the grant: {@code cancel}, {@code orTimeout},
     * {@code completeOnTimeout}, {@code complete} or {@code completeExceptionally}. The worker then starts no further
     * attempt, abandons the request in flight, if any (the server may still commit it; redelivery is safe), and
     * reports exactly one outcome for the grant, {@code cancelled}, with {@link OutcomeEvent#endedBy()} saying how it
     * was ended; the log event and the listener call run on the thread that completed the future. Closing the
     * worker cancels every future still running ({@code endedBy} {@value OutcomeEvent#CLOSE}).
     *
     * @param event the event to grant
     * @return the grant's future
     * @throws IllegalStateException when the worker is closed
     */
    public CompletableFuture<GrantOutcome> handleAsync(SeatRequested event) {
        return handleAsync(event, Optional.empty());
    }

    /**
     * Does what {@link #handle(SeatRequested, Instant)} does without holding a thread: the grant must end before
     * {@code deadline}, and running out of it completes the future exceptionally with the same
     * {@link GrantExhaustedException} ({@link GrantExhaustedException.Limit#DEADLINE}) the synchronous form throws,
     * not with a cancellation. The earlier of the deadline and {@link SeatGrantConfig#callTimeout()} wins; each
     * attempt's request timeout is cut to the time left, no wait runs into the deadline, and a deadline already past
     * sends nothing. Everything else is as for {@link #handleAsync(SeatRequested)}.
     *
     * <p>Prefer this to {@code orTimeout} when the time is the message's: a deadline ends the grant as the worker's
     * own outcome ({@code exhausted}), and the future's exception says how many attempts were made and what the
     * last one got.
     *
     * @param event    the event to grant
     * @param deadline when the grant must have ended, on the worker's clock
     * @return the grant's future
     * @throws IllegalStateException when the worker is closed
     */
    public CompletableFuture<GrantOutcome> handleAsync(SeatRequested event, Instant deadline) {
        return handleAsync(event, Optional.of(Objects.requireNonNull(deadline, "deadline")));
    }

    private CompletableFuture<GrantOutcome> handleAsync(SeatRequested event, Optional<Instant> deadline) {
        Objects.requireNonNull(event, "event");
        ensureOpen();
        AsyncGrant grant = new AsyncGrant(api.prepare(event), policy.start(event.requestId(), deadline));
        inFlight.add(grant);
        grant.result.whenComplete((outcome, failure) -> inFlight.remove(grant));
        if (closed) {
            // close() ran between ensureOpen() and registering this grant and may not have seen it.
            grant.closeNow();
        } else {
            grant.next();
        }
        return grant.result;
    }

    /** How a future completed exceptionally from outside ended its grant, in {@link OutcomeEvent#endedBy()}'s words. */
    private static String endedBy(Throwable failure) {
        Throwable cause = failure instanceof CompletionException && failure.getCause() != null
                ? failure.getCause() : failure;
        return cause instanceof TimeoutException
                ? OutcomeEvent.TIMEOUT
                : OutcomeEvent.EXCEPTION_PREFIX + cause.getClass().getName();
    }

    /**
     * Releases what the worker created: its HTTP client (never the caller's), the client's threads and the timer
     * thread. Grants still running through {@link #handleAsync(SeatRequested)} are cancelled; a {@code handle}
     * call still running ends with {@link IllegalStateException} before its next attempt. Idempotent.
     */
    @Override
    public void close() {
        closed = true;
        for (AsyncGrant grant : inFlight) {
            grant.closeNow();
        }
        owned.close();
    }

    private void ensureOpen() {
        if (closed) {
            throw new IllegalStateException("this SeatGrantWorker is closed");
        }
    }

    private static IllegalStateException closedDuring(SeatRequested event) {
        return new IllegalStateException("the SeatGrantWorker was closed during the grant for requestId "
                + event.requestId());
    }

    /**
     * The future {@code handleAsync} returns. The worker completes it through {@link #finish} and {@link #fail};
     * anyone else who completes it ({@code cancel}, {@code orTimeout}, {@code complete}, ...) first ends the grant,
     * so its one outcome is reported before any thread waiting on the future wakes. Failsafe's {@code FailsafeFuture}
     * overrides the same methods so that a completion from outside stops its execution and runs its handlers.
     * Dependent stages are plain {@link CompletableFuture}s.
     */
    private static final class GrantFuture extends CompletableFuture<GrantOutcome> {
        private AsyncGrant grant;

        void finish(GrantOutcome outcome) {
            super.complete(outcome);
        }

        void fail(Throwable failure) {
            super.completeExceptionally(failure);
        }

        void cancelQuietly() {
            super.cancel(false);
        }

        @Override
        public boolean complete(GrantOutcome value) {
            endFromOutside(OutcomeEvent.COMPLETED);
            return super.complete(value);
        }

        @Override
        public boolean completeExceptionally(Throwable failure) {
            // orTimeout and completeOnTimeout complete through these public methods too.
            endFromOutside(endedBy(failure));
            return super.completeExceptionally(failure);
        }

        @Override
        public boolean cancel(boolean mayInterruptIfRunning) {
            endFromOutside(OutcomeEvent.CANCEL);
            return super.cancel(mayInterruptIfRunning);
        }

        @Override
        public void obtrudeValue(GrantOutcome value) {
            endFromOutside(OutcomeEvent.COMPLETED);
            super.obtrudeValue(value);
        }

        @Override
        public void obtrudeException(Throwable failure) {
            endFromOutside(endedBy(failure));
            super.obtrudeException(failure);
        }

        private void endFromOutside(String endedBy) {
            if (!isDone()) {
                grant.stop(endedBy);
            }
        }
    }

    /** One asynchronous call: a chain of attempts and waits, each started when the previous one completes. */
    private final class AsyncGrant {
        final GrantFuture result = new GrantFuture();
        private final PreparedGrant grant;
        private final GrantPolicy.Run run;
        /** The request or the wait now running, so a cancellation can abandon it. */
        private volatile CompletableFuture<?> current;
        /** Set once the grant was ended from outside: nothing the worker started may continue it. */
        private volatile boolean stopped;

        AsyncGrant(PreparedGrant grant, GrantPolicy.Run run) {
            this.grant = grant;
            this.run = run;
            result.grant = this;
        }

        void next() {
            if (stopped || result.isDone()) {
                return;
            }
            try {
                Optional<Duration> timeout = run.begin();
                if (timeout.isEmpty()) {
                    result.fail(run.outOfTime());
                    return;
                }
                CompletableFuture<Verdict> attempt = api.sendAsync(grant, run.attempts(), timeout.get())
                        .thenApply(policy.classifier()::classify)
                        .exceptionally(this::classifyFailure);
                current = attempt;
                attempt.whenComplete((verdict, failure) -> {
                    if (failure != null) {
                        fail(failure);
                    } else {
                        settle(verdict);
                    }
                });
            } catch (RuntimeException e) {
                // The caller's request customizer threw: that ends the call with its own exception, as in handle.
                fail(e);
            }
        }

        private Verdict classifyFailure(Throwable failure) {
            Throwable cause = failure instanceof CompletionException && failure.getCause() != null
                    ? failure.getCause() : failure;
            if (cause instanceof IOException io) {
                return policy.classifier().classify(io);
            }
            throw failure instanceof CompletionException c ? c : new CompletionException(cause);
        }

        private void settle(Verdict verdict) {
            if (stopped || result.isDone()) {
                return;
            }
            Step step = run.settle(verdict);
            if (step instanceof Step.Finished f) {
                result.finish(f.outcome());
            } else if (step instanceof Step.Failed f) {
                result.fail(f.failure());
            } else {
                CompletableFuture<Void> wait = scheduler.delay(((Step.Wait) step).delay());
                current = wait;
                wait.whenComplete((ignored, failure) -> {
                    if (failure != null) {
                        fail(failure);
                    } else {
                        next();
                    }
                });
            }
        }

        private void fail(Throwable failure) {
            if (stopped || result.isDone()) {
                return;
            }
            Throwable cause = failure instanceof CompletionException && failure.getCause() != null
                    ? failure.getCause() : failure;
            // Not a transport failure (those are verdicts): report the call once, unless it already ended.
            run.failed(cause);
            result.fail(cause);
        }

        /** The worker is closing: end the grant as closed, then cancel its future. */
        void closeNow() {
            stop(OutcomeEvent.CLOSE);
            result.cancelQuietly();
        }

        /**
         * The grant was ended from outside: report it as {@code endedBy}, unless it had already ended, and drop the
         * request or the wait that is running, so no further attempt starts and nothing the worker started
         * completes the future.
         */
        void stop(String endedBy) {
            stopped = true;
            run.cancel(endedBy);
            CompletableFuture<?> running = current;
            if (running != null) {
                running.cancel(true);
            }
        }
    }
}
