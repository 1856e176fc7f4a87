package dev.idempotent.seatgrant.server.junit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.AppenderBase;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.slf4j.LoggerFactory;

/**
 * What a service's own test log shows at INFO, its usual level: the line that says which server the extension
 * started, and one line per fault struck; the per-request lines stay at DEBUG.
 */
class ExtensionLogTest {

    @Test
    void theStartLineAndOneLinePerFaultStruckAreInfoAndPerRequestLinesAreNot() {
        List<String> lines = new ArrayList<>();
        Logger server = (Logger) LoggerFactory.getLogger("dev.idempotent.seatgrant.server");
        Level before = server.getLevel();
        AppenderBase<ILoggingEvent> appender = new AppenderBase<>() {
            @Override
            protected void append(ILoggingEvent event) {
                synchronized (lines) {
                    lines.add(event.getLevel() + " " + event.getFormattedMessage());
                }
            }
        };
        appender.setContext((LoggerContext) LoggerFactory.getILoggerFactory());
        appender.start();
        server.addAppender(appender);
        server.setLevel(Level.INFO);
        try {
            EngineTestKit.engine("junit-jupiter")
                    .selectors(selectClass(TwoGrantsUnderTheIncident.class))
                    .configurationParameter(OnlyThroughTestKit.PARAMETER, "true")
                    .execute()
                    .testEvents().assertStatistics(stats -> stats.started(1).succeeded(1));
        } finally {
            server.detachAppender(appender);
            server.setLevel(before);
            appender.stop();
        }

        List<String> seen;
        synchronized (lines) {
            seen = List.copyOf(lines);
        }
        assertEquals(1, seen.stream().filter(l -> l.matches("INFO FakeServerExtension started a fake seat server "
                + "\\(store: in memory\\) on port \\d+; faults: none")).count(), String.valueOf(seen));
        // Two users' first attempts are struck, their retries are not; and a request line is never INFO.
        assertEquals(List.of("INFO fault status-after-commit on POST /v1/seats, attempt 1",
                        "INFO fault status-after-commit on POST /v1/seats, attempt 1"),
                seen.stream().filter(l -> l.startsWith("INFO fault ")).toList(), String.valueOf(seen));
        assertTrue(seen.stream().noneMatch(l -> l.contains("->")), String.valueOf(seen));
    }

    @ExtendWith(OnlyThroughTestKit.class)
    static class TwoGrantsUnderTheIncident {
        @RegisterExtension
        static FakeServerExtension fake = FakeServerExtension.server();

        @Test
        void grants() throws Exception {
            fake.scenario("incident-fast");
            for (String user : List.of("user_1", "user_2")) {
                assertEquals(504, Grants.post(fake.baseUri(), "req_" + user, "ws_1", user).statusCode());
                assertEquals(409, Grants.post(fake.baseUri(), "req_" + user, "ws_1", user).statusCode());
            }
        }
    }
}
