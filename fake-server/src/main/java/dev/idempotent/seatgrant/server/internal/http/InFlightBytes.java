package dev.idempotent.seatgrant.server.internal.http;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The body bytes a server holds at once across all its connections, requests and answers alike, bounded: what keeps
 * a few large bodies arriving together from taking the heap. A reservation that would pass the limit is refused (the
 * caller answers {@code 503 in-flight-limit}); bytes already read are held without asking. One WARN line says when a
 * refusal starts an episode, and one when the bytes held fall back to half the limit, which ends it: a line per
 * episode, never one per request.
 *
 * <p>Thread-safe: every connection's event loop reserves and releases on the one counter.
 */
public final class InFlightBytes {

    private static final Logger LOG = LoggerFactory.getLogger(InFlightBytes.class);

    /** No bound, and no counting: {@code serve}'s, whose bodies are a few hundred bytes each. */
    public static final InFlightBytes UNBOUNDED = new InFlightBytes(Long.MAX_VALUE);

    private final long limit;
    private final AtomicLong held = new AtomicLong();
    private final AtomicBoolean limited = new AtomicBoolean();

    /** @param limit the most bytes held at once; {@link Long#MAX_VALUE} for no bound */
    public InFlightBytes(long limit) {
        if (limit < 1) {
            throw new IllegalArgumentException("the in-flight limit must be 1 byte or more");
        }
        this.limit = limit;
    }

    /** True when there is a limit to keep (and so bytes to count). */
    boolean bounded() {
        return limit != Long.MAX_VALUE;
    }

    /** Takes {@code bytes} if the limit allows; false (and nothing taken) when they would pass it. */
    public boolean tryReserve(long bytes) {
        if (!bounded() || bytes <= 0) {
            return true;
        }
        while (true) {
            long now = held.get();
            if (now + bytes > limit) {
                if (limited.compareAndSet(false, true)) {
                    LOG.warn("in-flight limit of {} bytes reached: requests get 503 until the bytes held fall to {}",
                            limit, limit / 2);
                }
                return false;
            }
            if (held.compareAndSet(now, now + bytes)) {
                return true;
            }
        }
    }

    /** Counts {@code bytes} already in hand, limit or not (an answer being written). */
    public void hold(long bytes) {
        if (bounded() && bytes > 0) {
            held.addAndGet(bytes);
        }
    }

    /** Gives back {@code bytes} taken by {@link #tryReserve} or {@link #hold}. */
    public void release(long bytes) {
        if (!bounded() || bytes <= 0) {
            return;
        }
        long now = held.addAndGet(-bytes);
        if (now <= limit / 2 && limited.compareAndSet(true, false)) {
            LOG.warn("in-flight bytes are back to {} of the {} limit: requests are served again", now, limit);
        }
    }

    /** Bytes held now. */
    public long held() {
        return held.get();
    }
}
