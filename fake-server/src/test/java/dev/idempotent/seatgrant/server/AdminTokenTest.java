package dev.idempotent.seatgrant.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.net.http.HttpRequest;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The admin token: the Bearer scheme in any case (RFC 9110), the token exactly, and no padded token at all. */
class AdminTokenTest {

    @Test
    void theSchemeIsCaseInsensitiveAndTheTokenIsExact() {
        try (FakeSeatServer server = FakeSeatServer.start(ServerConfig.builder().adminToken("t0k-3n").build())) {
            Http http = new Http(server);
            for (String good : new String[] {"Bearer t0k-3n", "bearer t0k-3n", "BEARER t0k-3n", "Bearer   t0k-3n"}) {
                assertEquals(200, status(http, good), good);
            }
            for (String bad : new String[] {"Bearer t0k-3N", "Basic t0k-3n", "Bearert0k-3n", "Bearer t0k-3n2",
                "t0k-3n", "Bearer"}) {
                assertEquals(401, status(http, bad), bad);
            }
        }
    }

    private static int status(Http http, String authorization) {
        return http.send(HttpRequest.newBuilder(http.uri("/__admin/health")).timeout(Duration.ofSeconds(10))
                .header("Authorization", authorization).GET().build()).statusCode();
    }

    @Test
    void aPaddedTokenIsRefusedBecauseNoRequestCouldPresentIt() {
        assertThrows(IllegalArgumentException.class, () -> ServerConfig.builder().adminToken(" padded "));
        assertThrows(IllegalArgumentException.class, () -> ServerConfig.builder().adminToken("padded\t"));
    }
}
