package dev.idempotent.seatgrant.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The proxy's pool of upstream connections when it is full: an answer the upstream was not asked for never reaches
 * a client (RFC 9112 section 6.3), and a request that never got a connection is {@code 503 upstream-busy}, not a
 * {@code 504} that says the upstream may have acted.
 */
class ProxyUpstreamPoolTest {

    /** A {@code 201} naming {@code /orders/ID}, with {@code ID} as its body. */
    private static String created(String id) {
        return "HTTP/1.1 201 Created\r\nLocation: /orders/" + id + "\r\nContent-Length: " + id.length()
                + "\r\n\r\n" + id;
    }

    /** What the upstream writes after its answer to the first order, in the same write. */
    static List<String> unrequested() {
        return List.of(created("unrequested"),
                // A head whose body is still to come: the next answer's bytes would be read as the rest of it.
                "HTTP/1.1 201 Created\r\nLocation: /orders/unrequested\r\nContent-Length: 40\r\n\r\nunreq");
    }

    @ParameterizedTest
    @MethodSource("unrequested")
    void anUnrequestedSecondAnswerIsNeverHandedToAClientWaitingForTheConnection(String extra) throws Exception {
        CountDownLatch firstMayAnswer = new CountDownLatch(1);
        try (ScriptedUpstream upstream = new ScriptedUpstream(r -> {
            if (!r.body().equals("first")) {
                return ScriptedUpstream.bytes(created(r.body()));
            }
            try {
                firstMayAnswer.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            // Its own answer and one nobody asked for, in one write.
            return ScriptedUpstream.bytes(created("first") + extra);
        });
             FakeProxy proxy = FakeProxy.start(ProxyConfig.builder(upstream.baseUri())
                     .maxUpstreamConnections(1).build())) {
            Http client = new Http(proxy.baseUri());
            CompletableFuture<HttpResponse<String>> first = post(client, "first");
            Await.until(Duration.ofSeconds(10), "the first order to hold the only upstream connection",
                    () -> upstream.received().size() == 1);
            List<CompletableFuture<HttpResponse<String>>> waiting = new ArrayList<>();
            for (String id : List.of("second", "third")) {
                waiting.add(post(client, id));
            }
            Await.until(Duration.ofSeconds(10), "two orders to wait for the pooled connection",
                    () -> proxy.upstreamWaiting() == 2);

            firstMayAnswer.countDown();

            assertOwnAnswer("first", first.get(30, TimeUnit.SECONDS));
            assertOwnAnswer("second", waiting.get(0).get(30, TimeUnit.SECONDS));
            assertOwnAnswer("third", waiting.get(1).get(30, TimeUnit.SECONDS));
            assertEquals(new ProxyLedger(3, 3, List.of()), proxy.ledger());
            for (JournalEntry entry : proxy.journal()) {
                assertEquals("/orders/" + entry.idempotencyKey(), entry.seatId(),
                        "each operation is credited with what it created: " + entry);
            }
            assertEquals(List.of("first", "second", "third"),
                    upstream.received().stream().map(ScriptedUpstream.Received::body).sorted().toList(),
                    "each order went upstream once, and nothing else did");
        }
    }

    private static CompletableFuture<HttpResponse<String>> post(Http client, String id) {
        return client.client().sendAsync(HttpRequest.newBuilder(client.uri("/orders"))
                .timeout(Duration.ofSeconds(30)).header("Idempotency-Key", id)
                .POST(HttpRequest.BodyPublishers.ofString(id)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static void assertOwnAnswer(String id, HttpResponse<String> answer) {
        assertEquals(201, answer.statusCode(), id + ": " + answer.body());
        assertEquals(id, answer.body());
        assertEquals("/orders/" + id, answer.headers().firstValue("Location").orElse(null));
    }

    @Test
    void aWaitForAPooledConnectionThatRunsOutIsA503UpstreamBusyAndNothingIsCounted() throws Exception {
        try (ServerSocket silent = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
             Backlog full = Backlog.fill(silent);
             FakeProxy proxy = FakeProxy.start(ProxyConfig.builder(
                     URI.create("http://127.0.0.1:" + silent.getLocalPort()))
                     .maxUpstreamConnections(1).upstreamTimeout(Duration.ofMillis(400)).build())) {
            Http client = new Http(proxy.baseUri());
            // The first waits for the only connection to be made, the second for the first to give it back.
            CompletableFuture<HttpResponse<String>> connecting = post(client, "a");
            CompletableFuture<HttpResponse<String>> queued = post(client, "b");

            for (HttpResponse<String> answer : List.of(connecting.get(30, TimeUnit.SECONDS),
                    queued.get(30, TimeUnit.SECONDS))) {
                assertEquals(503, answer.statusCode(), answer.body());
                assertEquals("application/problem+json", answer.headers().firstValue("Content-Type").orElse(null));
                JsonNode problem = Http.json(answer.body());
                assertEquals("tag:idempotent.dev,2026:problem:upstream-busy", problem.get("type").asText());
            }
            List<JournalEntry> journal = proxy.journal();
            assertEquals(2, journal.size());
            for (JournalEntry entry : journal) {
                assertEquals("busy", entry.upstreamError(), entry.toString());
                assertEquals(503, entry.status());
                assertNull(entry.upstreamStatus());
                assertNull(entry.fault());
            }
            assertEquals(new ProxyLedger(0, 0, List.of()), proxy.ledger(), "nothing reached the upstream");
        }
    }

    /**
     * Connections that fill a listening socket's accept queue, so that a further connect hangs (its SYN is dropped)
     * until the connecting side gives up: an upstream that takes no new connection and says nothing.
     */
    private record Backlog(List<Socket> sockets) implements AutoCloseable {
        static Backlog fill(ServerSocket server) throws IOException {
            List<Socket> sockets = new ArrayList<>();
            InetSocketAddress address = new InetSocketAddress(InetAddress.getLoopbackAddress(), server.getLocalPort());
            for (int i = 0; i < 16; i++) {
                Socket s = new Socket();
                try {
                    s.connect(address, 1_000);
                } catch (SocketTimeoutException e) {
                    s.close();
                    return new Backlog(sockets);
                }
                sockets.add(s);
            }
            sockets.forEach(Backlog::closeQuietly);
            throw new IllegalStateException("the accept queue never filled: no upstream that hangs on connect");
        }

        @Override
        public void close() {
            sockets.forEach(Backlog::closeQuietly);
        }

        private static void closeQuietly(Socket s) {
            try {
                s.close();
            } catch (IOException e) {
                // closing a test's own socket
            }
        }
    }
}
