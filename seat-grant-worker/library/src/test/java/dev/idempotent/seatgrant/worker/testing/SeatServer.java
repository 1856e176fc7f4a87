package dev.idempotent.seatgrant.worker.testing;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A minimal seat API over raw loopback sockets that does what the incident needs and WireMock cannot: it
 * really commits a seat, deduplicates by Idempotency-Key, and can then drop the connection with an RST so
 * the client never learns the seat exists. The full fake server lives in the fake-server module, which
 * depends on this one; this is its smallest honest stand-in for tests here.
 *
 * <p>Every POST whose (key, or body when there is no key) has been seen {@code dropFirst} times or fewer
 * commits and is then reset. A completed key is replayed with 409, the seat and {@code Idempotent-Replayed}.
 */
public final class SeatServer implements AutoCloseable {

    /** One committed seat. */
    public record Seat(String id, String body, String key) {}

    private final ServerSocket server;
    private final ExecutorService pool = Executors.newFixedThreadPool(8);
    private final int dropFirst;
    private final List<Seat> seats = new ArrayList<>();
    private final Map<String, Seat> byKey = new HashMap<>();
    private final Map<String, Integer> seen = new HashMap<>();
    private final AtomicInteger posts = new AtomicInteger();
    private final Thread acceptor;
    private final java.util.Set<Socket> open = java.util.concurrent.ConcurrentHashMap.newKeySet();

    /** @param dropFirst how many POSTs per operation commit and then lose their answer */
    public SeatServer(int dropFirst) throws IOException {
        this.dropFirst = dropFirst;
        this.server = new ServerSocket();
        server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        this.acceptor = new Thread(this::acceptLoop, "seat-server-accept");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    public URI baseUri() {
        return URI.create("http://127.0.0.1:" + server.getLocalPort());
    }

    public synchronized List<Seat> seats() {
        return List.copyOf(seats);
    }

    public int posts() {
        return posts.get();
    }

    private void acceptLoop() {
        while (!server.isClosed()) {
            try {
                Socket socket = server.accept();
                open.add(socket);
                pool.execute(() -> serve(socket));
            } catch (IOException closed) {
                return;
            }
        }
    }

    private void serve(Socket socket) {
        try (socket) {
            socket.setSoTimeout(5_000);
            InputStream in = new BufferedInputStream(socket.getInputStream());
            while (true) {
                String requestLine = readLine(in);
                if (requestLine == null || requestLine.isEmpty()) {
                    return;
                }
                Map<String, String> headers = new HashMap<>();
                for (String line = readLine(in); line != null && !line.isEmpty(); line = readLine(in)) {
                    int colon = line.indexOf(':');
                    headers.put(line.substring(0, colon).trim().toLowerCase(Locale.ROOT), line.substring(colon + 1).trim());
                }
                byte[] body = in.readNBytes(Integer.parseInt(headers.getOrDefault("content-length", "0")));
                posts.incrementAndGet();
                String text = new String(body, StandardCharsets.UTF_8);
                String key = headers.get("idempotency-key");
                Response response = handle(key, text);
                if (response == null) {
                    // Committed, then the answer is lost: an RST, as a gateway or a crash would leave it.
                    socket.setSoLinger(true, 0);
                    return;
                }
                OutputStream out = socket.getOutputStream();
                byte[] payload = response.body.getBytes(StandardCharsets.UTF_8);
                String head = "HTTP/1.1 " + response.status + " X\r\nContent-Type: application/json\r\nContent-Length: "
                        + payload.length + "\r\n" + (response.replayed ? "Idempotent-Replayed: true\r\n" : "") + "\r\n";
                out.write(head.getBytes(StandardCharsets.US_ASCII));
                out.write(payload);
                out.flush();
            }
        } catch (IOException | RuntimeException gone) {
            // The client hung up or sent something this stand-in does not parse; the test asserts on state.
        } finally {
            open.remove(socket);
        }
    }

    private record Response(int status, String body, boolean replayed) {}

    private synchronized Response handle(String key, String body) {
        if (key != null && byKey.containsKey(key)) {
            Seat existing = byKey.get(key);
            return new Response(409, seatJson(existing), true);
        }
        Seat seat = new Seat("seat_" + (seats.size() + 1), body, key);
        seats.add(seat);
        if (key != null) {
            byKey.put(key, seat);
        }
        int n = seen.merge(key != null ? "key:" + key : "body:" + body, 1, Integer::sum);
        return n <= dropFirst ? null : new Response(201, seatJson(seat), false);
    }

    private static String seatJson(Seat seat) {
        return "{\"id\":\"" + seat.id() + "\",\"role\":\"member\"}";
    }

    private static String readLine(InputStream in) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        int c;
        while ((c = in.read()) != -1) {
            if (c == '\n') {
                String s = line.toString(StandardCharsets.US_ASCII);
                return s.endsWith("\r") ? s.substring(0, s.length() - 1) : s;
            }
            line.write(c);
        }
        return line.size() == 0 ? null : line.toString(StandardCharsets.US_ASCII);
    }

    @Override
    public void close() throws IOException {
        server.close();
        // Idle keep-alive connections block in read(); closing them is what ends their threads.
        for (Socket s : open) {
            s.close();
        }
        pool.shutdownNow();
        try {
            pool.awaitTermination(5, TimeUnit.SECONDS);
            acceptor.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
