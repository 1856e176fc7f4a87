package dev.idempotent.seatgrant.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The incident page's layout at 900 and 1400 px wide, in a real browser (issue 45 item 7): a legend badge stays on
 * the line of its text; the legend shows only marks that can occur (no proxy marks on a seat server); a lane label
 * never cuts its counts; no mark sits under the label column; a clicked lane's story scrolls into view; and the
 * marks of a lane follow the order in which the server took each attempt's key, not the order of first bytes.
 * Geometry is read with {@code getBoundingClientRect}, so what is checked is what a person sees.
 */
class IncidentPageLayoutTest {

    private static final List<Integer> WIDTHS = List.of(900, 1400);
    private static final Duration PATIENCE = Duration.ofSeconds(60);

    private static HeadlessChromium chromium;

    private final List<AutoCloseable> toClose = new ArrayList<>();

    @BeforeAll
    static void startBrowser() {
        chromium = HeadlessChromium.shared();
    }


    @AfterEach
    void closeAll() throws Exception {
        chromium.driver().get("about:blank");
        for (int i = toClose.size() - 1; i >= 0; i--) {
            toClose.get(i).close();
        }
    }

    @Test
    void eachLegendBadgeStaysWithItsTextAndOnlyMarksThatCanOccurShow() throws Exception {
        FakeSeatServer server = FakeSeatServer.start(ServerConfig.builder().build());
        toClose.add(server);
        ScriptedUpstream upstream = new ScriptedUpstream(r -> ScriptedUpstream.ok(200, "{}"));
        toClose.add(upstream);
        FakeProxy proxy = FakeProxy.start(ProxyConfig.builder(upstream.baseUri()).build());
        toClose.add(proxy);

        for (FakeServer target : List.<FakeServer>of(server, proxy)) {
            boolean proxied = target == proxy;
            WebDriver page = open(target.baseUri(), 1400, 800);
            await(page, "the page to know what it follows", d -> text(d, "timeline-heading")
                    .endsWith(proxied ? "per operation" : "per grant"));
            for (int width : WIDTHS) {
                resize(page, width, 800);
                String legend = text(page, "legend");
                for (String proxyOnly : List.of("!502", "SUSPECTED")) {
                    assertEquals(proxied, legend.contains(proxyOnly), width + " px, " + target + ": " + legend);
                }
                assertTrue(legend.contains("DUPLICATE") && legend.contains("\u21BA409"), legend);
                @SuppressWarnings("unchecked")
                List<String> apart = (List<String>) js(page).executeScript(BADGES_APART_FROM_TEXT);
                assertEquals(List.of(), apart, width + " px: legend badges on another line than their text");
            }
        }
    }

    @Test
    void laneLabelsKeepTheirCountsAndNoMarkSitsUnderTheLabelColumn() throws Exception {
        FakeSeatServer server = FakeSeatServer.start(ServerConfig.builder()
                .faultPlan(FaultPlan.scenario("incident")).build());
        toClose.add(server);
        Http http = new Http(server);
        // The incident's twin lane: the first delivery held for its 504, a twin in the meantime, then a retry.
        String body = "{\"workspaceId\":\"ws_twin\",\"userId\":\"u_twin\",\"role\":\"member\"}";
        CompletableFuture<HttpResponse<String>> first = http.client().sendAsync(http.postSeat(null, body).build(),
                HttpResponse.BodyHandlers.ofString());
        Await.until(PATIENCE, "the first delivery committed", () -> server.ledger().seats() == 1);
        assertEquals(201, http.grant(null, body).statusCode());
        assertEquals(504, first.get(30, TimeUnit.SECONDS).statusCode());
        assertEquals(201, http.grant(null, body).statusCode());
        assertEquals(200, http.get("/v1/seats?workspaceId=ws_twin&userId=u_twin").statusCode());

        WebDriver page = open(server.baseUri(), 1400, 800);
        await(page, "the lane", d -> lanes(d).size() == 1);
        String twin = lanes(page).stream().map(WebElement::getText).filter(t -> t.contains("ws_twin")).findFirst()
                .orElseThrow();
        assertTrue(twin.contains("3 seats for one grant (one by a twin)") && twin.contains("3 attempts · 1 read"),
                twin);
        assertLanesLaidOut(page);

        // A proxy's suspected lanes carry the longest words a lane has.
        AtomicInteger ids = new AtomicInteger();
        ScriptedUpstream upstream = new ScriptedUpstream(r -> ScriptedUpstream.ok(201, "{}",
                "Location: /orders/" + ids.incrementAndGet()));
        toClose.add(upstream);
        FakeProxy proxy = FakeProxy.start(ProxyConfig.builder(upstream.baseUri()).volatileField("/nonce").build());
        toClose.add(proxy);
        Http client = new Http(proxy.baseUri());
        for (String nonce : List.of("n-1", "n-2")) {
            assertEquals(201, client.send(java.net.http.HttpRequest.newBuilder(proxy.baseUri().resolve(
                    "/orders/with/a/rather/long/path/for/the/label")).header("Content-Type", "application/json")
                    .POST(java.net.http.HttpRequest.BodyPublishers.ofString("{\"item\":\"book\",\"nonce\":\"" + nonce
                            + "\"}")).build()).statusCode());
        }
        page = open(proxy.baseUri(), 1400, 800);
        await(page, "two suspected lanes", d -> lanes(d).size() == 2
                && lanes(d).stream().allMatch(l -> "true".equals(l.getDomAttribute("data-suspected"))));
        assertLanesLaidOut(page);
    }

    @Test
    void aClickedLanesStoryScrollsIntoView() throws Exception {
        FakeSeatServer server = FakeSeatServer.start(ServerConfig.builder().build());
        toClose.add(server);
        Http http = new Http(server);
        for (int i = 0; i < 6; i++) {
            assertEquals(201, http.grant("k-story-" + i, "{\"workspaceId\":\"ws_s\",\"userId\":\"u_" + i
                    + "\",\"role\":\"member\"}").statusCode());
        }
        WebDriver page = open(server.baseUri(), 1400, 700);
        await(page, "six lanes", d -> lanes(d).size() == 6);
        for (int width : WIDTHS) {
            resize(page, width, 700);
            js(page).executeScript("window.scrollTo(0, 0)");
            clickLane(page, 5);
            await(page, "the story", d -> d.findElement(By.id("story")).isDisplayed());
            @SuppressWarnings("unchecked")
            List<Number> story = (List<Number>) js(page).executeScript("var r = document.getElementById('story')"
                    + ".getBoundingClientRect(); return [r.top, r.bottom, window.innerHeight];");
            double top = story.get(0).doubleValue();
            double bottom = story.get(1).doubleValue();
            double height = story.get(2).doubleValue();
            assertTrue(top >= -1 && (bottom <= height + 1 || top <= height / 4), width + " px: the story spans " + top
                    + " to " + bottom + " of a " + height + " px window");
            page.findElement(By.id("story-close")).click();
        }
    }

    @Test
    void aLanesMarksFollowTheOrderTheServerTookTheKeys() throws Exception {
        MutableClock clock = new MutableClock(Instant.parse("2026-12-06T10:00:00Z"));
        FakeSeatServer server = FakeSeatServer.start(ServerConfig.builder().clock(clock).build());
        toClose.add(server);
        // The twin's first byte is read first (a 100 Continue says so), a second before the other delivery's; the
        // other delivery comes whole first, so the server takes its key first: it makes the seat, the twin replays.
        byte[] body = Http.BODY.getBytes(StandardCharsets.UTF_8);
        RawConnection twin = new RawConnection(server.baseUri(), 10_000);
        toClose.add(twin);
        twin.send("POST /v1/seats HTTP/1.1\r\nHost: " + server.baseUri().getAuthority() + "\r\nContent-Type: "
                + "application/json\r\nIdempotency-Key: k-order\r\nExpect: 100-continue\r\nContent-Length: "
                + body.length + "\r\n\r\n");
        assertEquals(100, twin.read().status());
        clock.advance(Duration.ofSeconds(1));
        assertEquals(201, new Http(server).grant("k-order", Http.BODY).statusCode());
        twin.send(body);
        assertEquals(409, twin.read().status());
        List<JournalEntry> journal = server.journal();
        assertEquals(List.of(1, 2), journal.stream().map(JournalEntry::attempt).toList());
        assertTrue(journal.get(1).at().isBefore(journal.get(0).at()), "the replay's first byte came first");

        WebDriver page = open(server.baseUri(), 1400, 800);
        await(page, "the lane's two marks", d -> d.findElements(By.cssSelector("#lane-list .mark")).size() == 2);
        for (int width : WIDTHS) {
            resize(page, width, 800);
            await(page, "the lane redrawn", d -> d.findElements(By.cssSelector("#lane-list .mark")).size() == 2);
            @SuppressWarnings("unchecked")
            List<Number> centres = (List<Number>) js(page).executeScript(MARK_CENTRES, "\u2713201", "\u21BA409");
            assertTrue(centres.get(0).doubleValue() <= centres.get(1).doubleValue() + 0.5,
                    width + " px: the seat is drawn at " + centres.get(0) + ", its replay at " + centres.get(1));
        }
        clickLane(page, 0);
        await(page, "the story", d -> d.findElements(By.cssSelector("#story-steps li")).size() == 2);
        List<WebElement> steps = page.findElements(By.cssSelector("#story-steps li"));
        assertTrue(steps.get(0).getText().startsWith("Attempt 1 ") && steps.get(0).getText().contains("committed seat"),
                steps.get(0).getText());
        assertTrue(steps.get(1).getText().startsWith("Attempt 2 ") && steps.get(1).getText().contains("replay"),
                steps.get(1).getText());
        assertFalse(steps.get(0).getText().contains("twin"), "attempt 1 came first: it is no one's twin");
    }

    /**
     * At each width: every lane's counts (its attempts, reads, seats or resources, replays, twins) lie inside its
     * label, and every mark inside its track, right of the label column.
     */
    private static void assertLanesLaidOut(WebDriver page) {
        for (int width : WIDTHS) {
            resize(page, width, 800);
            await(page, "the lanes redrawn", d -> !lanes(d).isEmpty());
            @SuppressWarnings("unchecked")
            List<String> problems = (List<String>) js(page).executeScript(LANE_PROBLEMS);
            assertEquals(List.of(), problems, width + " px");
        }
    }

    /**
     * Each legend badge whose text starts on another line, or left of it; by the first character of the text that
     * follows the badge, whatever elements hold it.
     */
    private static final String BADGES_APART_FROM_TEXT = """
            var legend = document.getElementById('legend');
            var apart = [];
            legend.querySelectorAll('.mark, .badge-dup, .badge-suspect').forEach(function (badge) {
              if (!badge.getClientRects().length) { return; }
              var walker = document.createTreeWalker(legend, NodeFilter.SHOW_TEXT);
              var node;
              while ((node = walker.nextNode())) {
                if (!badge.contains(node) && (badge.compareDocumentPosition(node) & Node.DOCUMENT_POSITION_FOLLOWING)
                    && /\\S/.test(node.data)) { break; }
              }
              var at = node.data.search(/\\S/);
              var range = document.createRange();
              range.setStart(node, at);
              range.setEnd(node, at + 1);
              var b = badge.getBoundingClientRect();
              var c = range.getBoundingClientRect();
              var sameLine = Math.abs((b.top + b.bottom) / 2 - (c.top + c.bottom) / 2) < c.height;
              if (!sameLine || c.left < b.right - 1) { apart.push(badge.textContent + ' / ' + node.data.trim()); }
            });
            return apart;
            """;

    /** The horizontal centre of the first mark whose text is each argument. */
    private static final String MARK_CENTRES = """
            var marks = Array.from(document.querySelectorAll('#lane-list .mark'));
            return Array.from(arguments).map(function (text) {
              var r = marks.filter(function (m) { return m.textContent.indexOf(text) >= 0; })[0].getBoundingClientRect();
              return (r.left + r.right) / 2;
            });
            """;

    /** Per lane: counts outside the label's visible box, and marks outside the track. */
    private static final String LANE_PROBLEMS = """
            var problems = [];
            var counts = /\\d+ (?:attempts?|reads?|seats?|resources?|replays?|twin deliver(?:y|ies))(?: for one (?:grant|operation)(?: \\([^)]*\\))?)?/g;
            document.querySelectorAll('#lane-list li.lane').forEach(function (lane) {
              var name = lane.querySelector('.lane-name').textContent;
              var facts = lane.querySelector('.lane-facts');
              var box = facts.getBoundingClientRect();
              var label = lane.querySelector('.lane-button').getBoundingClientRect();
              var walker = document.createTreeWalker(facts, NodeFilter.SHOW_TEXT);
              var node;
              while ((node = walker.nextNode())) {
                var m;
                counts.lastIndex = 0;
                while ((m = counts.exec(node.data))) {
                  var range = document.createRange();
                  range.setStart(node, m.index);
                  range.setEnd(node, m.index + m[0].length);
                  Array.from(range.getClientRects()).forEach(function (r) {
                    if (r.right > Math.min(box.right, label.right) + 0.5 || r.bottom > Math.min(box.bottom, label.bottom) + 0.5) {
                      problems.push(name + ': "' + m[0] + '" is cut');
                    }
                  });
                }
              }
              var track = lane.querySelector('.track').getBoundingClientRect();
              lane.querySelectorAll('.mark').forEach(function (mark) {
                var r = mark.getBoundingClientRect();
                if (r.left < track.left - 0.5 || r.right > track.right + 0.5) {
                  problems.push(name + ': mark ' + mark.textContent + ' from ' + r.left + ' to ' + r.right
                    + ' outside its track ' + track.left + ' to ' + track.right);
                }
              });
            });
            return problems;
            """;

    private static WebDriver open(URI base, int width, int height) {
        WebDriver page = chromium.driver();
        resize(page, width, height);
        page.get(base + "__admin/ui");
        await(page, "the page to follow the server", d -> text(d, "connection").startsWith("Live"));
        return page;
    }

    private static void resize(WebDriver page, int width, int height) {
        page.manage().window().setSize(new Dimension(width, height));
        // The page redraws on resize in an animation frame; wait until its width is the window's.
        await(page, "the window at " + width + " px", d -> ((Number) js(d).executeScript(
                "return window.outerWidth")).intValue() == width);
    }

    /** Clicks lane {@code index}'s button; again if a poll redrew the lane between finding and clicking it. */
    private static void clickLane(WebDriver page, int index) {
        await(page, "lane " + index + " clicked", d -> {
            lanes(d).get(index).findElement(By.className("lane-button")).click();
            return true;
        });
    }

    private static JavascriptExecutor js(WebDriver page) {
        return (JavascriptExecutor) page;
    }

    private static void await(WebDriver page, String what, Function<WebDriver, Boolean> condition) {
        new WebDriverWait(page, PATIENCE, Duration.ofMillis(50)).withMessage(what)
                .ignoring(org.openqa.selenium.StaleElementReferenceException.class).until(condition::apply);
    }

    private static String text(WebDriver page, String id) {
        return page.findElement(By.id(id)).getText();
    }

    private static List<WebElement> lanes(WebDriver page) {
        return page.findElements(By.cssSelector("#lane-list li.lane"));
    }
}
