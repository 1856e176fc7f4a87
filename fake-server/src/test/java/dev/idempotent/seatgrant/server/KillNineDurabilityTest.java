package dev.idempotent.seatgrant.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A seat committed before an after-commit fault survives {@code kill -9} of a real server process and a restart
 * on the same file: the commit was on disk before the client lost its answer, as in the incident.
 */
class KillNineDurabilityTest {

    private static final Pattern LISTENING = Pattern.compile("listening on (http://\\S+)");

    @TempDir
    Path dir;

    private record Running(Process process, URI base) { }

    private Running startServer(String... extra) throws Exception {
        String java = ProcessHandle.current().info().command().orElse("java");
        List<String> command = new java.util.ArrayList<>(List.of(java, "-cp", System.getProperty("java.class.path"),
                Main.class.getName(), "serve", "--port", "0", "--db", dir.resolve("seats").toString()));
        command.addAll(List.of(extra));
        Process process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        String line = CompletableFuture.supplyAsync(() -> {
            try {
                return out.readLine();
            } catch (IOException e) {
                return null;
            }
        }).get(60, TimeUnit.SECONDS);
        if (line == null) {
            process.destroyForcibly();
            throw new AssertionError("the server printed nothing before exiting");
        }
        Matcher m = LISTENING.matcher(line);
        assertTrue(m.find(), line);
        return new Running(process, URI.create(m.group(1)));
    }

    private static void kill9(Running running) throws InterruptedException {
        running.process().destroyForcibly();
        assertTrue(running.process().waitFor(30, TimeUnit.SECONDS), "the server did not die");
    }

    @Test
    void aSeatCommittedBeforeTheResetSurvivesKillNine() throws Exception {
        Running first = startServer("--scenario", "reset");
        try {
            Http http = new Http(first.base());
            assertThrows(IOException.class, () -> http.grant("k-durable", Http.BODY));
        } finally {
            kill9(first);
        }

        Running second = startServer();
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
            kill9(second);
        }
    }
}
