package dev.idempotent.seatgrant.server;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.function.Function;

/**
 * An upstream over a raw loopback socket whose answers a test writes byte for byte: what no ordinary server sends
 * on purpose (hop-by-hop headers in an answer, a connection closed mid-answer, an answer that never comes). It
 * records every request it reads, head and body. A hung answer waits until {@link #close()}.
 */
final class ScriptedUpstream implements AutoCloseable {

    /** One request as read off the wire; header names lower case, in order. */
    record Received(String method, String target, List<String[]> headers, String body) {
        String header(String name) {
            List<String> values = headers(name);
            return values.isEmpty() ? null : String.join(", ", values);
        }

        List<String> headers(String name) {
            List<String> values = new ArrayList<>();
            for (String[] h : headers) {
                if (h[0].equals(name.toLowerCase(Locale.ROOT))) {
                    values.add(h[1]);
                }
            }
            return values;
        }
    }

    /** What the upstream does with a request: write these bytes (then close, or read on), close, or hang. */
    sealed interface Answer {
        record Bytes(String raw, boolean thenClose) implements Answer { }

        record Close() implements Answer { }

        record Hang() implements Answer { }
    }

    static Answer bytes(String raw) {
        return new Answer.Bytes(raw, false);
    }

    /** Writes {@code raw}, then closes the connection: an answer broken off. */
    static Answer bytesThenClose(String raw) {
        return new Answer.Bytes(raw, true);
    }

    static Answer ok(int status, String body, String... headers) {
        StringBuilder raw = new StringBuilder("HTTP/1.1 " + status + " Whatever\r\n");
        for (String h : headers) {
            raw.append(h).append("\r\n");
        }
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        raw.append("Content-Length: ").append(bytes.length).append("\r\n\r\n").append(body);
        return new Answer.Bytes(raw.toString(), false);
    }

    private final ServerSocket server;
    private final Function<Received, Answer> script;
    private final List<Received> received = new CopyOnWriteArrayList<>();
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private final CountDownLatch closed = new CountDownLatch(1);
    private volatile int connections;

    ScriptedUpstream(Function<Received, Answer> script) throws IOException {
        this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        this.script = script;
        Thread accept = new Thread(this::accept, "scripted-upstream");
        accept.setDaemon(true);
        accept.start();
    }

    URI baseUri() {
        return URI.create("http://127.0.0.1:" + server.getLocalPort());
    }

    List<Received> received() {
        return List.copyOf(received);
    }

    /** Connections accepted so far. */
    int connections() {
        return connections;
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket s = server.accept();
                connections++;
                sockets.add(s);
                Thread t = new Thread(() -> serve(s), "scripted-upstream-conn");
                t.setDaemon(true);
                t.start();
            } catch (IOException e) {
                return;
            }
        }
    }

    private void serve(Socket s) {
        try (s) {
            InputStream in = s.getInputStream();
            OutputStream out = s.getOutputStream();
            while (true) {
                Received request = read(in);
                if (request == null) {
                    return;
                }
                received.add(request);
                Answer answer = script.apply(request);
                if (answer instanceof Answer.Close) {
                    return;
                }
                if (answer instanceof Answer.Hang) {
                    closed.await();
                    return;
                }
                Answer.Bytes written = (Answer.Bytes) answer;
                out.write(written.raw().getBytes(StandardCharsets.ISO_8859_1));
                out.flush();
                if (written.thenClose()) {
                    return;
                }
            }
        } catch (IOException e) {
            // the proxy went away
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static Received read(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        int matched = 0;
        int b;
        while (matched < 4 && (b = in.read()) != -1) {
            head.write(b);
            matched = (b == "\r\n\r\n".charAt(matched)) ? matched + 1 : (b == '\r' ? 1 : 0);
        }
        if (matched < 4) {
            return null;
        }
        String[] lines = head.toString(StandardCharsets.ISO_8859_1).split("\r\n");
        String[] requestLine = lines[0].split(" ");
        List<String[]> headers = new ArrayList<>();
        int length = 0;
        for (int i = 1; i < lines.length; i++) {
            int colon = lines[i].indexOf(':');
            String name = lines[i].substring(0, colon).strip().toLowerCase(Locale.ROOT);
            String value = lines[i].substring(colon + 1).strip();
            headers.add(new String[] {name, value});
            if (name.equals("content-length")) {
                length = Integer.parseInt(value);
            }
        }
        byte[] body = in.readNBytes(length);
        return new Received(requestLine[0], requestLine[1], headers, new String(body, StandardCharsets.UTF_8));
    }

    @Override
    public void close() throws IOException {
        closed.countDown();
        server.close();
        for (Socket s : sockets) {
            s.close();
        }
    }
}
