package dev.idempotent.seatgrant.server.grade;

import dev.idempotent.seatgrant.server.FakeSeatServer;
import dev.idempotent.seatgrant.server.Fault;
import dev.idempotent.seatgrant.server.FaultPlan;
import dev.idempotent.seatgrant.server.FaultRule;
import dev.idempotent.seatgrant.server.ServerConfig;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Warms this JVM's server code before the first delivery: a throwaway in-memory server driven through a few hundred
 * grants, replays, lookups, refusals and faults over loopback. The slow first requests of a fresh process (measured:
 * 1.7 to 2.9 s to the first byte under load, against 0.03 to 0.4 s later) are the JVM's warm-up, which is per
 * process; without this, the first checks of every grade met a cold server, and a worker with a 2 s request timeout
 * timed out on it.
 *
 * <p>The client side is plain sockets with hand-written HTTP/1.1, so the CPU goes to warming the server, not a
 * client. Thread-safe; runs once per JVM, and every later call returns at once.
 */
final class Warmup {

    /** Grants driven through the throwaway server; each is two to four requests. */
    static final int GRANTS = 200;

    private static final int CLIENTS = 2;
    private static final int READ_TIMEOUT_MS = 5_000;
    private static boolean done;

    private Warmup() {
    }

    /** Warms the JVM unless an earlier call already did; a failure here only means less warmth, never a failed grade. */
    static synchronized void once() {
        if (done) {
            return;
        }
        done = true;
        ServerConfig config = ServerConfig.builder().db("mem").faultPlan(FaultPlan.of(
                rule(Fault.STATUS, 503, 5),
                rule(Fault.RESET_AFTER_COMMIT, 0, 7),
                rule(Fault.CLOSE_AFTER_COMMIT, 0, 11),
                rule(Fault.STATUS_AFTER_COMMIT, 504, 13),
                rule(Fault.STATUS_AFTER_COMMIT, 409, 17).withRetryAfter(1),
                rule(Fault.DELAY, 0, 19).withDelayMs(1))).build();
        ExecutorService clients = Executors.newFixedThreadPool(CLIENTS, runnable -> {
            Thread thread = new Thread(runnable, "grade-warmup");
            thread.setDaemon(true);
            return thread;
        });
        try (FakeSeatServer server = FakeSeatServer.start(config)) {
            URI base = server.apiBaseUri();
            InetSocketAddress address = new InetSocketAddress(base.getHost(), base.getPort());
            List<Future<?>> work = new ArrayList<>();
            for (int c = 0; c < CLIENTS; c++) {
                int client = c;
                work.add(clients.submit(() -> {
                    for (int i = client; i < GRANTS; i += CLIENTS) {
                        grant(address, i);
                    }
                }));
            }
            for (Future<?> f : work) {
                f.get();
            }
            server.journal();
            server.ledger();
        } catch (ExecutionException | RuntimeException e) {
            // Best effort: a grade on a colder JVM is slower, not wrong, and the slow-server rule covers it.
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            clients.shutdownNow();
        }
    }

    private static FaultRule rule(Fault fault, int status, int every) {
        FaultRule rule = fault.needsStatus() ? FaultRule.of(fault, status) : FaultRule.of(fault);
        return rule.withMethodAndPath("POST", "/v1/seats").withEvery(every);
    }

    /** One grant as the catalogue's workers make them: a POST, its resend, and now and then a lookup or a refusal. */
    private static void grant(InetSocketAddress address, int i) {
        String body = "{\"workspaceId\":\"ws_warm\",\"userId\":\"user_" + i + "\",\"role\":\"member\"}";
        exchange(address, post(body, "warm-" + i));
        exchange(address, post(body, "warm-" + i));
        if (i % 4 == 0) {
            exchange(address, post(body.replace("user_", "keyless_"), null));
        }
        if (i % 8 == 0) {
            exchange(address, "GET /v1/seats?workspaceId=ws_warm&userId=user_" + i + " HTTP/1.1\r\nHost: warm\r\n"
                    + "Connection: close\r\n\r\n");
        }
        if (i % 16 == 0) {
            exchange(address, post("{\"workspaceId\":", "warm-bad-" + i));
        }
    }

    private static String post(String body, String key) {
        return "POST /v1/seats HTTP/1.1\r\nHost: warm\r\nContent-Type: application/json\r\n"
                + (key == null ? "" : "Idempotency-Key: " + key + "\r\n")
                + "Content-Length: " + body.getBytes(StandardCharsets.UTF_8).length + "\r\nConnection: close\r\n\r\n"
                + body;
    }

    /** Sends one request on its own connection and reads until the server closes it. */
    private static void exchange(InetSocketAddress address, String request) {
        try (Socket socket = new Socket()) {
            socket.connect(address, READ_TIMEOUT_MS);
            socket.setSoTimeout(READ_TIMEOUT_MS);
            OutputStream out = socket.getOutputStream();
            out.write(request.getBytes(StandardCharsets.UTF_8));
            out.flush();
            InputStream in = socket.getInputStream();
            byte[] buffer = new byte[4096];
            while (in.read(buffer) >= 0) {
                // Drain: the answer itself is not the point.
            }
        } catch (IOException faulted) {
            // A reset or a close is one of the faults being warmed.
        }
    }
}
