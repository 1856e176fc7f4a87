package dev.idempotent.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idempotent.client.IdempotentListener.Outcome;
import dev.idempotent.client.IdempotentListener.OutcomeEvent;
import dev.idempotent.client.testing.FakeTime;
import dev.idempotent.client.testing.ScriptedServer;
import dev.idempotent.client.testing.ScriptedServer.Answer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * An attempt's budget covers the whole exchange, and an abandoned attempt is really abandoned: a server that sends
 * its headers and then stalls the body cannot hold a call past its budget (the JDK's own request timeout stops at
 * the headers), cancelling a future cancels its exchange, a future completed from outside in any way ends the
 * call at once, and a close after the outcome leaves the call its answer.
 */
class WholeExchangeTest {

    private final FakeTime time = new FakeTime();
    private final List<OutcomeEvent> outcomes = new CopyOnWriteArrayList<>();
    private final IdempotentListener listener = new IdempotentListener() {
        @Override
        public void onOutcome(OutcomeEvent outcome) {
            outcomes.add(outcome);
        }
    };

    /**
     * A loopback server that answers every request with the headers of a 201 and the first byte of a 100-byte body,
     * then sends nothing more; it notes when a client closes the connection. Bounded: it closes everything after
     * 30 s, or when the test closes it.
     */
    private static final class StallingServer implements AutoCloseable {
        final ServerSocket socket;
        final CountDownLatch clientLeft = new CountDownLatch(1);
        final CountDownLatch headersSent = new CountDownLatch(1);
        private final Thread acceptor;

        StallingServer() throws IOException {
            socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
            socket.setSoTimeout(30_000);
            acceptor = new Thread(this::serve, "stalling-server");
            acceptor.setDaemon(true);
            acceptor.start();
        }

        URI uri() {
            return URI.create("http://127.0.0.1:" + socket.getLocalPort() + "/orders");
        }

        private void serve() {
            try (Socket client = socket.accept()) {
                client.setSoTimeout(30_000);
                InputStream in = client.getInputStream();
                in.readNBytes(contentLength(readHeaders(in)));
                OutputStream out = client.getOutputStream();
                out.write(("HTTP/1.1 201 Created\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{")
                        .getBytes(StandardCharsets.US_ASCII));
                out.flush();
                headersSent.countDown();
                try {
                    if (in.read() == -1) {
                        clientLeft.countDown();
                    }
                } catch (SocketTimeoutException stillThere) {
                    // 30 s passed and the client kept the connection: it did not leave.
                } catch (IOException reset) {
                    // A client that closes with the unread "{" still in its buffer resets the connection instead of
                    // ending it: it left all the same.
                    clientLeft.countDown();
                }
            } catch (IOException closedOrTimedOut) {
                // The test ended, or 30 s passed.
            }
        }

        /** Reads up to the blank line that ends the headers; returns them. */
        private static String readHeaders(InputStream in) throws IOException {
            StringBuilder headers = new StringBuilder();
            while (headers.length() < 4 || !headers.substring(headers.length() - 4).equals("\r\n\r\n")) {
                int b = in.read();
                if (b == -1) {
                    throw new IOException("closed before the headers ended");
                }
                headers.append((char) b);
            }
            return headers.toString();
        }

        private static int contentLength(String headers) {
            for (String line : headers.split("\r\n")) {
                if (line.toLowerCase(java.util.Locale.ROOT).startsWith("content-length:")) {
                    return Integer.parseInt(line.substring("content-length:".length()).trim());
                }
            }
            return 0;
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }

    enum Mode { SYNC, ASYNC }

    private IdempotentClient client(Duration attemptTimeout) {
        return IdempotentClient.builder().sleeper(time).scheduler(time).clock(time).listener(listener)
                .resourceIdPointer("/id").maxAttempts(1).attemptTimeout(attemptTimeout).build();
    }

    private static IdempotentRequest order(URI uri, String key) {
        return IdempotentRequest.post(uri, key).json("{\"sku\":\"a\",\"quantity\":10}").build();
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    @Timeout(20)
    void aBodyThatStallsAfterTheHeadersTimesOutWithinTheAttemptsBudget(Mode mode) throws Exception {
        try (StallingServer s = new StallingServer();
                IdempotentClient c = client(Duration.ofMillis(300))) {
            RetriesExhaustedException e = assertThrows(RetriesExhaustedException.class, () -> {
                if (mode == Mode.SYNC) {
                    c.send(order(s.uri(), "k_body"));
                } else {
                    try {
                        c.sendAsync(order(s.uri(), "k_body")).get(15, TimeUnit.SECONDS);
                    } catch (ExecutionException failed) {
                        throw failed.getCause();
                    }
                }
            });
            assertTrue(s.headersSent.await(10, TimeUnit.SECONDS), "the server sent its headers");
            assertEquals(RetriesExhaustedException.Limit.ATTEMPTS, e.limit());
            assertInstanceOf(HttpTimeoutException.class, e.getCause());
            assertEquals(OptionalInt.empty(), e.status(), "no whole answer arrived");
            assertTrue(s.clientLeft.await(10, TimeUnit.SECONDS), "the timed-out exchange was closed, not left open");
            assertEquals(List.of(Outcome.EXHAUSTED), outcomes.stream().map(OutcomeEvent::outcome).toList());
        }
    }

    @Test
    @Timeout(20)
    void cancellingTheFutureCancelsTheExchangeInFlight() throws Exception {
        try (StallingServer s = new StallingServer();
                IdempotentClient c = client(Duration.ofSeconds(25))) {
            CompletableFuture<IdempotentResponse> f = c.sendAsync(order(s.uri(), "k_cancel"));
            assertTrue(s.headersSent.await(10, TimeUnit.SECONDS));
            assertTrue(f.cancel(true));
            // Within the attempt's 25 s budget the exchange would otherwise stay open, waiting for the body.
            assertTrue(s.clientLeft.await(10, TimeUnit.SECONDS), "cancelling the call closed its exchange");
            assertEquals(List.of(Optional.of(OutcomeEvent.CANCEL)), outcomes.stream().map(OutcomeEvent::endedBy).toList());
        }
    }

    @Test
    @Timeout(20)
    void closingTheClientEndsABodyStillBeingRead() throws Exception {
        try (StallingServer s = new StallingServer()) {
            // The caller's HTTP client, which close() leaves running: only the client's watchdog can end the read.
            IdempotentClient c = IdempotentClient.builder().sleeper(time).scheduler(time).clock(time)
                    .httpClient(java.net.http.HttpClient.newBuilder()
                            .followRedirects(java.net.http.HttpClient.Redirect.NEVER).build())
                    .maxAttempts(1).attemptTimeout(Duration.ofSeconds(25)).build();
            CompletableFuture<Throwable> ended = CompletableFuture.supplyAsync(() -> {
                try {
                    c.send(order(s.uri(), "k_close"));
                    return null;
                } catch (RuntimeException e) {
                    return e;
                }
            });
            assertTrue(s.headersSent.await(10, TimeUnit.SECONDS));
            c.close();
            // Within the attempt's 25 s budget, nothing else would end the read.
            IllegalStateException e = assertInstanceOf(IllegalStateException.class, ended.get(10, TimeUnit.SECONDS));
            assertInstanceOf(java.util.concurrent.CancellationException.class, e.getCause());
            assertTrue(s.clientLeft.await(10, TimeUnit.SECONDS), "the read was cancelled");
        }
    }

    @Test
    void completeAsyncEndsTheCallAsCompleted() throws Exception {
        try (ScriptedServer s = new ScriptedServer(n -> new Answer(201, "{\"id\":\"o\"}")).holding();
                IdempotentClient c = client(Duration.ofSeconds(5))) {
            CompletableFuture<IdempotentResponse> f = c.sendAsync(order(s.uri("/orders"), "k_async"));
            s.awaitArrival();
            assertSame(f, f.completeAsync(() -> null));
            assertEquals(null, f.get(30, TimeUnit.SECONDS));
            assertEquals(List.of(Optional.of(OutcomeEvent.COMPLETED)),
                    outcomes.stream().map(OutcomeEvent::endedBy).toList());
            s.release();
        }
    }

    @Test
    void closingTheClientAfterTheOutcomeLeavesTheCallItsAnswer() throws Exception {
        try (ScriptedServer s = new ScriptedServer(n -> new Answer(201, "{\"id\":\"o_9\"}"))) {
            CompletableFuture<IdempotentResponse> answered = new CompletableFuture<>();
            IdempotentClient[] client = new IdempotentClient[1];
            IdempotentListener closesOnOutcome = new IdempotentListener() {
                @Override
                public void onOutcome(OutcomeEvent outcome) {
                    outcomes.add(outcome);
                    // The outcome is reported before the future completes: a close right now must not turn the
                    // created order into a cancellation.
                    client[0].close();
                }
            };
            client[0] = IdempotentClient.builder().sleeper(time).scheduler(time).clock(time).listener(closesOnOutcome)
                    .resourceIdPointer("/id").build();
            client[0].sendAsync(order(s.uri("/orders"), "k_late_close")).whenComplete((r, failure) -> {
                if (failure == null) {
                    answered.complete(r);
                } else {
                    answered.completeExceptionally(failure);
                }
            });
            IdempotentResponse r = answered.get(30, TimeUnit.SECONDS);
            assertEquals(Optional.of("o_9"), r.resourceId());
            assertEquals(List.of(Outcome.CREATED), outcomes.stream().map(OutcomeEvent::outcome).toList());
            assertFalse(r.replayed());
        }
    }
}
