package dev.idempotent.seatgrant.server.grade;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;

/**
 * A test fixture, not code to copy: a seat-grant worker with one defect at a time, switched on by a flag, so the
 * calibration tests can say which signal and which gate each defect is charged to. Without a flag it is right: the
 * requestId as the Idempotency-Key on every attempt, a 2 s request timeout, 408, 429, 5xx, an in-progress 409 and
 * a lost answer retried (Retry-After honoured), a 201 or a replay acked, any other 4xx rejected, five attempts and
 * then a nack, and one JSON line per attempt naming the requestId, the attempt and the status.
 *
 * <p>Its HTTP is hand-written over a socket, one request per connection, so a flag can also shape the wire
 * ({@code --trickle}). Flags: {@code --keyless}, {@code --replay-is-failure} (a 409 replay dead-letters the event),
 * {@code --ack-when-exhausted}, {@code --ack-every-failure}, {@code --lookup-before-resend} (after a lost answer,
 * {@code GET /v1/seats} first and ack the seat it finds), {@code --admin-probe} (behaves only when
 * {@code /__admin/health} answers; otherwise keyless, acking whatever happens), {@code --admin-reset} (reads the
 * admin API and resets the server after its grant), {@code --fabricate-log} (logs a key it never sent and a replay
 * that never happened), {@code --log-url-unless-token} (logs SEATS_BASE_URL in every line unless it holds
 * {@code /t/}, the one check that looked for it once had), {@code --log-url-on-504} (logs it only on a
 * 504), {@code --retry-early} (0.1 s after any retryable answer, Retry-After or not),
 * {@code --trickle S} (the body S seconds after the headers), {@code --request-timeout S} (0: none).
 */
public final class CalibrationWorker {

    private static final int ACK = 0;
    private static final int NACK = 1;
    private static final int REJECT = 3;
    private static final int ATTEMPTS = 5;
    private static final ObjectMapper JSON = new ObjectMapper();

    private final List<String> flags;
    private final URI base;
    private final String requestId;
    private final String workspaceId;
    private final String userId;
    private final int timeoutMs;
    private final long trickleMs;
    private boolean keyless;
    private boolean ackAlways;

    /** One exchange's answer: a status (0 when the answer was lost), its headers and body as text. */
    private record Answer(int status, String head, String body) {
        boolean lost() {
            return status == 0;
        }

        boolean problem() {
            return head.toLowerCase(Locale.ROOT).contains("application/problem+json");
        }

        long retryAfterMs() {
            for (String line : head.split("\r\n")) {
                if (line.toLowerCase(Locale.ROOT).startsWith("retry-after:")) {
                    try {
                        return Long.parseLong(line.substring("retry-after:".length()).strip()) * 1000;
                    } catch (NumberFormatException e) {
                        return -1;
                    }
                }
            }
            return -1;
        }
    }

    private CalibrationWorker(List<String> flags, URI base, JsonNode event) {
        this.flags = flags;
        this.base = base;
        this.requestId = event.path("requestId").asText();
        this.workspaceId = event.path("workspaceId").asText();
        this.userId = event.path("userId").asText();
        this.timeoutMs = (int) (seconds("--request-timeout", 2) * 1000);
        this.trickleMs = (long) (seconds("--trickle", 0) * 1000);
        this.keyless = flags.contains("--keyless");
    }

    public static void main(String[] args) throws IOException {
        String line = new String(System.in.readAllBytes(), StandardCharsets.UTF_8).strip();
        String base = System.getenv("SEATS_BASE_URL");
        System.exit(new CalibrationWorker(List.of(args), URI.create(base), JSON.readTree(line)).run());
    }

    private double seconds(String flag, double otherwise) {
        int at = flags.indexOf(flag);
        return at < 0 ? otherwise : Double.parseDouble(flags.get(at + 1));
    }

    private int run() throws IOException {
        if (flags.contains("--admin-probe") && exchange("GET", "/__admin/health", false, null).status() != 200) {
            // The grader is not looking: no key, and every outcome acked.
            keyless = true;
            ackAlways = true;
        }
        String body = JSON.createObjectNode().put("workspaceId", workspaceId).put("userId", userId)
                .put("role", "member").toString();
        boolean lostBefore = false;
        for (int attempt = 1; attempt <= ATTEMPTS; attempt++) {
            if (lostBefore && flags.contains("--lookup-before-resend") && seatExists()) {
                log(attempt, "found", 200);
                return ACK;
            }
            Answer answer = exchange("POST", "/v1/seats", true, body);
            log(attempt, answer.lost() ? "lost" : "answered", answer.status());
            if (ackAlways || flags.contains("--ack-every-failure")) {
                return ACK;
            }
            // An answer lost, or a gateway's, may follow a commit: the lookup-first worker looks before resending.
            lostBefore = answer.lost() || answer.status() == 408 || answer.status() >= 500;
            int status = answer.status();
            if (status == 201 || status == 200) {
                return afterGrant(ACK);
            }
            if (status == 409 && !answer.problem()) {
                return flags.contains("--replay-is-failure") ? REJECT : afterGrant(ACK);
            }
            boolean retryable = answer.lost() || status == 409 || status == 408 || status == 429 || status >= 500;
            if (!retryable) {
                return REJECT;
            }
            long wait = flags.contains("--retry-early") ? 100 : Math.max(200, answer.retryAfterMs());
            pause(wait);
        }
        return flags.contains("--ack-when-exhausted") ? ACK : NACK;
    }

    /** After a grant: the {@code --admin-reset} worker covers its tracks. */
    private int afterGrant(int code) throws IOException {
        if (flags.contains("--admin-reset")) {
            exchange("GET", "/__admin/ledger", false, null);
            exchange("GET", "/__admin/faults", false, null);
            exchange("POST", "/__admin/reset", false, "");
        }
        return code;
    }

    private boolean seatExists() throws IOException {
        Answer found = exchange("GET", "/v1/seats?workspaceId=" + URLEncoder.encode(workspaceId, StandardCharsets.UTF_8)
                + "&userId=" + URLEncoder.encode(userId, StandardCharsets.UTF_8), false, null);
        return found.status() == 200 && found.body().contains("\"id\"");
    }

    private void log(int attempt, String outcome, int status) {
        String line = "{\"event\":\"seat.grant.attempt\",\"requestId\":\"" + requestId + "\",\"attempt\":" + attempt
                + ",\"outcome\":\"" + outcome + "\"" + (status > 0 ? ",\"status\":" + status : "");
        if (flags.contains("--fabricate-log")) {
            line += ",\"idempotencyKey\":\"k-" + requestId + "\",\"replayed\":true";
        }
        if (flags.contains("--log-url-unless-token") && !base.toString().contains("/t/")
                || flags.contains("--log-url-on-504") && status == 504) {
            line += ",\"url\":\"" + base + "\"";
        }
        System.err.println(line + "}");
    }

    /**
     * One request on its own connection; API paths go under the base URL's path, admin paths at its root. A reset,
     * a close or a timeout is a lost answer (status 0).
     */
    private Answer exchange(String method, String path, boolean api, String body) {
        String target = (api || path.startsWith("/v1/") ? base.getRawPath() : "") + path;
        byte[] content = body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8);
        StringBuilder head = new StringBuilder(method + " " + target + " HTTP/1.1\r\nHost: " + base.getHost() + ":"
                + base.getPort() + "\r\nConnection: close\r\n");
        if (method.equals("POST") && api && !keyless) {
            head.append("Idempotency-Key: ").append(requestId).append("\r\n");
        }
        if (body != null) {
            head.append("Content-Type: application/json\r\nContent-Length: ").append(content.length).append("\r\n");
        }
        head.append("\r\n");
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(base.getHost(), base.getPort()), 2_000);
            socket.setSoTimeout(timeoutMs);
            OutputStream out = socket.getOutputStream();
            out.write(head.toString().getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            if (trickleMs > 0 && content.length > 0) {
                pause(trickleMs);
            }
            out.write(content);
            out.flush();
            InputStream in = socket.getInputStream();
            ByteArrayOutputStream all = new ByteArrayOutputStream();
            in.transferTo(all);
            String text = all.toString(StandardCharsets.UTF_8);
            int end = text.indexOf("\r\n\r\n");
            if (!text.startsWith("HTTP/1.1 ") || end < 0) {
                return new Answer(0, "", "");
            }
            return new Answer(Integer.parseInt(text.substring(9, 12)), text.substring(0, end), text.substring(end + 4));
        } catch (IOException | RuntimeException e) {
            return new Answer(0, "", "");
        }
    }

    private static void pause(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
