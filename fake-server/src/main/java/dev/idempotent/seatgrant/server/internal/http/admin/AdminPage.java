package dev.idempotent.seatgrant.server.internal.http.admin;

import dev.idempotent.seatgrant.server.FaultPlan;
import dev.idempotent.seatgrant.server.internal.http.Problems;
import dev.idempotent.seatgrant.server.internal.http.Reply;
import io.netty.handler.codec.http.DefaultHttpHeaders;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Serves the incident page ({@code GET /__admin/ui}) and its stylesheet, script and icon from the jar.
 *
 * <p>The page is public by design: it holds no data, so it is served without the admin token and from any address;
 * every piece of data it shows comes from the admin API, which keeps its own rules. Each asset is read once, when the
 * class loads, and carries a Content-Security-Policy that allows nothing outside this server: no CDN, no font, no
 * inline script or style, no frame around it. Thread-safe: it holds only immutable bytes.
 */
final class AdminPage {

    /** Where the page lives; {@code serve} and {@code reproduce} print this path after the server's base URL. */
    static final String PATH = AdminRoutes.PREFIX + "/ui";

    /**
     * Everything from this server only; no inline code (the page sets styles through the CSSOM, which CSP allows);
     * no plugin, no base-URI rewrite, no form posting elsewhere, no framing.
     */
    static final String CONTENT_SECURITY_POLICY = "default-src 'none'; script-src 'self'; style-src 'self'; "
            + "img-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

    private static final String SCENARIO_OPTIONS = "<!--scenario-options-->";

    private record Asset(byte[] body, String contentType) { }

    private static final Asset PAGE = new Asset(page(), "text/html; charset=utf-8");

    private static final Map<String, Asset> ASSETS = Map.of(
            PATH, PAGE,
            PATH + "/", PAGE,
            PATH + "/app.js", new Asset(read("app.js"), "text/javascript; charset=utf-8"),
            PATH + "/app.css", new Asset(read("app.css"), "text/css; charset=utf-8"),
            PATH + "/icon.svg", new Asset(read("icon.svg"), "image/svg+xml"));

    private AdminPage() {
    }

    /** True for the paths this class answers, before any admin check. */
    static boolean owns(String path) {
        return path.equals(PATH) || path.startsWith(PATH + "/");
    }

    /** The asset at {@code path}: 200 for GET, 405 for another method, 404 for an unknown asset. */
    static Reply reply(HttpMethod method, String path) {
        if (!method.equals(HttpMethod.GET)) {
            return Problems.problem(405, "method-not-allowed", "the page is read with GET")
                    .withHeader(HttpHeaderNames.ALLOW, "GET");
        }
        Asset asset = ASSETS.get(path);
        if (asset == null) {
            return Problems.problem(404, "not-found", "no such page asset");
        }
        Reply reply = new Reply(200, new DefaultHttpHeaders(), asset.body(), asset.contentType(), false, null);
        return reply.withHeader("Content-Security-Policy", CONTENT_SECURITY_POLICY)
                .withHeader("X-Content-Type-Options", "nosniff")
                .withHeader("Referrer-Policy", "no-referrer")
                // A page and script of a different build must never mix after an upgrade; they are small.
                .withHeader(HttpHeaderNames.CACHE_CONTROL, "no-store");
    }

    /** The HTML, with the shipped scenarios written in so the picker never lists one the server lacks. */
    private static byte[] page() {
        String html = new String(read("index.html"), StandardCharsets.UTF_8);
        String options = FaultPlan.SCENARIOS.stream()
                .map(name -> "<option value=\"" + name + "\">" + name + "</option>")
                .collect(Collectors.joining());
        return html.replace(SCENARIO_OPTIONS, options).getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] read(String name) {
        String resource = "/dev/idempotent/seatgrant/server/ui/" + name;
        try (InputStream in = AdminPage.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("the jar lacks " + resource);
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + resource, e);
        }
    }
}
