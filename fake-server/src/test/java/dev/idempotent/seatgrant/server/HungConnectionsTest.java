package dev.idempotent.seatgrant.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A thousand connections held by {@code hang-after-commit} cost no threads, and the server keeps answering
 * everyone else promptly meanwhile.
 */
class HungConnectionsTest {

    private static final int HUNG = 1000;

    @Test
    void aThousandHungConnectionsDoNotStopTheServer() throws Exception {
        FaultPlan plan = FaultPlan.of(FaultRule.of(Fault.HANG_AFTER_COMMIT)
                .withMethodAndPath("POST", "/v1/seats").withTimes(HUNG).withDelayMs(120_000));
        try (FakeSeatServer server = FakeSeatServer.start(ServerConfig.builder().faultPlan(plan).build())) {
            Http http = new Http(server);
            assertEquals(200, http.get("/__admin/health").statusCode());
            int threadsBefore = ManagementFactory.getThreadMXBean().getThreadCount();
            List<Socket> sockets = new ArrayList<>();
            try {
                for (int i = 0; i < HUNG; i++) {
                    Socket socket = new Socket(server.baseUri().getHost(), server.port());
                    sockets.add(socket);
                    OutputStream out = socket.getOutputStream();
                    out.write(Wire.seatPost("hung-" + i, Http.BODY).getBytes(StandardCharsets.ISO_8859_1));
                    out.flush();
                }
                Await.until(Duration.ofSeconds(60), HUNG + " hung requests in the journal",
                        () -> server.journal().size() == HUNG);

                // Everyone else is still served, and quickly.
                long started = System.nanoTime();
                assertEquals(201, http.grant("after-the-hang", Http.BODY).statusCode());
                assertEquals(200, http.get("/__admin/health").statusCode());
                long tookMs = Duration.ofNanos(System.nanoTime() - started).toMillis();
                assertTrue(tookMs < 5_000, "took " + tookMs + " ms");

                int threadsDuring = ManagementFactory.getThreadMXBean().getThreadCount();
                // The HttpClient and the pool may add a handful; a thread per connection would add a thousand.
                assertTrue(threadsDuring - threadsBefore < 50, threadsBefore + " -> " + threadsDuring);
                assertTrue(server.journal().stream().limit(HUNG)
                        .allMatch(e -> "hang-after-commit".equals(e.fault()) && e.committed() && e.status() == null));
                assertEquals(HUNG + 1, server.ledger().seats());
                // Each hung socket has received nothing at all.
                Socket probe = sockets.get(0);
                probe.setSoTimeout(1);
                assertEquals(0, probe.getInputStream().available());
            } finally {
                for (Socket socket : sockets) {
                    try {
                        socket.close();
                    } catch (IOException ignored) {
                        // Closing a socket the server may already have dropped.
                    }
                }
            }
        }
    }
}
