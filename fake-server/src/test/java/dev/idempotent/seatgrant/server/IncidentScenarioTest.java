package dev.idempotent.seatgrant.server;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.http.HttpResponse;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The seed's story with the shipped {@code incident} scenario: the first attempt is committed and answered with
 * a gateway's 504; a client that retries without a key makes a second seat, one that resends its key does not.
 */
class IncidentScenarioTest {

    @Test
    void aKeylessRetryDuplicatesTheSeatAndAKeyedRetryReplaysIt() throws Exception {
        try (FakeSeatServer server = FakeSeatServer.start(
                ServerConfig.builder().faultPlan(FaultPlan.scenario("incident")).build())) {
            Http http = new Http(server);

            assertEquals(504, http.grant(null, Http.BODY).statusCode());
            assertEquals(201, http.grant(null, Http.BODY).statusCode());
            Ledger afterTheAgent = server.ledger();
            assertEquals(1, afterTheAgent.duplicates().size());
            assertEquals(2, afterTheAgent.duplicates().get(0).seatIds().size());

            String other = "{\"workspaceId\":\"ws_1\",\"userId\":\"user_2\",\"role\":\"member\"}";
            assertEquals(504, http.grant("req_2", other).statusCode());
            HttpResponse<String> retry = http.grant("req_2", other);
            assertEquals(409, retry.statusCode());

            Ledger afterThePatch = server.ledger();
            assertEquals(3, afterThePatch.seats());
            assertEquals(afterTheAgent.duplicates(), afterThePatch.duplicates(), "user_2 has exactly one seat");
            assertEquals(List.of("status-after-commit", "-", "status-after-commit", "-"), server.journal().stream()
                    .map(e -> e.fault() == null ? "-" : e.fault()).toList());
        }
    }
}
