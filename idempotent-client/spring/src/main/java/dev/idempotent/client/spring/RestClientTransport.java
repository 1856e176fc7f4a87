package dev.idempotent.client.spring;

import dev.idempotent.client.Transport;
import java.io.IOException;
import java.net.http.HttpHeaders;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import org.springframework.http.HttpMethod;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.RestClientException;

/**
 * Sends each attempt of an {@code IdempotentClient} through the service's own Spring {@link RestClient}: its request
 * factory, default headers, message headers and interceptors run on every attempt, and see the key header like any
 * other. Each attempt is one {@code exchange}, so no status handler runs and a status never throws: every answer goes
 * to the client's classifier. The body is read up to the client's limit and the response closed without draining
 * the rest. Thread-safe; the {@code RestClient} is never closed here.
 *
 * <p>{@code RestClient} blocks, so each attempt runs on a daemon thread of this transport's own (idle ones end after
 * a minute). The client's watchdog cancels an attempt at its budget, when the caller cancels, and on
 * {@code close()}: that interrupts the attempt's thread, which aborts the exchange with the JDK's request factory
 * ({@code RestClient.create()} on a plain classpath) and abandons it with a factory that cannot be interrupted: the
 * call ends at once either way, and that thread stays blocked until its factory's own read timeout.
 */
public final class RestClientTransport implements Transport {

    private static final AtomicInteger INSTANCES = new AtomicInteger();

    private final RestClient client;
    private final ExecutorService threads;

    private RestClientTransport(RestClient client) {
        this.client = client;
        int id = INSTANCES.incrementAndGet();
        AtomicInteger count = new AtomicInteger();
        ThreadFactory factory = task -> {
            Thread t = new Thread(task, "idempotent-rest-client-" + id + "-" + count.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
        this.threads = Executors.newCachedThreadPool(factory);
    }

    /**
     * A transport on {@code client}, such as the one {@code RestClient.create()} or {@code RestClient.builder()}
     * gives. Its redirects are its request factory's: the JDK's factory, the default on a plain classpath, follows
     * none unless its {@code HttpClient} was built to.
     *
     * @param client the service's client
     * @return the transport
     */
    public static RestClientTransport of(RestClient client) {
        return new RestClientTransport(Objects.requireNonNull(client, "client"));
    }

    @Override
    public CompletableFuture<Answer> send(Attempt attempt) {
        Pending answer = new Pending();
        answer.running = threads.submit(() -> exchange(attempt, answer));
        if (answer.isCancelled()) {
            // Cancelled before the task was known: interrupt it now.
            answer.running.cancel(true);
        }
        return answer;
    }

    /** An attempt's answer; cancelling it interrupts the thread running the exchange. */
    private static final class Pending extends CompletableFuture<Answer> {
        private volatile Future<?> running;

        @Override
        public boolean cancel(boolean mayInterruptIfRunning) {
            boolean cancelled = super.cancel(mayInterruptIfRunning);
            Future<?> r = running;
            if (r != null) {
                r.cancel(true);
            }
            return cancelled;
        }
    }

    private void exchange(Attempt attempt, CompletableFuture<Answer> answer) {
        if (answer.isDone()) {
            return;
        }
        try {
            RestClient.RequestBodySpec spec = client.method(HttpMethod.valueOf(attempt.method()))
                    .uri(attempt.uri())
                    .headers(headers -> {
                        for (Map.Entry<String, List<String>> header : attempt.headers().map().entrySet()) {
                            // The attempt's values replace a default header of the same name, the key's included.
                            headers.put(header.getKey(), header.getValue());
                        }
                    });
            if (attempt.body().length > 0) {
                spec.body(attempt.body());
            }
            Answer read = spec.exchange((request, response) -> Answer.read(response.getStatusCode().value(),
                    headers(response.getHeaders()), response.getBody(), attempt.maxBodyBytes()), true);
            answer.complete(read);
        } catch (RestClientException failure) {
            answer.completeExceptionally(failure.getCause() instanceof IOException io ? io
                    : new IOException("the exchange failed: " + failure.getClass().getName(), failure));
        } catch (RuntimeException failure) {
            answer.completeExceptionally(failure);
        }
    }

    private static HttpHeaders headers(org.springframework.http.HttpHeaders headers) {
        Map<String, List<String>> map = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        headers.forEach((name, values) -> map.computeIfAbsent(name, n -> new ArrayList<>()).addAll(values));
        return HttpHeaders.of(map, (name, value) -> true);
    }
}
