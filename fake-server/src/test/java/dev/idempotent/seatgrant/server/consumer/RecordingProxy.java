package dev.idempotent.seatgrant.server.consumer;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * A loopback TCP proxy in front of a server that records the head of every HTTP/1.1 request it forwards, so a test
 * can see the headers that really went over the wire. The fake server's journal records keys, not headers, and a
 * test must not widen the server for that. Bytes pass through unchanged in both directions; the request direction
 * is parsed (head, then a {@code Content-Length} body) only to know where each request starts.
 */
final class RecordingProxy implements AutoCloseable {

    /**
     * One forwarded request.
     *
     * @param method  the method
     * @param target  the request target as sent
     * @param headers header values by lower-case name, in arrival order
     */
    record Recorded(String method, String target, Map<String, List<String>> headers) {
        List<String> header(String name) {
            return headers.getOrDefault(name.toLowerCase(Locale.ROOT), List.of());
        }
    }

    private final ServerSocket listener;
    private final InetSocketAddress upstream;
    private final ExecutorService threads = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "recording-proxy");
        t.setDaemon(true);
        return t;
    });
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private final List<Recorded> recorded = new CopyOnWriteArrayList<>();

    RecordingProxy(URI upstream) throws IOException {
        this.upstream = new InetSocketAddress(upstream.getHost(), upstream.getPort());
        this.listener = new ServerSocket();
        listener.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        threads.execute(this::acceptLoop);
    }

    URI baseUri() {
        return URI.create("http://127.0.0.1:" + listener.getLocalPort() + "/");
    }

    List<Recorded> requests() {
        return List.copyOf(recorded);
    }

    private void acceptLoop() {
        while (!listener.isClosed()) {
            try {
                Socket client = listener.accept();
                Socket server = new Socket();
                server.connect(upstream, 5_000);
                open.add(client);
                open.add(server);
                threads.execute(() -> requests(client, server));
                threads.execute(() -> pipe(server, client));
            } catch (IOException closed) {
                return;
            }
        }
    }

    /** Client to server: forward each request's bytes, recording its head. */
    private void requests(Socket client, Socket server) {
        try {
            InputStream in = new BufferedInputStream(client.getInputStream());
            OutputStream out = new BufferedOutputStream(server.getOutputStream());
            while (true) {
                String requestLine = line(in, out);
                if (requestLine == null) {
                    break;
                }
                Map<String, List<String>> headers = new LinkedHashMap<>();
                for (String h = line(in, out); h != null && !h.isEmpty(); h = line(in, out)) {
                    int colon = h.indexOf(':');
                    headers.computeIfAbsent(h.substring(0, colon).trim().toLowerCase(Locale.ROOT), k -> new ArrayList<>())
                            .add(h.substring(colon + 1).trim());
                }
                String[] parts = requestLine.split(" ");
                recorded.add(new Recorded(parts[0], parts.length > 1 ? parts[1] : "", headers));
                long length = Long.parseLong(headers.getOrDefault("content-length", List.of("0")).get(0));
                out.write(in.readNBytes((int) length));
                out.flush();
            }
            server.shutdownOutput();
        } catch (IOException | RuntimeException gone) {
            // Either side went away (a reset, or close()); the other direction ends on its own.
        }
    }

    /** Server to client: bytes as they are. */
    private void pipe(Socket from, Socket to) {
        try {
            from.getInputStream().transferTo(to.getOutputStream());
        } catch (IOException gone) {
            // Either side went away.
        } finally {
            quietly(to);
            quietly(from);
        }
    }

    /** Reads one CRLF-terminated line, forwarding its bytes; null at end of stream. */
    private static String line(InputStream in, OutputStream out) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        int c;
        while ((c = in.read()) != -1) {
            out.write(c);
            if (c == '\n') {
                String s = line.toString(StandardCharsets.ISO_8859_1);
                return s.endsWith("\r") ? s.substring(0, s.length() - 1) : s;
            }
            line.write(c);
        }
        return null;
    }

    private void quietly(Socket s) {
        open.remove(s);
        try {
            s.close();
        } catch (IOException ignored) {
            // Closing is best effort; the test asserts on what was recorded.
        }
    }

    @Override
    public void close() throws IOException {
        listener.close();
        for (Socket s : List.copyOf(open)) {
            quietly(s);
        }
        threads.shutdownNow();
        try {
            threads.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
