package dev.idempotent.seatgrant.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.ServerSocket;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --ready-file PATH} (issue 45 item 9): a script that waits for a file instead of sleeping a fixed time,
 * which missed a proxy that took 18.7 s to start on a loaded machine. {@code serve} and {@code proxy} write the base
 * URL and a newline once the port accepts, written aside and renamed into place; a file an earlier run left is
 * deleted at start (so a failed start leaves none); the file goes when the server stops. Real processes, started
 * as a user starts them, own-heap child included.
 */
class ReadyFileTest {

    private static final Duration START = Duration.ofSeconds(60);

    @TempDir
    Path dir;

    @Test
    void serveWritesItsUrlOnceItAcceptsAndRemovesTheFileWhenStopped() throws Exception {
        Path ready = Files.writeString(dir.resolve("ready"), "http://127.0.0.1:1/ from an earlier run\n");
        Process serve = JavaProcess.start(Main.class, List.of(), List.of("serve", "--port", "0", "--db", "mem",
                "--ready-file", ready.toString()), ProcessBuilder.Redirect.DISCARD);
        try {
            String listening = new BufferedReader(new InputStreamReader(serve.getInputStream(),
                    StandardCharsets.UTF_8)).readLine();
            Await.until(START, "the ready file", () -> read(ready).matches("http://127\\.0\\.0\\.1:\\d+/\n"));
            String url = read(ready).strip();
            assertTrue(listening.startsWith("fake-server listening on " + url + " "), "the line stays: " + listening);
            assertEquals(200, new Http(java.net.URI.create(url)).get("/__admin/health").statusCode());
            try (Stream<Path> files = Files.list(dir)) {
                assertEquals(List.of(ready), files.toList(), "nothing left beside it");
            }

            serve.destroy();
            assertTrue(serve.waitFor(30, TimeUnit.SECONDS));
            assertFalse(Files.exists(ready), "removed on exit");
        } finally {
            serve.destroyForcibly();
        }
    }

    @Test
    void aStaleFileIsDeletedAtStartSoAStartThatFailsLeavesNone() throws Exception {
        Path ready = Files.writeString(dir.resolve("ready"), "http://127.0.0.1:1/\n");
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            Process serve = JavaProcess.start(Main.class, List.of(), List.of("serve", "--db", "mem", "--port",
                    String.valueOf(taken.getLocalPort()), "--ready-file", ready.toString()),
                    ProcessBuilder.Redirect.DISCARD);
            assertTrue(serve.waitFor(60, TimeUnit.SECONDS));
            assertEquals(1, serve.exitValue(), "the port is taken");
        }
        assertFalse(Files.exists(ready), "the earlier run's file is gone, and none was written");
    }

    @Test
    void theProxyWritesItsUrlToo() throws Exception {
        Path ready = dir.resolve("proxy-ready");
        try (FakeSeatServer upstream = FakeSeatServer.start(ServerConfig.builder().build())) {
            Process proxy = JavaProcess.start(Main.class, List.of(), List.of("proxy", "--upstream",
                    upstream.baseUri().toString(), "--ready-file", ready.toString()), ProcessBuilder.Redirect.DISCARD);
            try {
                Await.until(START, "the ready file", () -> read(ready).endsWith("/\n"));
                Http client = new Http(java.net.URI.create(read(ready).strip()));
                assertEquals(201, client.grant("k-ready", Http.BODY).statusCode(), "it forwards once ready");
                proxy.destroy();
                assertTrue(proxy.waitFor(30, TimeUnit.SECONDS));
                assertFalse(Files.exists(ready));
            } finally {
                proxy.destroyForcibly();
            }
        }
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (java.io.IOException e) {
            return "";
        }
    }
}
