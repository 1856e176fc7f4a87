package dev.idempotent.client.internal;

import dev.idempotent.client.IdempotentListener.OutcomeEvent;
import dev.idempotent.client.IdempotentRequest;
import dev.idempotent.client.IdempotentResponse;
import dev.idempotent.client.KeyForm;
import dev.idempotent.client.Scheduler;
import dev.idempotent.client.Sleeper;
import dev.idempotent.client.Transport;
import dev.idempotent.client.internal.CallPolicy.Step;
import java.io.IOException;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

/**
 * The protocol's state machine: one call's attempts and waits, blocking ({@link #send}) or not ({@link #sendAsync}),
 * each attempt handed to the {@link Transport} and bounded by the {@link Watchdog} above it, each answer classified
 * and settled by the {@link CallPolicy}. {@code IdempotentClient} is its public face. Thread-safe; one per client.
 */
public final class CallRunner implements AutoCloseable {

    private final Transport transport;
    /** The JDK transport when it is the one in use: a blocking call then sends on the caller's thread. */
    private final JdkTransport jdk;
    private final String keyHeader;
    private final KeyForm keyForm;
    /** Where the key goes in the body; null when it goes in the key header. */
    private final KeyInBody keyInBody;
    private final int maxBodyBytes;
    private final Classifier classifier;
    private final CallPolicy policy;
    private final Sleeper sleeper;
    private final Scheduler scheduler;
    private final Watchdog watchdog;
    private final Set<AsyncCall> inFlight = ConcurrentHashMap.newKeySet();
    private volatile boolean closed;

    /**
     * A runner.
     *
     * @param transport    sends each attempt
     * @param keyHeader    the header the key goes in, unless it goes in the body
     * @param keyForm      how the key is written
     * @param keyInBody    where the key goes in the body; null for the header
     * @param maxBodyBytes the most of one answer's body kept
     * @param classifier   what an answer means
     * @param policy       attempts, waits, deadlines, events
     * @param sleeper      how a blocking call waits
     * @param scheduler    how an asynchronous call waits
     * @param watchdog     ends attempts past their budget, and every call on close
     */
    public CallRunner(Transport transport, String keyHeader, KeyForm keyForm, KeyInBody keyInBody, int maxBodyBytes,
            Classifier classifier, CallPolicy policy, Sleeper sleeper, Scheduler scheduler, Watchdog watchdog) {
        this.transport = Objects.requireNonNull(transport, "transport");
        this.jdk = transport instanceof JdkTransport j ? j : null;
        this.keyHeader = Objects.requireNonNull(keyHeader, "keyHeader");
        this.keyForm = Objects.requireNonNull(keyForm, "keyForm");
        this.keyInBody = keyInBody;
        this.maxBodyBytes = maxBodyBytes;
        this.classifier = Objects.requireNonNull(classifier, "classifier");
        this.policy = Objects.requireNonNull(policy, "policy");
        this.sleeper = Objects.requireNonNull(sleeper, "sleeper");
        this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
        this.watchdog = Objects.requireNonNull(watchdog, "watchdog");
    }

    /** What every attempt of one call sends but its number and budget. */
    private record Prepared(IdempotentRequest request, HttpHeaders headers, byte[] body) {
        Transport.Attempt attempt(int number, Duration timeout, int maxBodyBytes) {
            return new Transport.Attempt(request.method(), request.uri(), headers, body, request.key(), number,
                    timeout, maxBodyBytes);
        }
    }

    /**
     * Checks the key and builds what every attempt sends: the request's headers (a name's first value replaces,
     * later ones are added), its {@code Content-Type}, and the key in its header or written into the body.
     */
    private Prepared prepare(IdempotentRequest request) {
        Objects.requireNonNull(request, "request");
        String headerKey = keyForm.encode(request.key());
        byte[] body = keyInBody == null ? request.body() : keyInBody.write(request.body(), headerKey);
        Map<String, List<String>> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        for (Map.Entry<String, String> header : request.headers()) {
            headers.computeIfAbsent(header.getKey(), name -> new ArrayList<>()).add(header.getValue());
        }
        request.contentType().ifPresent(type -> headers.put("Content-Type", List.of(type)));
        if (keyInBody == null) {
            headers.put(keyHeader, List.of(headerKey));
        }
        return new Prepared(request, HttpHeaders.of(headers, (name, value) -> true), body);
    }

    /** The transport's answer as the classifier reads it, cut at the limit if the transport kept more. */
    private Exchange exchange(Transport.Answer answer) {
        byte[] body = answer.body();
        if (body.length > maxBodyBytes) {
            return new Exchange(answer.status(), answer.headers(), Arrays.copyOf(body, maxBodyBytes), true);
        }
        return new Exchange(answer.status(), answer.headers(), body, answer.truncated());
    }

    /**
     * One attempt of a blocking call, on the calling thread: the JDK's is sent in place (the watchdog's interrupt
     * makes the JDK cancel it); another transport's future is waited on and cancelled when the wait is interrupted,
     * so the deadline and {@code close()} end it whether or not its stack can be interrupted.
     */
    private Transport.Answer sendBlocking(Transport.Attempt attempt, HttpRequest jdkRequest)
            throws IOException, InterruptedException {
        if (jdkRequest != null) {
            return jdk.sendBlocking(jdkRequest, attempt.maxBodyBytes());
        }
        CompletableFuture<Transport.Answer> sent = transport.send(attempt);
        try {
            return sent.get();
        } catch (InterruptedException interrupted) {
            sent.cancel(true);
            throw interrupted;
        } catch (ExecutionException failed) {
            Throwable cause = failed.getCause() instanceof CompletionException c && c.getCause() != null
                    ? c.getCause() : failed.getCause();
            if (cause instanceof IOException io) {
                throw io;
            }
            if (cause instanceof RuntimeException runtime) {
                throw runtime;
            }
            if (cause instanceof Error error) {
                throw error;
            }
            throw new CompletionException(cause);
        } catch (CancellationException cancelled) {
            throw new IOException("the transport cancelled the attempt", cancelled);
        }
    }

    /**
     * Runs a blocking call on the calling thread; see {@code IdempotentClient.send}.
     *
     * @param request  the operation
     * @param deadline when the call must have ended, or empty for the call timeout
     * @return the answer that ended the call
     */
    public IdempotentResponse send(IdempotentRequest request, Optional<Instant> deadline) {
        Prepared prepared = prepare(request);
        // Refused here, with IllegalStateException, once the client is closed.
        try (Watchdog.Blocking guard = watchdog.blocking()) {
            CallPolicy.Run run = policy.start(request.key(), deadline);
            while (true) {
                Optional<Duration> timeout = run.begin();
                if (timeout.isEmpty()) {
                    throw run.outOfTime();
                }
                Decision decision;
                try {
                    int attempt = run.attempts();
                    Transport.Attempt sent = prepared.attempt(attempt, timeout.get(), maxBodyBytes);
                    // Built before the attempt is watched, so the watchdog never interrupts the caller's customizer.
                    HttpRequest jdkRequest = jdk == null ? null : jdk.request(sent);
                    Exchange answer = exchange(guard.attempt(timeout.get(), () -> sendBlocking(sent, jdkRequest)));
                    decision = classifier.classify(answer, attempt);
                } catch (Watchdog.Closed closedDuringCall) {
                    throw closed(run, request, closedDuringCall);
                } catch (IOException failure) {
                    decision = classifier.classify(failure);
                } catch (InterruptedException interrupted) {
                    throw run.interrupted(interrupted);
                } catch (RuntimeException callersCode) {
                    // A customizer or a rule threw: report the call, then rethrow as is.
                    run.failed(callersCode);
                    throw callersCode;
                }
                Step step = run.settle(decision);
                if (step instanceof Step.Finished f) {
                    return f.response();
                }
                if (step instanceof Step.Failed f) {
                    throw f.failure();
                }
                Duration delay = ((Step.Wait) step).delay();
                try {
                    guard.await(() -> {
                        sleeper.sleep(delay);
                        return null;
                    });
                } catch (Watchdog.Closed closedDuringCall) {
                    throw closed(run, request, closedDuringCall);
                } catch (InterruptedException interrupted) {
                    throw run.interrupted(interrupted);
                }
            }
        }
    }

    /** Ends a blocking call the client's close() cut short: one {@code cancelled} outcome, ended by the close. */
    private static IllegalStateException closed(CallPolicy.Run run, IdempotentRequest request,
            Watchdog.Closed closedDuringCall) {
        run.cancel(OutcomeEvent.CLOSE);
        return new IllegalStateException("the IdempotentClient was closed during the call for key " + request.key(),
                closedDuringCall.getCause());
    }

    /**
     * Starts an asynchronous call; see {@code IdempotentClient.sendAsync}.
     *
     * @param request  the operation
     * @param deadline when the call must have ended, or empty for the call timeout
     * @return the call's future
     */
    public CompletableFuture<IdempotentResponse> sendAsync(IdempotentRequest request, Optional<Instant> deadline) {
        Prepared prepared = prepare(request);
        ensureOpen();
        AsyncCall call = new AsyncCall(prepared, policy.start(request.key(), deadline));
        inFlight.add(call);
        call.result.whenComplete((response, failure) -> inFlight.remove(call));
        if (closed) {
            // close() ran between ensureOpen() and registering this call and may not have seen it.
            call.closeNow();
        } else {
            call.next();
        }
        return call.result;
    }

    /**
     * Ends every call in flight; see {@code IdempotentClient.close}. Idempotent.
     */
    @Override
    public void close() {
        closed = true;
        watchdog.close();
        for (AsyncCall call : inFlight) {
            call.closeNow();
        }
    }

    private void ensureOpen() {
        if (closed) {
            throw new IllegalStateException("this IdempotentClient is closed");
        }
    }

    /** How a future completed exceptionally from outside ended its call, in {@link OutcomeEvent#endedBy()}'s words. */
    private static String endedBy(Throwable failure) {
        Throwable cause = failure instanceof CompletionException && failure.getCause() != null
                ? failure.getCause() : failure;
        return cause instanceof TimeoutException
                ? OutcomeEvent.TIMEOUT
                : OutcomeEvent.EXCEPTION_PREFIX + cause.getClass().getName();
    }

    /**
     * The future {@code sendAsync} returns. The client completes it through {@link #finish} and {@link #fail};
     * anyone else who completes it first ends the call, so its one outcome is reported before any thread waiting on
     * the future wakes (as Failsafe's {@code FailsafeFuture} does).
     */
    private static final class CallFuture extends CompletableFuture<IdempotentResponse> {
        private AsyncCall call;

        void finish(IdempotentResponse response) {
            super.complete(response);
        }

        void fail(Throwable failure) {
            super.completeExceptionally(failure);
        }

        @Override
        public boolean complete(IdempotentResponse value) {
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
        public CompletableFuture<IdempotentResponse> completeAsync(Supplier<? extends IdempotentResponse> supplier,
                Executor executor) {
            // The JDK completes it later through a method no override sees: the call ends now, as for complete. (The
            // one-argument form calls this one.)
            endFromOutside(OutcomeEvent.COMPLETED);
            return super.completeAsync(supplier, executor);
        }

        @Override
        public void obtrudeValue(IdempotentResponse value) {
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
                call.stop(endedBy);
            }
        }
    }

    /** One asynchronous call: a chain of attempts and waits, each started when the previous one completes. */
    private final class AsyncCall {
        final CallFuture result = new CallFuture();
        private final IdempotentRequest request;
        private final Prepared prepared;
        private final CallPolicy.Run run;
        /** The request or the wait now running, so a cancellation can abandon it. */
        private volatile CompletableFuture<?> current;
        /** Set once the call was ended from outside: nothing the client started may continue it. */
        private volatile boolean stopped;

        AsyncCall(Prepared prepared, CallPolicy.Run run) {
            this.request = prepared.request();
            this.prepared = prepared;
            this.run = run;
            result.call = this;
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
                int attempt = run.attempts();
                CompletableFuture<Transport.Answer> sent =
                        transport.send(prepared.attempt(attempt, timeout.get(), maxBodyBytes));
                // Held before anything is chained on it: cancelling it cancels the exchange itself.
                current = sent;
                if (stopped) {
                    // stop() ran between the check above and this attempt's start and may have missed it.
                    sent.cancel(true);
                    return;
                }
                // The attempt as this call sees it: the transport's answer, or the watchdog's timeout at the budget.
                CompletableFuture<Exchange> answered = new CompletableFuture<>();
                sent.whenComplete((answer, failure) -> {
                    if (failure == null) {
                        answered.complete(exchange(answer));
                    } else {
                        answered.completeExceptionally(failure);
                    }
                });
                watchdog.watch(answered, sent, timeout.get());
                answered.thenApply(answer -> classifier.classify(answer, attempt))
                        .exceptionally(this::classifyFailure)
                        .whenComplete((decision, failure) -> {
                            if (failure != null) {
                                fail(failure);
                            } else {
                                settle(decision);
                            }
                        });
            } catch (RuntimeException e) {
                // The caller's customizer threw: that ends the call with its own exception, as in send.
                fail(e);
            }
        }

        private Decision classifyFailure(Throwable failure) {
            Throwable cause = failure instanceof CompletionException && failure.getCause() != null
                    ? failure.getCause() : failure;
            if (cause instanceof IOException io) {
                return classifier.classify(io);
            }
            throw failure instanceof CompletionException c ? c : new CompletionException(cause);
        }

        private void settle(Decision decision) {
            if (stopped || result.isDone()) {
                return;
            }
            Step step = run.settle(decision);
            if (step instanceof Step.Finished f) {
                result.finish(f.response());
            } else if (step instanceof Step.Failed f) {
                result.fail(f.failure());
            } else if (step instanceof Step.Ended) {
                // Whoever ended the call reported its outcome and completes (or completed) the future.
                return;
            } else {
                CompletableFuture<Void> wait = scheduler.delay(((Step.Wait) step).delay());
                current = wait;
                if (stopped) {
                    wait.cancel(true);
                    return;
                }
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
            // Not a transport failure (those are decisions): report the call once, unless it already ended.
            run.failed(cause);
            result.fail(cause);
        }

        /**
         * The client is closing: end the call as closed and fail its future with {@link IllegalStateException}, as a
         * blocking call ends, unless the call had already ended (its answer or failure is on its way to the future,
         * and the caller gets that).
         */
        void closeNow() {
            if (stop(OutcomeEvent.CLOSE)) {
                result.fail(new IllegalStateException("the IdempotentClient was closed during the call for key "
                        + request.key(), watchdog.closedBy()));
            }
        }

        /**
         * The call was ended from outside: report it as {@code endedBy}, unless it had already ended, and drop the
         * request or the wait that is running.
         */
        boolean stop(String endedBy) {
            stopped = true;
            boolean reported = run.cancel(endedBy);
            CompletableFuture<?> running = current;
            if (running != null) {
                running.cancel(true);
            }
            return reported;
        }
    }
}
