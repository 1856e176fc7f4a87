package dev.idempotent.seatgrant.server;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;

/**
 * One in-memory server per test class, emptied before each test: starting a server per test would cost more
 * than the tests themselves on a two-core box.
 */
abstract class SharedServerTest {

    static FakeSeatServer server;
    static Http http;

    @BeforeAll
    static void startServer() {
        server = FakeSeatServer.start(ServerConfig.builder().build());
        http = new Http(server);
    }

    @AfterAll
    static void stopServer() {
        server.close();
    }

    @BeforeEach
    void emptyServer() {
        server.reset();
    }
}
