package dev.idempotent.seatgrant.server;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * One raw keep-alive connection to a server: write any bytes, read responses one at a time (head and
 * {@code Content-Length} body), and see whether the server closed. For what no HTTP client sends: pipelined
 * requests in one write, broken framing, bytes that are not UTF-8.
 */
final class RawConnection implements AutoCloseable {

    /** One response as read off the wire. */
    record Response(int status, Map<String, String> headers, String body) {
        String header(String name) {
            return headers.get(name.toLowerCase(Locale.ROOT));
        }
    }

    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;

    RawConnection(URI base, int readTimeoutMs) throws IOException {
        socket = new Socket(base.getHost(), base.getPort());
        socket.setSoTimeout(readTimeoutMs);
        in = socket.getInputStream();
        out = socket.getOutputStream();
    }

    Socket socket() {
        return socket;
    }

    RawConnection send(String text) throws IOException {
        return send(text.getBytes(StandardCharsets.ISO_8859_1));
    }

    RawConnection send(byte[] bytes) throws IOException {
        out.write(bytes);
        out.flush();
        return this;
    }

    /** The next response; null when the server closed the connection cleanly before sending one. */
    Response read() throws IOException {
        return read(true);
    }

    /** The next response's head only: the answer to a {@code HEAD}, whose {@code Content-Length} has no body. */
    Response readHead() throws IOException {
        return read(false);
    }

    private Response read(boolean withBody) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        int b;
        int matched = 0;
        while (matched < 4 && (b = in.read()) != -1) {
            head.write(b);
            matched = (b == "\r\n\r\n".charAt(matched)) ? matched + 1 : (b == '\r' ? 1 : 0);
        }
        if (matched < 4) {
            if (head.size() == 0) {
                return null;
            }
            throw new IOException("the connection ended inside a response head: " + head);
        }
        String[] lines = head.toString(StandardCharsets.ISO_8859_1).split("\r\n");
        if (!lines[0].startsWith("HTTP/1.1 ")) {
            throw new IOException("not a status line: " + lines[0]);
        }
        int status = Integer.parseInt(lines[0].substring(9, 12));
        Map<String, String> headers = new LinkedHashMap<>();
        for (int i = 1; i < lines.length; i++) {
            int colon = lines[i].indexOf(':');
            headers.put(lines[i].substring(0, colon).strip().toLowerCase(Locale.ROOT), lines[i].substring(colon + 1).strip());
        }
        byte[] body;
        if (!withBody) {
            body = new byte[0];
        } else if ("chunked".equalsIgnoreCase(headers.get("transfer-encoding"))) {
            body = chunkedBody();
        } else if (!headers.containsKey("content-length") && "close".equalsIgnoreCase(headers.get("connection"))
                && status != 204 && status != 304 && status >= 200) {
            // A body that ends with the connection: what a streamed answer to an HTTP/1.0 client is.
            body = in.readAllBytes();
        } else {
            int length = Integer.parseInt(headers.getOrDefault("content-length", "0"));
            body = in.readNBytes(length);
            if (body.length < length) {
                throw new IOException("the connection ended inside a response body");
            }
        }
        return new Response(status, headers, new String(body, StandardCharsets.UTF_8));
    }

    /** A chunked body, decoded; an error when the connection ends before its last chunk. */
    private byte[] chunkedBody() throws IOException {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        while (true) {
            String sizeLine = line();
            int size = Integer.parseInt(sizeLine.split(";")[0].strip(), 16);
            if (size == 0) {
                while (!line().isEmpty()) {
                    // trailers: none expected, skipped
                }
                return body.toByteArray();
            }
            byte[] chunk = in.readNBytes(size);
            if (chunk.length < size) {
                throw new IOException("the connection ended inside a chunk");
            }
            body.writeBytes(chunk);
            if (!line().isEmpty()) {
                throw new IOException("a chunk not followed by CRLF");
            }
        }
    }

    private String line() throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        int b;
        while ((b = in.read()) != '\n') {
            if (b == -1) {
                throw new IOException("the connection ended inside a chunked body");
            }
            if (b != '\r') {
                line.write(b);
            }
        }
        return line.toString(StandardCharsets.ISO_8859_1);
    }

    /** True when the server has closed the connection (EOF or reset) within the read timeout; false on silence. */
    boolean closedByServer() throws IOException {
        try {
            return in.read() == -1;
        } catch (SocketTimeoutException e) {
            return false;
        } catch (SocketException e) {
            return true;
        }
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
