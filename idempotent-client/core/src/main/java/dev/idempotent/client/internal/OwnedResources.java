package dev.idempotent.client.internal;

import dev.idempotent.client.Scheduler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The threads and the client an idempotent client creates for itself, and how it lets them go. Nothing here touches what
 * the caller passed in. Thread-safe.
 *
 * <ul>
 *   <li>The HTTP client runs on an executor of ours, so closing stops its threads at once. On Java 21+
 *       {@code HttpClient.shutdownNow()} and {@code awaitTermination} stop its selector thread too; they are
 *       called reflectively because the release is 17. On 17 the JDK stops that thread by itself once the
 *       client is unreachable.</li>
 *   <li>The default {@link Scheduler} is one daemon thread, started on the first asynchronous wait.</li>
 * </ul>
 */
public final class OwnedResources implements Scheduler, AutoCloseable {

    private static final AtomicInteger INSTANCES = new AtomicInteger();
    private static final Duration CLOSE_WAIT = Duration.ofSeconds(5);

    private final int id = INSTANCES.incrementAndGet();
    private final String threadPrefix;
    private final ExecutorService httpExecutor;
    private final HttpClient client;
    private final Set<Thread> threads = ConcurrentHashMap.newKeySet();
    private ScheduledExecutorService timer;
    private boolean closed;

    /**
     * Resources for one client.
     *
     * @param ownClient      whether to build an HTTP client (false when the caller gave one)
     * @param connectTimeout the connect timeout of that client
     * @param threadPrefix   how the threads' names start (the client's retry name), so a thread dump says whose
     */
    public OwnedResources(boolean ownClient, Duration connectTimeout, String threadPrefix) {
        this.threadPrefix = threadPrefix + "-" + id;
        if (ownClient) {
            this.httpExecutor = Executors.newCachedThreadPool(daemon(this.threadPrefix + "-http-", threads));
            this.client = JdkTransport.newClient(connectTimeout, httpExecutor);
        } else {
            this.httpExecutor = null;
            this.client = null;
        }
    }

    /** {@return how the names of the client's threads start: its retry name and a number} */
    public String threadPrefix() {
        return threadPrefix;
    }

    /** {@return the client this instance built, or null when it uses the caller's} */
    public HttpClient client() {
        return client;
    }

    @Override
    public CompletableFuture<Void> delay(Duration delay) {
        ScheduledExecutorService t;
        synchronized (this) {
            if (closed) {
                return CompletableFuture.failedFuture(new IllegalStateException("the client is closed"));
            }
            if (timer == null) {
                ScheduledThreadPoolExecutor created =
                        new ScheduledThreadPoolExecutor(1, daemon(threadPrefix + "-timer-", threads));
                // A cancelled call's wait leaves the queue at once instead of at its due time.
                created.setRemoveOnCancelPolicy(true);
                timer = created;
            }
            t = timer;
        }
        CompletableFuture<Void> done = new CompletableFuture<>();
        var task = t.schedule(() -> done.complete(null), delay.toNanos(), TimeUnit.NANOSECONDS);
        done.whenComplete((ignored, failure) -> task.cancel(false));
        return done;
    }

    /** Stops the timer thread, the client and its executor; waits a little for their threads to end. */
    @Override
    public void close() {
        ScheduledExecutorService t;
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            t = timer;
        }
        if (t != null) {
            t.shutdownNow();
        }
        if (client != null) {
            shutDownClient(client);
        }
        if (httpExecutor != null) {
            httpExecutor.shutdownNow();
        }
        try {
            if (t != null) {
                t.awaitTermination(CLOSE_WAIT.toMillis(), TimeUnit.MILLISECONDS);
            }
            if (httpExecutor != null) {
                httpExecutor.awaitTermination(CLOSE_WAIT.toMillis(), TimeUnit.MILLISECONDS);
            }
            // An executor reports termination a moment before its last thread has returned; wait for that too.
            for (Thread t2 : List.copyOf(threads)) {
                t2.join(CLOSE_WAIT.toMillis());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** {@code shutdownNow()} then {@code awaitTermination(Duration)}, where the running JDK has them (21+). */
    private static void shutDownClient(HttpClient client) {
        try {
            Method shutdownNow = HttpClient.class.getMethod("shutdownNow");
            Method awaitTermination = HttpClient.class.getMethod("awaitTermination", Duration.class);
            shutdownNow.invoke(client);
            awaitTermination.invoke(client, CLOSE_WAIT);
        } catch (NoSuchMethodException java17) {
            // Java 17: no way to stop the selector thread; it ends once the client is unreachable.
        } catch (IllegalAccessException e) {
            throw new IllegalStateException("HttpClient lifecycle methods are public; this cannot happen", e);
        } catch (InvocationTargetException e) {
            if (e.getCause() instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            } else if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
        }
    }

    /**
     * Daemon threads, each kept in {@code threads} until it has terminated, so close() can join every one that may
     * still be running. A thread that took itself out of the set on its way out would still be alive for a moment
     * after close() returned. Ended threads are dropped as new ones start, which keeps the set as small as the pool.
     * Static, and holding nothing but the set: the JDK's client keeps its executor (and so this factory) reachable
     * from its selector thread, and on Java 17 that thread only ends once nothing reachable from it leads back to
     * the client.
     */
    private static ThreadFactory daemon(String prefix, Set<Thread> threads) {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, prefix + n.incrementAndGet());
            t.setDaemon(true);
            threads.removeIf(old -> old.getState() == Thread.State.TERMINATED);
            threads.add(t);
            return t;
        };
    }
}
