package dev.idempotent.client.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * A loopback HTTP/1.1 server on raw sockets, for answers the JDK's own server cannot be made to give: a body of a
 * GiB, endless or paced, a connection held open. One daemon thread per connection; each request's headers and body
 * are read, then its {@link Answer} writes whatever it likes. Bounded: every socket times out after 30 s, and
 * {@link #close()} closes them all.
 */
public final class RawServer implements AutoCloseable {

    /** Writes the answer to request {@code n} (from 1). Returning keeps the connection for the next request. */
    @FunctionalInterface
    public interface Answer {
        void write(int n, OutputStream out) throws IOException;
    }

    /** A GiB, the body of the low-heap tests. */
    public static final long GIB = 1L << 30;

    private final ServerSocket socket;
    private final Answer answer;
    private final AtomicInteger requests = new AtomicInteger();
    private final List<Socket> open = new CopyOnWriteArrayList<>();
    private final CountDownLatch clientLeft = new CountDownLatch(1);

    public RawServer(Answer answer) throws IOException {
        this.answer = answer;
        socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread acceptor = new Thread(this::accept, "raw-server");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    public URI uri(String path) {
        return URI.create("http://127.0.0.1:" + socket.getLocalPort() + path);
    }

    /** {@return requests whose headers and body were read} */
    public int requests() {
        return requests.get();
    }

    /** Waits (at most 10 s) until a client closed a connection: while this server was writing, or between requests. */
    public boolean awaitClientLeft() throws InterruptedException {
        return clientLeft.await(10, TimeUnit.SECONDS);
    }

    private void accept() {
        while (!socket.isClosed()) {
            try {
                Socket client = socket.accept();
                open.add(client);
                Thread t = new Thread(() -> serve(client), "raw-server-connection");
                t.setDaemon(true);
                t.start();
            } catch (IOException closed) {
                return;
            }
        }
    }

    private void serve(Socket client) {
        try (client) {
            client.setSoTimeout(30_000);
            InputStream in = client.getInputStream();
            while (true) {
                String headers = readHeaders(in);
                if (headers == null) {
                    // The client closed the connection instead of sending another request.
                    clientLeft.countDown();
                    return;
                }
                in.readNBytes(contentLength(headers));
                answer.write(requests.incrementAndGet(), client.getOutputStream());
            }
        } catch (SocketException | java.net.SocketTimeoutException left) {
            clientLeft.countDown();
        } catch (IOException other) {
            clientLeft.countDown();
        }
    }

    /** The headers up to the blank line, or null when the client closed the connection before a request. */
    private static String readHeaders(InputStream in) throws IOException {
        StringBuilder headers = new StringBuilder();
        while (headers.length() < 4 || !headers.substring(headers.length() - 4).equals("\r\n\r\n")) {
            int b = in.read();
            if (b == -1) {
                if (headers.length() > 0) {
                    throw new IOException("closed before the headers ended");
                }
                return null;
            }
            headers.append((char) b);
        }
        return headers.toString();
    }

    private static int contentLength(String headers) {
        for (String line : headers.split("\r\n")) {
            if (line.toLowerCase(Locale.ROOT).startsWith("content-length:")) {
                return Integer.parseInt(line.substring("content-length:".length()).trim());
            }
        }
        return 0;
    }

    /** A 201 with a small JSON body, the connection kept. */
    public static Answer created(String json) {
        byte[] body = json.getBytes(StandardCharsets.UTF_8);
        return (n, out) -> {
            out.write(("HTTP/1.1 201 Created\r\nContent-Type: application/json\r\nContent-Length: " + body.length
                    + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.write(body);
            out.flush();
        };
    }

    /**
     * A {@code status} answer whose body starts with {@code start} and runs on with spaces: {@code length} bytes
     * declared by Content-Length, or chunked when {@code chunked}; {@code length} below 0 never ends. Written as fast
     * as the client reads, or at {@code bytesPerSecond} when that is above 0. Ends when the client leaves.
     */
    public static Answer body(int status, String start, long length, boolean chunked, long bytesPerSecond) {
        return (n, out) -> {
            String framing = chunked || length < 0 ? "Transfer-Encoding: chunked" : "Content-Length: " + length;
            out.write(("HTTP/1.1 " + status + " Whatever\r\nContent-Type: application/json\r\n" + framing
                    + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            byte[] piece = new byte[64 * 1024];
            Arrays.fill(piece, (byte) ' ');
            byte[] first = start.getBytes(StandardCharsets.UTF_8);
            System.arraycopy(first, 0, piece, 0, first.length);
            boolean endless = length < 0;
            long started = System.nanoTime();
            long sent = 0;
            while (endless || sent < length) {
                int size = endless ? piece.length : (int) Math.min(piece.length, length - sent);
                if (chunked || endless) {
                    out.write((Integer.toHexString(size) + "\r\n").getBytes(StandardCharsets.US_ASCII));
                    out.write(piece, 0, size);
                    out.write("\r\n".getBytes(StandardCharsets.US_ASCII));
                } else {
                    out.write(piece, 0, size);
                }
                sent += size;
                if (sent == size) {
                    Arrays.fill(piece, 0, first.length, (byte) ' ');
                }
                if (bytesPerSecond > 0) {
                    // The server's pace, not a test waiting: the next piece is due when the rate allows it.
                    long due = started + sent * 1_000_000_000L / bytesPerSecond;
                    for (long wait = due - System.nanoTime(); wait > 0; wait = due - System.nanoTime()) {
                        LockSupport.parkNanos(wait);
                    }
                }
            }
            if (chunked) {
                out.write("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            }
            out.flush();
        };
    }

    @Override
    public void close() throws IOException {
        socket.close();
        for (Socket s : open) {
            s.close();
        }
    }
}
