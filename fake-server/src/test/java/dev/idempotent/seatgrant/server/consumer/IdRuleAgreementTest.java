package dev.idempotent.seatgrant.server.consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.idempotent.seatgrant.server.FakeSeatServer;
import dev.idempotent.seatgrant.server.JournalEntry;
import dev.idempotent.seatgrant.server.ServerConfig;
import dev.idempotent.seatgrant.worker.SeatRequested;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The worker and the server apply one rule to what a grant may carry, and this proves they agree: every candidate
 * is offered to {@link SeatRequested} and, over a raw loopback socket, to a real fake server, and the server must
 * accept exactly the candidates the worker accepts. The agreed rule (issue 8 item 7; the worker's
 * {@code SeatRequested} Javadoc and the fake server's README say it in the same words):
 * <ul>
 *   <li>Idempotency-Key (the requestId): 1 to 255 characters, each 0x21 to 0x7E, not starting with {@code "}
 *       (issue 35: the server reads a value that starts with {@code "} as an RFC 8941 sf-string and takes the string
 *       it carries as the key, so a requestId {@code "r1"} would be deduped as {@code r1}). The server accepts a key
 *       only when it takes it as itself: the candidate is sent as it is, and again in the structured form, and
 *       each time the server must answer 201 and journal the candidate as the key exactly when the worker
 *       accepts it.</li>
 *   <li>workspaceId and userId: not blank, at most 255 characters, no control character, no unpaired surrogate,
 *       and no leading or trailing whitespace ({@code !s.equals(s.strip())} is refused), otherwise kept as sent.</li>
 *   <li>role: {@code member}, {@code admin} or {@code viewer}, spelled exactly so (issue 22 item 5).</li>
 * </ul>
 * A key with leading or trailing spaces is not a candidate: HTTP strips optional whitespace around a header value,
 * so no server can see it; the worker refuses it before it could be sent.
 */
class IdRuleAgreementTest {

    private static final List<String> KEYS = List.of(
            "req_1", "!", "~", "a!~b", "x".repeat(255), "x".repeat(256), "", "has space", "tab\tinside",
            "del\u007f", "caf\u00e9", "snow\u2603", "under_score-dash.dot:colon/slash",
            "\"r1\"", "\"", "\"open", "x\"y", "q\"", "back\\slash", "\"" + "x".repeat(254));

    private static final List<String> IDS = List.of(
            "ws_1", "Ada Lovelace", " lead", "trail ", "\tlead", "trail\t", "\u2003em", "em\u2003", "\u00a0nbsp",
            "", " ", "w".repeat(255), "w".repeat(256), "nul\u0000", "bell\u0007", "del\u007f", "lone\ud800",
            "pair\ud83d\ude00", "caf\u00e9", "line\nbreak");

    private static final List<String> ROLES = List.of(
            "member", "admin", "viewer", "owner", "Member", "ADMIN", " admin", "viewer ", "", "guest");

    @Test
    void theServerAcceptsExactlyTheKeysIdsAndRolesSeatRequestedAccepts() throws Exception {
        List<String> disagreements = new ArrayList<>();
        try (FakeSeatServer server = FakeSeatServer.start(ServerConfig.builder().build());
             FakeSeatServer structured = FakeSeatServer.start(ServerConfig.builder().build())) {
            int n = 0;
            for (String key : KEYS) {
                boolean worker = accepts(() -> new SeatRequested(key, "ws_1", "u_1"));
                int status = post(server, key.getBytes(StandardCharsets.UTF_8), body("ws_1", "u_" + n++));
                checkKey(disagreements, "Idempotency-Key", key, worker, status, server);
                if (key.chars().allMatch(c -> c >= 0x20 && c <= 0x7e)) {
                    // The draft's form of the same key: a client that quotes it must get the same answer.
                    status = post(structured, sfString(key).getBytes(StandardCharsets.US_ASCII),
                            body("ws_1", "u_" + n++));
                    checkKey(disagreements, "Idempotency-Key (as an sf-string)", key, worker, status, structured);
                } else if (worker) {
                    disagreements.add("Idempotency-Key " + visible(key) + ": the worker accepts a key no sf-string "
                            + "can carry");
                }
            }
            for (String id : IDS) {
                String wsKey = "agree-ws-" + n;
                String userKey = "agree-user-" + n++;
                boolean workerWs = accepts(() -> new SeatRequested(wsKey, id, "u_1"));
                check(disagreements, "workspaceId", id, workerWs,
                        post(server, wsKey.getBytes(StandardCharsets.US_ASCII), body(id, "u_1")));
                boolean workerUser = accepts(() -> new SeatRequested(userKey, "ws_1", id));
                check(disagreements, "userId", id, workerUser,
                        post(server, userKey.getBytes(StandardCharsets.US_ASCII), body("ws_1", id)));
            }
            for (String role : ROLES) {
                String key = "agree-role-" + n;
                boolean worker = accepts(() -> new SeatRequested(key, "ws_1", "u_1", role));
                check(disagreements, "role", role, worker,
                        post(server, key.getBytes(StandardCharsets.US_ASCII), body("ws_1", "u_" + n++, role)));
            }
        }
        assertEquals(List.of(), disagreements, "the worker and the server must accept the same values");
    }

    private static void check(List<String> out, String field, String value, boolean worker, int status) {
        boolean server = status == 201;
        if (status != 201 && (status < 400 || status >= 500)) {
            out.add(field + " " + visible(value) + ": the server answered " + status + ", neither 201 nor a 4xx");
        } else if (worker != server) {
            out.add(field + " " + visible(value) + ": worker " + (worker ? "accepts" : "refuses") + ", server "
                    + (server ? "accepts" : "refuses") + " (" + status + ")");
        }
    }

    /**
     * As {@link #check}, where a 201 counts as accepting the key only when the server journaled {@code key} itself:
     * a server that took it as another key ({@code "r1"} as {@code r1}) did not accept the key as sent.
     */
    private static void checkKey(List<String> out, String field, String key, boolean worker, int status,
                                 FakeSeatServer server) {
        if (status == 201) {
            List<JournalEntry> journal = server.journal();
            String journaled = journal.get(journal.size() - 1).idempotencyKey();
            if (!key.equals(journaled)) {
                if (worker) {
                    out.add(field + " " + visible(key) + ": worker accepts, server takes it as another key "
                            + visible(journaled));
                }
                return;
            }
        }
        check(out, field, key, worker, status);
    }

    /** {@code key} as an RFC 8941 sf-string: quoted, with {@code \} and {@code "} escaped. */
    private static String sfString(String key) {
        return "\"" + key.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }

    private static boolean accepts(Runnable construct) {
        try {
            construct.run();
            return true;
        } catch (IllegalArgumentException refused) {
            return false;
        }
    }

    /** A grant body whose strings are JSON-escaped by hand, so every candidate reaches the server exactly as written. */
    private static String body(String workspaceId, String userId) {
        return body(workspaceId, userId, "member");
    }

    private static String body(String workspaceId, String userId, String role) {
        return "{\"workspaceId\":" + json(workspaceId) + ",\"userId\":" + json(userId) + ",\"role\":" + json(role) + "}";
    }

    private static String json(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\') {
                b.append(c);
            } else {
                b.append(String.format("\\u%04x", (int) c));
            }
        }
        return b.append('"').toString();
    }

    /** One POST on its own connection, the key's bytes written as they are; returns the status. */
    private static int post(FakeSeatServer server, byte[] key, String body) throws IOException {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", server.port()), 5_000);
            socket.setSoTimeout(10_000);
            byte[] payload = body.getBytes(StandardCharsets.US_ASCII);
            OutputStream out = socket.getOutputStream();
            out.write(("POST /v1/seats HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                    + "Content-Length: " + payload.length + "\r\nConnection: close\r\nIdempotency-Key: ")
                    .getBytes(StandardCharsets.US_ASCII));
            out.write(key);
            out.write("\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            out.write(payload);
            out.flush();
            InputStream in = socket.getInputStream();
            StringBuilder statusLine = new StringBuilder();
            for (int c = in.read(); c != -1 && c != '\n'; c = in.read()) {
                statusLine.append((char) c);
            }
            String[] parts = statusLine.toString().split(" ");
            return parts.length > 1 ? Integer.parseInt(parts[1]) : -1;
        }
    }

    private static String visible(String s) {
        StringBuilder b = new StringBuilder();
        for (char c : (s.length() > 20 ? s.substring(0, 20) + "...(" + s.length() + " chars)" : s).toCharArray()) {
            b.append(c >= 0x21 && c < 0x7f ? String.valueOf(c) : String.format("\\u%04x", (int) c));
        }
        return "'" + b + "'";
    }
}
