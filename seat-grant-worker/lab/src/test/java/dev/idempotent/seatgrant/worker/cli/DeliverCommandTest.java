package dev.idempotent.seatgrant.worker.cli;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.matchingJsonPath;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.options;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import dev.idempotent.seatgrant.worker.testing.WorkerThreads;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@code deliver}: one event on stdin, the API root in SEATS_BASE_URL, the verdict as the exit code. */
class DeliverCommandTest {

    private static final String EVENT = "{\"requestId\":\"req_1\",\"workspaceId\":\"ws\",\"userId\":\"u1\",\"role\":\"member\"}\n";
    private static final String SEAT = "{\"id\":\"seat_1\",\"role\":\"member\"}";

    @RegisterExtension
    static final WireMockExtension wm = WireMockExtension.newInstance()
            .options(options().dynamicPort().bindAddress("127.0.0.1"))
            .build();

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int deliver(String stdin, Map<String, String> env, String... flags) {
        String[] args = new String[flags.length + 1];
        args[0] = "deliver";
        System.arraycopy(flags, 0, args, 1, flags.length);
        return Main.run(args, new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)),
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8),
                env);
    }

    private int deliver(String... flags) {
        return deliver(EVENT, Map.of("SEATS_BASE_URL", wm.baseUrl()), flags);
    }

    private void answer(String path, int status, String body) {
        wm.stubFor(post(urlPathEqualTo(path)).willReturn(aResponse().withStatus(status).withBody(body)));
    }

    @Test
    void aGrantedEventIsAcknowledgedAfterOnePostKeyedByItsRequestId() {
        answer("/v1/seats", 201, SEAT);
        assertEquals(0, deliver());
        wm.verify(1, postRequestedFor(urlPathEqualTo("/v1/seats")).withHeader("Idempotency-Key", equalTo("req_1")));
    }

    @Test
    void theDeliveryClosesTheAnswerKeyWorkerItCreatedAndGrantsTheEventsRole() {
        answer("/v1/seats", 201, SEAT);
        Set<Thread> before = WorkerThreads.live();

        assertEquals(0, deliver(EVENT.replace("\"member\"", "\"viewer\""), Map.of("SEATS_BASE_URL", wm.baseUrl())));

        assertEquals(List.of(), WorkerThreads.startedSince(before), "the worker's client and threads were released");
        wm.verify(1, postRequestedFor(urlPathEqualTo("/v1/seats")).withRequestBody(
                matchingJsonPath("$.role", equalTo("viewer"))));
    }

    @Test
    void aBaseUrlWithAPathKeepsIt() {
        answer("/t/tok_abc/v1/seats", 201, SEAT);
        assertEquals(0, deliver(EVENT, Map.of("SEATS_BASE_URL", wm.baseUrl() + "/t/tok_abc")));
        wm.verify(1, postRequestedFor(urlPathEqualTo("/t/tok_abc/v1/seats")));
    }

    @Test
    void theAnswerKeyRejectsA400AndTheVariantsNackIt() {
        answer("/v1/seats", 400, "{}");
        assertEquals(3, deliver(), "the answer key knows a 400 can never succeed");
        wm.verify(1, postRequestedFor(urlPathEqualTo("/v1/seats")));
        wm.resetRequests();
        assertEquals(1, deliver("--variant", "minimal-patch"), "the interview code has no reject: a throw is a nack");
        wm.verify(1, postRequestedFor(urlPathEqualTo("/v1/seats")));
    }

    @Test
    void aLineThatIsNotAnEventIsRejected() {
        assertEquals(3, deliver("{\"requestId\": 7}\n", Map.of("SEATS_BASE_URL", wm.baseUrl())));
        assertEquals(3, deliver("", Map.of("SEATS_BASE_URL", wm.baseUrl())));
        wm.verify(0, postRequestedFor(urlPathEqualTo("/v1/seats")));
    }

    @Test
    void noUsableBaseUrlIsABadCommandLineAndTheValueIsNeverEchoed() {
        assertEquals(2, deliver(EVENT, Map.of()));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("SEATS_BASE_URL"));
        err.reset();
        assertEquals(2, deliver(EVENT, Map.of("SEATS_BASE_URL", "not a url?token=s3cr3t")));
        assertFalse(err.toString(StandardCharsets.UTF_8).contains("s3cr3t"));
        wm.verify(0, postRequestedFor(urlPathEqualTo("/v1/seats")));
    }

    @Test
    void badFlagsExitTwoAndHelpExitsZero() {
        assertEquals(2, deliver("--variant", "yolo"));
        assertEquals(2, deliver("--variant"));
        assertEquals(2, deliver("--server", "http://127.0.0.1:1"));
        assertEquals("", out.toString(StandardCharsets.UTF_8));
        assertEquals(0, deliver("--help"));
        assertTrue(out.toString(StandardCharsets.UTF_8).contains("SEATS_BASE_URL"));
    }
}
