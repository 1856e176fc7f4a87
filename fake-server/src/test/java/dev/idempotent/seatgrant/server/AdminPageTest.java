package dev.idempotent.seatgrant.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idempotent.seatgrant.server.internal.cli.ReproduceCommand;
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The incident page's assets over a real socket: served from the jar without the admin token, locked down by a
 * Content-Security-Policy that allows this server only, and naming nothing outside it. The browser test checks what
 * the page does; this one checks what the server sends.
 */
class AdminPageTest {

    private static final String TOKEN = "page-test-token";
    private static final List<String> ASSETS = List.of("/__admin/ui", "/__admin/ui/app.js", "/__admin/ui/app.css",
            "/__admin/ui/icon.svg");
    private static final HttpClient CLIENT = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    private static FakeSeatServer server;

    @BeforeAll
    static void start() {
        server = FakeSeatServer.start(ServerConfig.builder().adminToken(TOKEN).build());
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static HttpResponse<String> send(String method, String path) throws Exception {
        return CLIENT.send(HttpRequest.newBuilder(server.baseUri().resolve(path)).timeout(Duration.ofSeconds(10))
                .method(method, HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void everyAssetIsServedWithoutTheTokenUnderAStrictPolicy() throws Exception {
        for (String path : ASSETS) {
            HttpResponse<String> res = send("GET", path);

            assertEquals(200, res.statusCode(), path);
            String csp = res.headers().firstValue("Content-Security-Policy").orElseThrow();
            assertTrue(csp.startsWith("default-src 'none';"), csp);
            assertTrue(csp.contains("script-src 'self';") && csp.contains("style-src 'self';")
                    && csp.contains("connect-src 'self';") && csp.contains("frame-ancestors 'none'"), csp);
            assertFalse(csp.contains("unsafe-inline") || csp.contains("unsafe-eval") || csp.contains("http"), csp);
            assertEquals("nosniff", res.headers().firstValue("X-Content-Type-Options").orElse(null), path);
            assertEquals("no-referrer", res.headers().firstValue("Referrer-Policy").orElse(null), path);
            assertFalse(res.body().isEmpty(), path);
        }
        assertTrue(send("GET", "/__admin/ui").headers().firstValue("Content-Type").orElseThrow().startsWith("text/html"));
        assertTrue(send("GET", "/__admin/ui/app.js").headers().firstValue("Content-Type").orElseThrow()
                .startsWith("text/javascript"));
        assertTrue(send("GET", "/__admin/ui/app.css").headers().firstValue("Content-Type").orElseThrow()
                .startsWith("text/css"));
    }

    @Test
    void theDataBehindThePageStillNeedsTheToken() throws Exception {
        for (String path : List.of("/__admin/ledger", "/__admin/requests", "/__admin/faults")) {
            assertEquals(401, send("GET", path).statusCode(), path);
        }
    }

    @Test
    void thePageLoadsNothingFromOutsideThisServer() throws Exception {
        // Every src/href/url() must be a path on this server; the only absolute URL allowed is the SVG namespace,
        // which is an identifier, not something fetched.
        Pattern reference = Pattern.compile("(?:src|href)\\s*=\\s*\"([^\"]*)\"|url\\(([^)]*)\\)|@import");
        for (String path : ASSETS) {
            String body = send("GET", path).body();
            Matcher m = reference.matcher(body);
            while (m.find()) {
                String target = m.group(1) != null ? m.group(1) : m.group(2);
                assertTrue(target != null && (target.startsWith("/__admin/ui") || target.startsWith("#")),
                        path + " references " + m.group());
            }
            String withoutNamespace = body.replace("http://www.w3.org/2000/svg", "");
            assertFalse(withoutNamespace.contains("http://") || withoutNamespace.contains("https://")
                    || withoutNamespace.contains("//fonts.") || withoutNamespace.contains("@font-face"),
                    path + " names something outside the server");
        }
    }

    @Test
    void thePageListsEveryShippedScenario() throws Exception {
        String html = send("GET", "/__admin/ui").body();

        for (String scenario : FaultPlan.SCENARIOS) {
            assertTrue(html.contains("<option value=\"" + scenario + "\">" + scenario + "</option>"), scenario);
        }
        assertFalse(html.contains("<!--scenario-options-->"));
    }

    @Test
    void onlyGetReadsThePageAndUnknownAssetsAre404() throws Exception {
        HttpResponse<String> post = send("POST", "/__admin/ui");
        assertEquals(405, post.statusCode());
        assertEquals("GET", post.headers().firstValue("Allow").orElse(null));
        assertTrue(post.headers().firstValue("Content-Type").orElseThrow().startsWith("application/problem+json"));

        assertEquals(404, send("GET", "/__admin/ui/nothing.js").statusCode());
    }

    @Test
    void serveNamesThePageAfterItsListeningUrl() throws Exception {
        Process process = JavaProcess.start(Main.class, List.of(), List.of("serve", "--port", "0", "--db", "mem"),
                ProcessBuilder.Redirect.DISCARD);
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
            String line = CompletableFuture.supplyAsync(() -> {
                try {
                    return out.readLine();
                } catch (IOException e) {
                    return null;
                }
            }).get(60, TimeUnit.SECONDS);

            Matcher m = Pattern.compile("^fake-server listening on (http://\\S+) \\(.*; page: (http://\\S+)\\)$")
                    .matcher(String.valueOf(line));
            assertTrue(m.matches(), line);
            assertEquals(URI.create(m.group(1)).resolve("/__admin/ui").toString(), m.group(2));
            HttpResponse<String> page = CLIENT.send(HttpRequest.newBuilder(URI.create(m.group(2)))
                    .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, page.statusCode());
            assertTrue(page.body().contains("<title>fake-server: the incident, drawn</title>"));
        } finally {
            process.destroyForcibly();
            assertTrue(process.waitFor(30, TimeUnit.SECONDS));
        }
    }

    @Test
    void reproduceAgainstAServerNamesItsPageOnStderr() throws Exception {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        // A server of its own: the lab resets and drives it, which the other tests' server must not see. The lab is
        // given the token, as FAKE_SERVER_ADMIN_TOKEN would give it; without it, reproduce stops before naming a
        // page it cannot use (ReproduceTest checks that).
        try (FakeSeatServer driven = FakeSeatServer.start(ServerConfig.builder().port(0).db("mem").adminToken(TOKEN)
                .build())) {
            int exit = ReproduceCommand.run(ReproduceCommand.parse(List.of("--server", driven.baseUri().toString(),
                            "--variant", "answer-key", "--events", "1"), TOKEN),
                    new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
                    new PrintStream(err, true, StandardCharsets.UTF_8));

            String stderr = err.toString(StandardCharsets.UTF_8);
            assertEquals(0, exit, stderr);
            assertTrue(stderr.startsWith("reproduce: watch it live at " + driven.baseUri() + "__admin/ui"
                    + System.lineSeparator()), stderr);
        }
    }

    @Test
    void thePageIsNotJournaled() throws Exception {
        send("GET", "/__admin/ui");
        send("GET", "/__admin/ui/app.js");

        assertTrue(server.journal().isEmpty(), () -> "journal: " + server.journal());
    }

    @Test
    void theDocsNameEveryButtonByItsLabelOnThePage() throws Exception {
        // Issue 22 item 12: the docs and their screenshots said "Reset store and journal" for a button that reads
        // "Reset store, journal and fault plan". Every button's label, as the page has it, is in the docs in italics,
        // in the one page that describes the page (issue 37: one place for each fact): docs/incident.md.
        Matcher buttons = Pattern.compile("<button[^>]*>([^<]+)</button>").matcher(send("GET", "/__admin/ui").body());
        List<String> labels = new java.util.ArrayList<>();
        while (buttons.find()) {
            labels.add(buttons.group(1).strip());
        }
        assertTrue(labels.contains("Reset store, journal and fault plan"), labels.toString());
        String doc = "../docs/incident.md";
        String text = java.nio.file.Files.readString(java.nio.file.Path.of(doc)).replaceAll("\\s+", " ");
        for (String label : labels) {
            if (label.equals("Use this token") || label.equals("Close the story")) {
                continue; // the token form and the story's close are described, not named, in the walkthrough
            }
            assertTrue(text.contains("*" + label + "*"), doc + " names the button *" + label + "*");
        }
    }
}
