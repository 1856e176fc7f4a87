package dev.idempotent.seatgrant.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idempotent.seatgrant.server.orders.OrdersService;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code fake-server proxy} as a user starts it, in its own process: the one line on standard output in the
 * issue's format, its own URL first and the upstream without userinfo, and a proxy that works from that line on.
 */
class ProxyProcessTest {

    @Test
    void theStartupLineNamesItsOwnUrlFirstAndTheUpstreamWithoutUserinfo(@TempDir Path dir) throws Exception {
        Path stderr = dir.resolve("stderr.log");
        try (OrdersService orders = OrdersService.start(0, true);
             JavaProcess.Server proxy = JavaProcess.startCommand(List.of("proxy", "--upstream",
                     "http://alice:pw-s3cret@127.0.0.1:" + orders.baseUri().getPort(), "--scenario", "reset",
                     "--route", "POST /orders", "--admin-token", "adm-t0ken"),
                     ProcessBuilder.Redirect.to(stderr.toFile()))) {
            String line = proxy.startupLine();
            String url = proxy.base().toString();

            assertTrue(Pattern.matches("fake-server proxy listening on http://127\\.0\\.0\\.1:\\d+/ \\(upstream: "
                    + "http://127\\.0\\.0\\.1:" + orders.baseUri().getPort() + "; faults: scenario reset on POST "
                    + "/orders; page: http://127\\.0\\.0\\.1:\\d+/__admin/ui\\)", line), line);
            assertTrue(line.startsWith("fake-server proxy listening on " + url), "its own URL first: " + line);
            Http client = new Http(proxy.base());
            assertEquals(200, client.get("/orders").statusCode(), "it forwards from the moment it printed");
            assertEquals(401, client.get("/__admin/ledger").statusCode(), "the admin API needs the token");
            proxy.kill9();
            String logs = Files.readString(stderr);
            for (String secret : List.of("pw-s3cret", "alice", "adm-t0ken")) {
                assertTrue(!line.contains(secret) && !logs.contains(secret), secret);
            }
        }
    }
}
