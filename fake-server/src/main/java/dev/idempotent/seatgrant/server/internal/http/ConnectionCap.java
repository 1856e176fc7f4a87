package dev.idempotent.seatgrant.server.internal.http;

import io.netty.channel.Channel;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The connection cap: at most {@link HttpSettings#maxConnections()} open connections. A new connection past the
 * cap takes the place of the connection that has been idle longest (kept alive between requests, nothing in
 * hand), as nginx does with its kept-alive connections, so idle keep-alive clients cannot lock out a health check
 * for up to the idle timeout. When every open connection is busy (a request in hand, an answer being written, a
 * connection held by {@code hang-after-commit}) the new one is accepted and closed at once, with one log line a
 * minute at most.
 *
 * <p>Thread-safe: connections arrive on every event loop. The idle connection chosen is closed on its own event
 * loop, and only if it is still idle then; if a request began on it meanwhile, it is kept and the cap is exceeded
 * by one until a connection closes.
 */
final class ConnectionCap {

    private static final long LOG_INTERVAL_NANOS = TimeUnit.MINUTES.toNanos(1);
    private static final Logger LOG = LoggerFactory.getLogger(HttpEngine.class);

    private final int max;
    private final AtomicInteger open = new AtomicInteger();
    private final Set<ConnectionGuard> admitted = ConcurrentHashMap.newKeySet();
    private final AtomicLong refused = new AtomicLong();
    private final AtomicLong nextLog = new AtomicLong(System.nanoTime());

    ConnectionCap(int max) {
        this.max = max;
    }

    /**
     * Counts a new connection and says whether it may be served; one that may not must be closed by the caller.
     * Either way it is counted until it closes. One that may be served is {@link #track tracked} once its pipeline
     * is built.
     */
    boolean admit(Channel channel) {
        int now = open.incrementAndGet();
        channel.closeFuture().addListener(f -> open.decrementAndGet());
        if (now <= max || makeRoom()) {
            return true;
        }
        refused.incrementAndGet();
        long due = nextLog.get();
        if (System.nanoTime() - due >= 0 && nextLog.compareAndSet(due, System.nanoTime() + LOG_INTERVAL_NANOS)) {
            LOG.warn("at the connection cap ({} open, none idle): new connections are closed at once; "
                    + "{} refused since the last such line", max, refused.getAndSet(0));
        }
        return false;
    }

    /** Makes an admitted connection, whose guard is in its pipeline, one that may make room for a later one. */
    void track(Channel channel, ConnectionGuard guard) {
        admitted.add(guard);
        channel.closeFuture().addListener(f -> admitted.remove(guard));
    }

    /** Connections open now, those closed at the cap included until their close completes. */
    int open() {
        return open.get();
    }

    /** Closes the connection idle longest, if any is idle; true when one was chosen. */
    private boolean makeRoom() {
        ConnectionGuard oldest = null;
        long oldestSince = 0;
        for (ConnectionGuard guard : admitted) {
            OptionalLong since = guard.idleSince();
            if (since.isPresent() && (oldest == null || since.getAsLong() - oldestSince < 0)) {
                oldest = guard;
                oldestSince = since.getAsLong();
            }
        }
        // Removed first, so two new connections at once never pick the same one to close.
        if (oldest == null || !admitted.remove(oldest)) {
            return false;
        }
        oldest.closeIfIdle();
        return true;
    }
}
