package dev.idempotent.fetch;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.function.Executable;

/**
 * A URL's query may hold a credential, so the URL must show up nowhere: not in a log record at any
 * level, not in an exception message, {@code toString()}, cause or suppressed exception.
 *
 * <p>Logs are captured at the root of java.util.logging at ALL, which is also where the JDK's
 * {@link System.Logger} writes by default, so a log line added anywhere in the client is seen here.
 */
class SecretUrlTest {

    private static final String SECRET = "s3cr3t";
    private static final String JDK_HTTP_TRACING = "jdk.internal.httpclient.";

    @RegisterExtension
    static WireMockExtension server = WireMockExtension.newInstance()
            .options(wireMockConfig().dynamicPort().bindAddress("127.0.0.1"))
            .build();

    private final List<LogRecord> records = new CopyOnWriteArrayList<>();
    private final Handler capture = new Handler() {
        @Override
        public void publish(LogRecord record) {
            records.add(record);
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };
    private final Logger root = Logger.getLogger("");
    private Level rootLevel;

    private final List<Duration> sleeps = new CopyOnWriteArrayList<>();
    private final JsonFetcher client = new JsonFetcher(sleeps::add);

    @BeforeEach
    void captureEveryLogRecord() {
        rootLevel = root.getLevel();
        root.setLevel(Level.ALL);
        capture.setLevel(Level.ALL);
        root.addHandler(capture);
    }

    @AfterEach
    void restoreLogging() {
        root.removeHandler(capture);
        root.setLevel(rootLevel);
    }

    private static String secretUrl(String path) {
        return "http://127.0.0.1:" + server.getPort() + path + "?token=" + SECRET;
    }

    @Test
    void noFailureRevealsTheUrl() throws IOException {
        server.stubFor(get(urlPathEqualTo("/missing")).willReturn(aResponse().withStatus(404)));
        server.stubFor(get(urlPathEqualTo("/busy")).willReturn(aResponse().withStatus(503)));
        server.stubFor(get(urlPathEqualTo("/text")).willReturn(aResponse().withStatus(200)
                .withBody("cannot serve " + secretUrl("/text"))));
        server.stubFor(get(urlPathEqualTo("/array")).willReturn(aResponse().withStatus(200).withBody("[1]")));
        server.stubFor(get(urlPathEqualTo("/slow")).willReturn(aResponse().withStatus(200).withBody("{}")
                .withFixedDelay(3_000)));
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closedPort = socket.getLocalPort();
        }

        List<Throwable> failures = new ArrayList<>();
        failures.add(failure(() -> FetchClient.fetchJson(secretUrl("/missing"))));
        failures.add(failure(() -> client.fetchJson(secretUrl("/busy"), Duration.ofSeconds(5))));
        failures.add(failure(() -> FetchClient.fetchJson(secretUrl("/text"))));
        failures.add(failure(() -> FetchClient.fetchJson(secretUrl("/array"))));
        failures.add(failure(() -> FetchClient.fetchJson(secretUrl("/slow"), Duration.ofMillis(200))));
        failures.add(failure(() -> FetchClient.fetchJson(
                "http://127.0.0.1:" + closedPort + "/v1?token=" + SECRET)));
        failures.add(failure(() -> FetchClient.fetchJson("http://no-such-host.invalid/v1?token=" + SECRET)));
        failures.add(failure(() -> FetchClient.fetchJson("http://127.0.0.1/v1?token=" + SECRET + " space")));
        failures.add(failure(() -> FetchClient.fetchJson("/relative?token=" + SECRET)));
        failures.add(failure(() -> FetchClient.fetchJson("ftp://127.0.0.1/v1?token=" + SECRET)));

        assertEquals(2, sleeps.size(), "the 503 case went through its retries");
        for (Throwable failure : failures) {
            assertFalse(everythingSaidAbout(failure).contains(SECRET),
                    () -> "the URL leaked through " + failure.getClass().getName());
        }
        System.getLogger(SecretUrlTest.class.getName()).log(System.Logger.Level.TRACE, "capture check");
        assertTrue(records.stream().anyMatch(record -> "capture check".equals(record.getMessage())),
                "a System.Logger record at the lowest level reaches the capture, so its silence means something");
        for (LogRecord record : clientRecords()) {
            assertFalse(everythingSaidIn(record).contains(SECRET), () -> "the URL leaked into a log record: " + everythingSaidIn(record));
        }
    }

    /**
     * Every captured record except the JDK HttpClient's own tracing: on JDK 17, once its logger is
     * enabled at DEBUG, it prints each request URI. No library can close that without overriding the
     * operator's logging configuration, so the module README tells operators to keep it off instead.
     */
    private List<LogRecord> clientRecords() {
        return records.stream()
                .filter(record -> record.getLoggerName() == null
                        || !record.getLoggerName().startsWith(JDK_HTTP_TRACING))
                .toList();
    }

    private static Throwable failure(Executable call) {
        try {
            call.execute();
        } catch (FetchException | IllegalArgumentException expected) {
            return expected;
        } catch (Throwable unexpected) {
            fail("unexpected " + unexpected.getClass().getName());
        }
        return fail("the call succeeded");
    }

    /** Message, toString and the printed stack trace, which walks every cause and suppressed exception. */
    private static String everythingSaidAbout(Throwable failure) {
        StringWriter out = new StringWriter();
        failure.printStackTrace(new PrintWriter(out));
        StringBuilder text = new StringBuilder(out.toString());
        for (Throwable t = failure; t != null; t = t.getCause()) {
            text.append('\n').append(t.getMessage()).append('\n').append(t);
            for (Throwable suppressed : t.getSuppressed()) {
                text.append('\n').append(everythingSaidAbout(suppressed));
            }
        }
        return text.toString();
    }

    private static String everythingSaidIn(LogRecord record) {
        StringBuilder text = new StringBuilder(String.valueOf(record.getMessage()));
        text.append('\n').append(record.getLoggerName());
        if (record.getParameters() != null) {
            text.append('\n').append(Arrays.deepToString(record.getParameters()));
        }
        if (record.getThrown() != null) {
            text.append('\n').append(everythingSaidAbout(record.getThrown()));
        }
        return text.toString();
    }
}
