package dev.idempotent.seatgrant.worker;

import dev.idempotent.seatgrant.worker.internal.Backoff;
import dev.idempotent.seatgrant.worker.internal.Classifier;
import dev.idempotent.seatgrant.worker.internal.GrantEvents;
import dev.idempotent.seatgrant.worker.internal.PreparedGrant;
import dev.idempotent.seatgrant.worker.internal.SeatsApi;
import dev.idempotent.seatgrant.worker.internal.Verdict;
import io.github.resilience4j.core.IntervalBiFunction;
import io.github.resilience4j.retry.Retry;
import io.github.resilience4j.retry.RetryConfig;
import java.io.IOException;
import java.net.http.HttpClient;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.DoubleSupplier;

/**
 * Grants the seat a {@code seat.requested} event asks for, at most once per requestId, however often the
 * event is delivered and however the network fails. This is the answer key: copy it.
 *
 * <p>Every POST for an event carries {@code Idempotency-Key: <requestId>}, built once per event. Answers are
 * classified by {@link Classifier} (replay and success end the call, transient failures retry, client errors
 * stop at once); retries run on resilience4j-retry with full-jitter backoff, {@code Retry-After} honoured,
 * at most {@link SeatGrantConfig#maxAttempts()} attempts and a per-event deadline. Each attempt and the
 * outcome are logged as one structured event each (see {@link GrantEvents}).
 *
 * <p>Thread-safe: one instance can serve many consumer threads, and two threads handling the same event at
 * once both end with the same seat (the server answers the loser with an in-progress 409, then a replay).
 */
public final class SeatGrantWorker {

    private final SeatGrantConfig config;
    private final SeatsApi api;
    private final Classifier classifier = new Classifier();
    private final Backoff backoff;
    private final GrantEvents events = new GrantEvents();
    private final Sleeper sleeper;
    private final Clock clock;
    private final DoubleSupplier random;

    /** A worker that sleeps for real and reads the system clock. */
    public SeatGrantWorker(SeatGrantConfig config) {
        this(config, Sleeper.SYSTEM, Clock.systemUTC());
    }

    /**
     * A worker with its own sleeper and clock, so a test can run a backoff of seconds in microseconds and see
     * exactly what the worker asked for. The clock drives the deadline and HTTP-date Retry-After.
     */
    public SeatGrantWorker(SeatGrantConfig config, Sleeper sleeper, Clock clock) {
        this(config, sleeper, clock, () -> ThreadLocalRandom.current().nextDouble());
    }

    SeatGrantWorker(SeatGrantConfig config, Sleeper sleeper, Clock clock, DoubleSupplier random) {
        this.config = Objects.requireNonNull(config, "config");
        this.sleeper = Objects.requireNonNull(sleeper, "sleeper");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.random = Objects.requireNonNull(random, "random");
        HttpClient client = SeatsApi.newClient(config.connectTimeout());
        this.api = new SeatsApi(client, config.baseUri());
        this.backoff = new Backoff(config.baseDelay(), config.maxDelay(), config.retryAfterCap());
    }

    /** The configuration this worker runs with. */
    public SeatGrantConfig config() {
        return config;
    }

    /**
     * Grants the seat for {@code event}, retrying what is safe to retry.
     *
     * @return {@link GrantOutcome.Granted} when this call created the seat, {@link GrantOutcome.Replayed} when
     *     it already existed for this requestId; acknowledge the message either way
     * @throws GrantRejectedException    when the server refused in a way a resend cannot fix
     * @throws GrantExhaustedException   when attempts or the deadline ran out on retryable failures
     * @throws GrantInterruptedException when the thread was interrupted (the flag is restored)
     */
    public GrantOutcome handle(SeatRequested event) {
        Objects.requireNonNull(event, "event");
        String requestId = event.requestId();
        Instant start = clock.instant();
        Instant deadline = start.plus(config.deadline());
        // The key and body are fixed here, once, and resent unchanged on every attempt.
        PreparedGrant grant = api.prepare(event);
        Retry.AsyncContext<Verdict> retry = newRetry(deadline).asyncContext();

        for (int attempt = 1; ; attempt++) {
            Duration remaining = Duration.between(clock.instant(), deadline);
            Verdict verdict;
            try {
                if (remaining.isNegative() || remaining.isZero()) {
                    // Only reachable when an attempt itself outlived the budget; the backoff never sleeps past it.
                    throw exhausted(requestId, attempt - 1, GrantExhaustedException.Limit.DEADLINE,
                            new Verdict.Retry(OptionalInt.empty(), Optional.empty(), "deadline reached", Optional.empty()), start);
                }
                Duration timeout = remaining.compareTo(config.requestTimeout()) < 0 ? remaining : config.requestTimeout();
                verdict = classifier.classify(api.send(grant, timeout));
            } catch (IOException failure) {
                verdict = classifier.classify(failure);
            } catch (InterruptedException interrupted) {
                throw interrupted(requestId, attempt, interrupted, start);
            }

            if (verdict instanceof Verdict.Done done) {
                boolean replayed = done instanceof Verdict.Replay;
                String outcome = replayed ? "replayed" : "granted";
                events.attempt(requestId, attempt, outcome, OptionalInt.of(done.status()), Optional.of(done.seatId()),
                        Optional.empty(), done.reason(), Optional.empty());
                retry.onComplete();
                events.outcome(requestId, attempt, outcome, OptionalInt.of(done.status()), Optional.of(done.seatId()),
                        elapsed(start));
                return replayed
                        ? new GrantOutcome.Replayed(done.seatId(), attempt)
                        : new GrantOutcome.Granted(done.seatId(), attempt);
            }
            if (verdict instanceof Verdict.GiveUp g) {
                events.attempt(requestId, attempt, "rejected", OptionalInt.of(g.status()), Optional.empty(),
                        Optional.empty(), g.reason(), Optional.empty());
                events.outcome(requestId, attempt, "rejected", OptionalInt.of(g.status()), Optional.empty(), elapsed(start));
                throw new GrantRejectedException(requestId, attempt, g.status(), g.reason());
            }
            Verdict.Retry failed = (Verdict.Retry) verdict;
            // resilience4j counts the attempt and asks the interval function; a negative answer means stop.
            long delayMillis = retry.onResult(failed);
            if (delayMillis < 0) {
                GrantExhaustedException.Limit limit = attempt >= config.maxAttempts()
                        ? GrantExhaustedException.Limit.ATTEMPTS : GrantExhaustedException.Limit.DEADLINE;
                events.attempt(requestId, attempt, "exhausted", failed.status(), Optional.empty(), Optional.empty(),
                        failed.reason(), failed.cause());
                throw exhausted(requestId, attempt, limit, failed, start);
            }
            Duration delay = Duration.ofMillis(delayMillis);
            events.attempt(requestId, attempt, "retry", failed.status(), Optional.empty(), Optional.of(delay),
                    failed.reason(), failed.cause());
            try {
                sleeper.sleep(delay);
            } catch (InterruptedException interrupted) {
                throw interrupted(requestId, attempt, interrupted, start);
            }
        }
    }

    /**
     * A resilience4j Retry for one event. "Is this a failure worth another attempt" is the result predicate
     * (a {@link Verdict.Retry}); "when, or stop now" is the interval function, which knows this event's
     * deadline. The async context hands the delay back instead of sleeping, so the wait goes through this
     * worker's injected sleeper rather than resilience4j's process-wide static sleep function.
     */
    private Retry newRetry(Instant deadline) {
        IntervalBiFunction<Verdict> interval = (attempt, result) -> {
            Verdict.Retry failed = (Verdict.Retry) result.get();
            return backoff.next(attempt, failed.retryAfter(), clock.instant(), deadline, random.getAsDouble())
                    .map(Duration::toMillis)
                    .orElse(-1L);
        };
        RetryConfig retryConfig = RetryConfig.<Verdict>custom()
                .maxAttempts(config.maxAttempts())
                .retryOnResult(v -> v instanceof Verdict.Retry)
                .intervalBiFunction(interval)
                .build();
        return Retry.of("seat-grant", retryConfig);
    }

    private GrantExhaustedException exhausted(String requestId, int attempts, GrantExhaustedException.Limit limit,
            Verdict.Retry last, Instant start) {
        events.outcome(requestId, attempts, "exhausted", last.status(), Optional.empty(), elapsed(start));
        return new GrantExhaustedException(requestId, attempts, limit, last.status(), last.reason(),
                last.cause().orElse(null));
    }

    private GrantInterruptedException interrupted(String requestId, int attempt, InterruptedException cause,
            Instant start) {
        Thread.currentThread().interrupt();
        events.outcome(requestId, attempt, "interrupted", OptionalInt.empty(), Optional.empty(), elapsed(start));
        return new GrantInterruptedException(requestId, attempt, cause);
    }

    private Duration elapsed(Instant start) {
        Duration d = Duration.between(start, clock.instant());
        return d.isNegative() ? Duration.ZERO : d;
    }
}
