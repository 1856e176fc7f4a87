package dev.idempotent.seatgrant.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idempotent.seatgrant.server.orders.OrdersService;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.logging.Level;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * A proxy's suspected duplicates on the incident page, in a real browser (Debian's headless chromium, skipped
 * loudly where it is not installed, as {@link IncidentPageBrowserTest} is): a keyless client that sends a fresh nonce
 * on every attempt leaves two operations that each created an order; the ledger box counts one group and both
 * lanes say SUSPECTED, while neither is a duplicate.
 */
class SuspectedLanesBrowserTest {

    private static final HttpClient CLIENT = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    private static HeadlessChromium chromium;

    @BeforeAll
    static void startBrowser() {
        chromium = HeadlessChromium.shared();
    }


    @Test
    void bothOperationsOfAGroupAreMarkedSuspectedAndTheLedgerCountsTheGroup() throws Exception {
        FaultPlan lostFirst = FaultPlan.of(FaultRule.of(Fault.STATUS_AFTER_COMMIT, 504)
                .withMethodAndPath("POST", "/orders").withAttempt(1));
        try (OrdersService orders = OrdersService.start(0, true);
             FakeProxy proxy = FakeProxy.start(ProxyConfig.builder(orders.baseUri()).faultPlan(lostFirst)
                     .volatileField("/nonce").build())) {
            WebDriver page = chromium.driver();
            page.manage().window().setSize(new org.openqa.selenium.Dimension(1400, 900));
            page.manage().logs().get(LogType.BROWSER);
            page.get(proxy.baseUri() + "__admin/ui");
            for (String nonce : List.of("n-1", "n-2")) {
                HttpResponse<Void> answer = CLIENT.send(HttpRequest.newBuilder(proxy.baseUri().resolve("/orders"))
                        .timeout(Duration.ofSeconds(10)).header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(
                                "{\"item\":\"book\",\"quantity\":1,\"nonce\":\"" + nonce + "\"}")).build(),
                        HttpResponse.BodyHandlers.discarding());
                assertEquals(504, answer.statusCode());
            }
            assertEquals(1, proxy.ledger().suspected().size(), proxy.ledger().toString());

            new WebDriverWait(page, Duration.ofSeconds(60), Duration.ofMillis(50))
                    .withMessage("the page to count the suspected group and draw both lanes")
                    .ignoring(org.openqa.selenium.StaleElementReferenceException.class)
                    .until(d -> "1".equals(d.findElement(By.id("ledger-suspected")).getDomAttribute("data-count"))
                            && d.findElements(By.cssSelector("#lane-list li.lane")).size() == 2);

            assertTrue(page.findElement(By.id("ledger-suspected-box")).isDisplayed());
            assertEquals("1 group of operations alike, each of which created a resource",
                    page.findElement(By.id("ledger-suspected")).getText());
            List<WebElement> lanes = page.findElements(By.cssSelector("#lane-list li.lane"));
            for (WebElement lane : lanes) {
                assertEquals("true", lane.getDomAttribute("data-suspected"), lane.getText());
                assertEquals("false", lane.getDomAttribute("data-duplicate"), lane.getText());
                assertTrue(lane.getText().contains("SUSPECTED")
                        && lane.getText().contains("one of 2 operations on POST /orders"), lane.getText());
            }
            List<String> errors = page.manage().logs().get(LogType.BROWSER).getAll().stream()
                    .filter(e -> e.getLevel().intValue() >= Level.SEVERE.intValue()).map(LogEntry::getMessage).toList();
            assertEquals(List.of(), errors, "the browser console");
            page.get("about:blank");
        }
    }
}
