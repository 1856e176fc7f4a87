package dev.idempotent.seatgrant.server;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A clock a test moves by hand, so a lease can expire without anyone waiting for it. It counts how often it was
 * read, so a test can tell that the server has done something it times (read a request's bytes).
 */
public final class MutableClock extends Clock {

    private final AtomicReference<Instant> now;
    private final AtomicInteger reads = new AtomicInteger();

    public MutableClock(Instant start) {
        this.now = new AtomicReference<>(start);
    }

    public void advance(Duration by) {
        now.updateAndGet(t -> t.plus(by));
    }

    /** How many times {@link #instant()} has been called. */
    public int reads() {
        return reads.get();
    }

    @Override
    public Instant instant() {
        reads.incrementAndGet();
        return now.get();
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        throw new UnsupportedOperationException("tests use UTC");
    }
}
