package dev.idempotent.client.testing;

import dev.idempotent.client.Scheduler;
import dev.idempotent.client.Sleeper;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A clock that only moves when something sleeps on it: a backoff of seconds runs in microseconds and a test
 * sees exactly which waits were asked for. As a {@link Scheduler} it does the same for the async path: the clock
 * moves and the returned future is already complete. Thread-safe.
 */
public final class FakeTime extends Clock implements Sleeper, Scheduler {

    private final AtomicReference<Instant> now;
    private final List<Duration> sleeps = new CopyOnWriteArrayList<>();

    public FakeTime(Instant start) {
        this.now = new AtomicReference<>(start);
    }

    public FakeTime() {
        this(Instant.parse("2026-01-01T00:00:00Z"));
    }

    @Override
    public void sleep(Duration duration) {
        if (duration.isNegative()) {
            throw new IllegalArgumentException("negative sleep " + duration);
        }
        sleeps.add(duration);
        now.accumulateAndGet(null, (current, ignored) -> current.plus(duration));
    }

    @Override
    public CompletableFuture<Void> delay(Duration duration) {
        sleep(duration);
        return CompletableFuture.completedFuture(null);
    }

    /** Every wait asked for, in order. */
    public List<Duration> sleeps() {
        return List.copyOf(sleeps);
    }

    public Duration totalSlept() {
        return sleeps.stream().reduce(Duration.ZERO, Duration::plus);
    }

    @Override
    public Instant instant() {
        return now.get();
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        throw new UnsupportedOperationException("FakeTime is UTC only");
    }
}
