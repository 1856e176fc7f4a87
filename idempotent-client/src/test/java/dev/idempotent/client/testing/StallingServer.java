package dev.idempotent.client.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CountDownLatch;

/**
 * A loopback server that answers every request with the headers of a 201 and the first byte of a 100-byte body,
 * then sends nothing more; it notes when a client closes the connection. Bounded: it closes everything after
 * 30 s, or when the test closes it.
 */
public final class StallingServer implements AutoCloseable {
    private final ServerSocket socket;
    /** Counted down when the client closed the connection after the headers. */
    public final CountDownLatch clientLeft = new CountDownLatch(1);
    /** Counted down once the headers and the first body byte are sent. */
    public final CountDownLatch headersSent = new CountDownLatch(1);
    private final Thread acceptor;

    /**
     * Starts listening on a loopback port.
     *
     * @throws IOException if no port can be bound
     */
    public StallingServer() throws IOException {
        socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        socket.setSoTimeout(30_000);
        acceptor = new Thread(this::serve, "stalling-server");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /**
     * Where to send.
     *
     * @return the server's {@code /orders} URI
     */
    public URI uri() {
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
            if (in.read() == -1) {
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
