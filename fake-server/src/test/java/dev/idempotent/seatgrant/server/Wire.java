package dev.idempotent.seatgrant.server;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.charset.StandardCharsets;

/**
 * A bare socket client, for what an HTTP library hides: whether the server sent RST or FIN, and raw bytes that
 * no HTTP client would send.
 */
final class Wire {

    /** What the socket saw after the request went out. */
    enum Seen { RESET, EOF, RESPONSE, SILENCE }

    record Result(Seen seen, String firstLine) { }

    private Wire() {
    }

    static String seatPost(String key, String body) {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        return "POST /v1/seats HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                + (key == null ? "" : "Idempotency-Key: " + key + "\r\n")
                + "Content-Length: " + bytes.length + "\r\n\r\n" + body;
    }

    /** {@code GET target} addressed to {@code base} by the name and port it was reached at, as a client sends it. */
    static String get(URI base, String target) {
        return "GET " + target + " HTTP/1.1\r\nHost: " + base.getAuthority() + "\r\n\r\n";
    }

    /**
     * Sends {@code raw} and returns one whole response, head and body ({@code Content-Length}, or chunked with its
     * framing kept), as text; what an HTTP
     * client would not let a test send (an odd {@code Expect}) still gets its answer read in full.
     */
    static String response(URI base, String raw, int readTimeoutMs) throws IOException {
        try (Socket socket = new Socket(base.getHost(), base.getPort())) {
            socket.setSoTimeout(readTimeoutMs);
            OutputStream out = socket.getOutputStream();
            out.write(raw.getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            InputStream in = socket.getInputStream();
            StringBuilder text = new StringBuilder();
            int b;
            while (text.indexOf("\r\n\r\n") < 0 && (b = in.read()) != -1) {
                text.append((char) b);
            }
            java.util.regex.Matcher length = java.util.regex.Pattern.compile("(?i)content-length: *(\\d+)").matcher(text);
            if (length.find()) {
                text.append(new String(in.readNBytes(Integer.parseInt(length.group(1))), StandardCharsets.UTF_8));
            } else if (text.toString().toLowerCase(java.util.Locale.ROOT).contains("transfer-encoding: chunked")) {
                // The chunked body as it came, framing included, up to and with its last chunk.
                java.io.ByteArrayOutputStream body = new java.io.ByteArrayOutputStream();
                int c;
                while (!body.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n0\r\n\r\n") && (c = in.read()) != -1) {
                    body.write(c);
                }
                text.append(body.toString(StandardCharsets.UTF_8));
            }
            return text.toString();
        }
    }

    /** Sends {@code raw} and reads until the server answers, closes, resets, or {@code readTimeoutMs} passes. */
    static Result exchange(URI base, String raw, int readTimeoutMs) throws IOException {
        try (Socket socket = new Socket(base.getHost(), base.getPort())) {
            socket.setSoTimeout(readTimeoutMs);
            OutputStream out = socket.getOutputStream();
            out.write(raw.getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            InputStream in = socket.getInputStream();
            StringBuilder line = new StringBuilder();
            try {
                int b;
                while ((b = in.read()) != -1) {
                    if (b == '\n') {
                        return new Result(Seen.RESPONSE, line.toString().strip());
                    }
                    line.append((char) b);
                }
                return new Result(line.length() == 0 ? Seen.EOF : Seen.RESPONSE, line.toString());
            } catch (SocketTimeoutException e) {
                return new Result(Seen.SILENCE, null);
            } catch (SocketException e) {
                if (String.valueOf(e.getMessage()).toLowerCase(java.util.Locale.ROOT).contains("reset")) {
                    return new Result(Seen.RESET, null);
                }
                throw e;
            }
        }
    }
}
