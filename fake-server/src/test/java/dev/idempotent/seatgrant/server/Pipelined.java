package dev.idempotent.seatgrant.server;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.IntFunction;

/**
 * Many requests, fast: a few raw keep-alive connections, each writing a batch of requests at once and then reading
 * their answers (heads and {@code Content-Length} bodies), for tests and benchmarks that must fill a server's
 * journal by the hundred thousand. A batch stays under Netty's limit of 128 requests waiting on one connection.
 * Every read has a timeout, so a server that stops answering fails the caller instead of hanging it.
 */
public final class Pipelined {

    private static final int BATCH = 100;

    private Pipelined() {
    }

    /**
     * Sends requests {@code 0} to {@code count - 1} ({@code request} makes each one's bytes) over
     * {@code connections} connections, and returns how many answers carried each status.
     *
     * @throws IOException when a connection breaks or an answer does not come within {@code readTimeoutMs}
     */
    public static Map<Integer, Long> send(URI base, int connections, int count, IntFunction<byte[]> request,
                                          int readTimeoutMs) throws Exception {
        Map<Integer, LongAdder> statuses = new ConcurrentHashMap<>();
        AtomicInteger next = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(connections);
        try {
            List<Future<?>> runs = new ArrayList<>();
            for (int c = 0; c < connections; c++) {
                runs.add(pool.submit(() -> {
                    try (Socket socket = new Socket(base.getHost(), base.getPort())) {
                        socket.setSoTimeout(readTimeoutMs);
                        OutputStream out = new BufferedOutputStream(socket.getOutputStream(), 1 << 16);
                        InputStream in = new BufferedInputStream(socket.getInputStream(), 1 << 16);
                        while (true) {
                            int first = next.getAndAdd(BATCH);
                            if (first >= count) {
                                return null;
                            }
                            int last = Math.min(count, first + BATCH);
                            for (int i = first; i < last; i++) {
                                out.write(request.apply(i));
                            }
                            out.flush();
                            for (int i = first; i < last; i++) {
                                statuses.computeIfAbsent(readOne(in), s -> new LongAdder()).increment();
                            }
                        }
                    }
                }));
            }
            for (Future<?> run : runs) {
                run.get(30, TimeUnit.MINUTES);
            }
        } finally {
            pool.shutdownNow();
        }
        Map<Integer, Long> out = new java.util.TreeMap<>();
        statuses.forEach((status, n) -> out.put(status, n.sum()));
        return out;
    }

    /** Reads one answer and returns its status; its body is skipped. */
    private static int readOne(InputStream in) throws IOException {
        String statusLine = line(in);
        if (statusLine == null) {
            throw new IOException("the server closed the connection");
        }
        int status = Integer.parseInt(statusLine.substring(9, 12));
        long length = 0;
        String header;
        while (!(header = line(in)).isEmpty()) {
            if (header.regionMatches(true, 0, "content-length:", 0, 15)) {
                length = Long.parseLong(header.substring(15).strip());
            }
        }
        while (length > 0) {
            long skipped = in.skip(length);
            if (skipped <= 0) {
                if (in.read() < 0) {
                    throw new IOException("the connection ended inside a body");
                }
                skipped = 1;
            }
            length -= skipped;
        }
        return status;
    }

    private static String line(InputStream in) throws IOException {
        StringBuilder line = new StringBuilder();
        int b;
        while ((b = in.read()) != '\n') {
            if (b < 0) {
                return line.length() == 0 ? null : line.toString();
            }
            if (b != '\r') {
                line.append((char) b);
            }
        }
        return line.toString();
    }
}
