package dev.idempotent.seatgrant.server.bench;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The benchmark's own load generator, for machines without wrk: its own process, {@code CONNECTIONS} keep-alive
 * HTTP/1.1 connections on raw sockets, each sending {@code POST /v1/seats} with a fresh {@code Idempotency-Key}
 * as soon as the previous answer arrived, for {@code SECONDS}. It prints one line in the format the wrk script
 * prints, so the benchmark reads both the same way:
 * {@code BENCH requests=N duration_us=D errors=E p50_us=X p99_us=Y}. Any answer but a 2xx counts as an error.
 *
 * <p>{@code java -cp ... LoadGenerator HOST PORT SECONDS CONNECTIONS KEY_PREFIX [random|time]}: keys start with
 * random bits, as a random UUID does, or with the clock and a counter, as a UUIDv7 does (see {@link #key}).
 */
public final class LoadGenerator {

    static final String BODY = "{\"workspaceId\":\"ws_bench\",\"userId\":\"user_1\",\"role\":\"member\"}";

    private LoadGenerator() {
    }

    public static void main(String[] args) throws Exception {
        String host = args[0];
        int port = Integer.parseInt(args[1]);
        long seconds = Long.parseLong(args[2]);
        int connections = Integer.parseInt(args[3]);
        String prefix = args[4];
        boolean timeOrdered = args.length > 5 && args[5].equals("time");
        AtomicLong errors = new AtomicLong();
        List<Connection> drivers = new ArrayList<>();
        List<Thread> threads = new ArrayList<>();
        long started = System.nanoTime();
        long deadline = started + seconds * 1_000_000_000L;
        for (int c = 0; c < connections; c++) {
            Connection driver = new Connection(host, port, prefix + "-" + c, timeOrdered, deadline, errors);
            Thread t = new Thread(driver::run, "load-" + c);
            drivers.add(driver);
            threads.add(t);
            t.start();
        }
        for (Thread t : threads) {
            t.join();
        }
        long elapsedUs = (System.nanoTime() - started) / 1_000;
        long[] all = new long[drivers.stream().mapToInt(d -> d.count).sum()];
        int at = 0;
        for (Connection d : drivers) {
            System.arraycopy(d.micros, 0, all, at, d.count);
            at += d.count;
        }
        Arrays.sort(all);
        System.out.printf(Locale.ROOT, "BENCH requests=%d duration_us=%d errors=%d p50_us=%d p99_us=%d%n", all.length,
                elapsedUs, errors.get(), percentile(all, 0.50), percentile(all, 0.99));
    }

    private static long percentile(long[] sorted, double p) {
        if (sorted.length == 0) {
            return 0;
        }
        return sorted[Math.min(sorted.length - 1, (int) Math.ceil(p * sorted.length) - 1)];
    }

    /** Orders time-ordered keys made in the same millisecond, across all connections. */
    private static final AtomicLong ISSUED = new AtomicLong();

    /**
     * A fresh key. Random first, as a random UUID is: each grant lands on a random page of the server's key index.
     * Or time first, as a UUIDv7 is (milliseconds, then a counter, then random bits): each grant lands next to
     * the one before it.
     */
    static String key(boolean timeOrdered, String prefix, long sequence) {
        long random = ThreadLocalRandom.current().nextLong();
        if (timeOrdered) {
            return String.format(Locale.ROOT, "%012x-%010x-%016x-%s", System.currentTimeMillis(),
                    ISSUED.getAndIncrement(), random, prefix);
        }
        return Long.toHexString(random) + "-" + prefix + "-" + sequence;
    }

    /** One keep-alive connection's loop; it reconnects after an error, which it counts. */
    private static final class Connection {
        private final String host;
        private final int port;
        private final String prefix;
        private final boolean timeOrdered;
        private final long deadline;
        private final AtomicLong errors;
        long[] micros = new long[4096];
        int count;

        Connection(String host, int port, String prefix, boolean timeOrdered, long deadline, AtomicLong errors) {
            this.host = host;
            this.port = port;
            this.prefix = prefix;
            this.timeOrdered = timeOrdered;
            this.deadline = deadline;
            this.errors = errors;
        }

        void run() {
            byte[] body = BODY.getBytes(StandardCharsets.US_ASCII);
            String head = "POST /v1/seats HTTP/1.1\r\nHost: " + host + ":" + port
                    + "\r\nContent-Type: application/json\r\nContent-Length: " + body.length + "\r\nIdempotency-Key: ";
            long sequence = 0;
            Socket socket = null;
            InputStream in = null;
            OutputStream out = null;
            while (System.nanoTime() < deadline) {
                try {
                    if (socket == null) {
                        socket = new Socket();
                        socket.setTcpNoDelay(true);
                        socket.setSoTimeout(30_000);
                        socket.connect(new InetSocketAddress(host, port), 10_000);
                        in = new BufferedInputStream(socket.getInputStream(), 8192);
                        out = socket.getOutputStream();
                    }
                    String key = key(timeOrdered, prefix, sequence++);
                    byte[] headBytes = (head + key + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
                    byte[] request = Arrays.copyOf(headBytes, headBytes.length + body.length);
                    System.arraycopy(body, 0, request, headBytes.length, body.length);
                    long t0 = System.nanoTime();
                    out.write(request);
                    out.flush();
                    int status = readResponse(in);
                    if (count == micros.length) {
                        micros = Arrays.copyOf(micros, count * 2);
                    }
                    micros[count++] = (System.nanoTime() - t0) / 1_000;
                    if (status < 200 || status > 299) {
                        errors.incrementAndGet();
                    }
                } catch (IOException | RuntimeException e) {
                    errors.incrementAndGet();
                    closeQuietly(socket);
                    socket = null;
                }
            }
            closeQuietly(socket);
        }
    }

    /** Reads one response (status line, headers, a Content-Length body) and returns its status. */
    private static int readResponse(InputStream in) throws IOException {
        String statusLine = readLine(in);
        int status = Integer.parseInt(statusLine.substring(9, 12));
        int length = 0;
        for (String line = readLine(in); !line.isEmpty(); line = readLine(in)) {
            if (line.regionMatches(true, 0, "content-length:", 0, 15)) {
                length = Integer.parseInt(line.substring(15).strip());
            }
        }
        for (int read = 0; read < length; read++) {
            if (in.read() < 0) {
                throw new IOException("closed mid-body");
            }
        }
        return status;
    }

    private static String readLine(InputStream in) throws IOException {
        StringBuilder line = new StringBuilder(64);
        for (int b = in.read(); b != '\n'; b = in.read()) {
            if (b < 0) {
                throw new IOException("closed mid-response");
            }
            if (b != '\r') {
                line.append((char) b);
            }
        }
        return line.toString();
    }

    private static void closeQuietly(Socket socket) {
        if (socket != null) {
            try {
                socket.close();
            } catch (IOException ignored) {
                // nothing to do: the connection is gone either way
            }
        }
    }
}
