package dev.idempotent.seatgrant.worker;

import dev.idempotent.client.IdempotentClient;
import dev.idempotent.client.IdempotentRequest;
import dev.idempotent.client.IdempotentRequestException;
import dev.idempotent.client.IdempotentResponse;
import dev.idempotent.seatgrant.worker.GrantListener.OutcomeEvent;
import dev.idempotent.seatgrant.worker.internal.GrantEvents;
import dev.idempotent.seatgrant.worker.internal.SeatProtocol;
import dev.idempotent.seatgrant.worker.internal.SeatsApi;
import io.github.resilience4j.retry.Retry;
import java.time.Clock;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ThreadLocalRandom;
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
 * <p>The protocol is {@code idempotent-client}'s ({@link IdempotentClient}); this class is the seat API's adapter on
 * it: a {@link SeatRequested} becomes a request, a seat body becomes a {@link GrantOutcome}, and one rule ahead of
 * the client's defaults insists that a 2xx names its seat. The client's own log events are off for the worker's
 * calls; the worker writes its own.
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
    public static final String RETRY_NAME = "seat-grant";

    private final SeatGrantConfig config;
    private final SeatsApi api;
    private final IdempotentClient client;
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
        Objects.requireNonNull(sleeper, "sleeper");
        Objects.requireNonNull(clock, "clock");
        Objects.requireNonNull(random, "random");
        this.api = new SeatsApi(config.baseUri());
        RequestCustomizer customizer = config.customizer();
        IdempotentClient.Builder client = IdempotentClient.builder()
                .retryName(RETRY_NAME)
                .resourceIdPointer(SeatProtocol.SEAT_ID_POINTER)
                .rule(SeatProtocol.SEAT_ID_REQUIRED)
                .maxAttempts(config.maxAttempts())
                .baseDelay(config.baseDelay())
                .maxDelay(config.maxDelay())
                .retryAfterCap(config.retryAfterCap())
                .callTimeout(config.callTimeout())
                .attemptTimeout(config.requestTimeout())
                .connectTimeout(config.connectTimeout())
                .requestCustomizer((request, key, attempt) ->
                        customizer.customize(request, new AttemptContext(key, attempt)))
                .listener(SeatProtocol.listener(new GrantEvents(config.listener())))
                // The worker writes its own seat.grant.* events for these calls; the client's would say it twice.
                .logEvents(false)
                .sleeper(sleeper::sleep)
                .clock(clock)
                .jitter(random);
        if (scheduler != null) {
            client.scheduler(scheduler::delay);
        }
        config.httpClient().ifPresent(client::httpClient);
        this.client = client.build();
    }

    /** {@return the configuration this worker runs with} */
    public SeatGrantConfig config() {
        return config;
    }

    /**
     * The one resilience4j Retry every call of this worker runs through, named {@value #RETRY_NAME}: the
     * {@link IdempotentClient#retry()} of the client under the worker. Each call gets a fresh context of it, so its
     * event publisher and {@link Retry.Metrics} count calls and retries; bind any resilience4j metrics module to it
     * (for Micrometer, {@code TaggedRetryMetricsPublisher}). The README lists which outcome lands in which counter.
     *
     * @return the worker's Retry
     */
    public Retry retry() {
        return client.retry();
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
        IdempotentRequest request = api.prepare(event);
        try {
            return SeatProtocol.outcome(deadline.isPresent() ? client.send(request, deadline.get()) : client.send(request));
        } catch (IdempotentRequestException failed) {
            throw SeatProtocol.translate(failed);
        } catch (IllegalStateException closedUnderneath) {
            if (closed) {
                throw closedDuring(event);
            }
            throw closedUnderneath;
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
        IdempotentRequest request = api.prepare(event);
        CompletableFuture<IdempotentResponse> call = deadline.isPresent()
                ? client.sendAsync(request, deadline.get()) : client.sendAsync(request);
        GrantFuture result = new GrantFuture(call);
        call.whenComplete((response, failure) -> result.follow(response, failure));
        return result;
    }

    /**
     * Releases what the worker created: its client's own HTTP client (never the caller's), that client's threads and
     * the timer thread. Grants still running through {@link #handleAsync(SeatRequested)} are cancelled; a
     * {@code handle} call still running ends with {@link IllegalStateException} before its next attempt. Idempotent.
     */
    @Override
    public void close() {
        closed = true;
        client.close();
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
     * The future {@code handleAsync} returns: it follows the client's call, in the worker's words. Anyone who
     * completes it ({@code cancel}, {@code orTimeout}, {@code complete}, ...) completes the client's call the same
     * way first, so the call's one outcome ({@code cancelled}, with its {@code endedBy}) is reported before any thread
     * waiting on this future wakes.
     */
    private static final class GrantFuture extends CompletableFuture<GrantOutcome> {
        private final CompletableFuture<IdempotentResponse> call;
        /** Set once someone else ended the grant: the call's completion then has nothing left to say here. */
        private volatile boolean endedOutside;

        GrantFuture(CompletableFuture<IdempotentResponse> call) {
            this.call = call;
        }

        /** Completes this future as the client's call ended, unless it was ended from outside. */
        void follow(IdempotentResponse response, Throwable failure) {
            if (endedOutside) {
                return;
            }
            if (failure == null) {
                super.complete(SeatProtocol.outcome(response));
                return;
            }
            Throwable cause = failure instanceof CompletionException && failure.getCause() != null
                    ? failure.getCause() : failure;
            if (cause instanceof IllegalStateException && cause.getCause() instanceof CancellationException) {
                // Only the client's close() ends a call this way (its cause stands for the close): the worker's
                // own contract reports a close as a cancellation.
                super.cancel(false);
            } else if (cause instanceof IdempotentRequestException e) {
                super.completeExceptionally(SeatProtocol.translate(e));
            } else {
                // The caller's own code (a customizer) or the scheduler failed: its exception, as it was thrown.
                super.completeExceptionally(cause);
            }
        }

        @Override
        public boolean complete(GrantOutcome value) {
            if (endFromOutside()) {
                call.complete(null);
            }
            return super.complete(value);
        }

        @Override
        public boolean completeExceptionally(Throwable failure) {
            // orTimeout and completeOnTimeout complete through these public methods too.
            if (endFromOutside()) {
                call.completeExceptionally(failure);
            }
            return super.completeExceptionally(failure);
        }

        @Override
        public boolean cancel(boolean mayInterruptIfRunning) {
            if (endFromOutside()) {
                call.cancel(mayInterruptIfRunning);
            }
            return super.cancel(mayInterruptIfRunning);
        }

        @Override
        public void obtrudeValue(GrantOutcome value) {
            if (endFromOutside()) {
                call.complete(null);
            }
            super.obtrudeValue(value);
        }

        @Override
        public void obtrudeException(Throwable failure) {
            if (endFromOutside()) {
                call.completeExceptionally(failure);
            }
            super.obtrudeException(failure);
        }

        private boolean endFromOutside() {
            if (isDone()) {
                return false;
            }
            endedOutside = true;
            return true;
        }
    }
}
