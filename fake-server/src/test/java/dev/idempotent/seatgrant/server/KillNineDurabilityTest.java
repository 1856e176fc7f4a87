package dev.idempotent.seatgrant.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A seat committed before an after-commit fault survives {@code kill -9} of a real server process and a restart
 * on the same file: the commit was on disk before the client lost its answer, as in the incident. On the default
 * store (SQLite) and on an H2 file.
 */
class KillNineDurabilityTest {

    @TempDir
    Path dir;

    private String db = null;

    private JavaProcess.Server startServer(String... extra) throws Exception {
        List<String> args = new ArrayList<>(List.of("--db", db == null ? dir.resolve("seats").toString() : db));
        args.addAll(List.of(extra));
        return JavaProcess.startServer(args.toArray(String[]::new));
    }

    @Test
    void aSeatCommittedOnAnH2FileBeforeTheResetSurvivesKillNine() throws Exception {
        db = "h2:" + dir.resolve("seats");
        aSeatCommittedBeforeTheResetSurvivesKillNine();
    }

    @Test
    void aSeatCommittedBeforeTheResetSurvivesKillNine() throws Exception {
        JavaProcess.Server first = startServer("--scenario", "reset");
        try {
            Http http = new Http(first.base());
            assertThrows(IOException.class, () -> http.grant("k-durable", Http.BODY));
        } finally {
            first.kill9();
        }

        JavaProcess.Server second = startServer();
        try {
            Http http = new Http(second.base());
            JsonNode seats = http.getJson("/v1/seats?workspaceId=ws_1&userId=user_1").get("seats");
            assertEquals(1, seats.size(), seats::toString);
            // The key survived with the seat: the retry the client never got to make is a replay, not a second seat.
            HttpResponse<String> retry = http.grant("k-durable", Http.BODY);
            assertEquals(409, retry.statusCode());
            assertEquals(seats.get(0).get("id"), Http.json(retry.body()).get("id"));
            assertEquals(1, http.getJson("/__admin/ledger").get("seats").asInt());
        } finally {
            second.kill9();
        }
    }
}
