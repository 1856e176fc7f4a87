package com.example.seats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idempotent.seatgrant.server.FakeProxy;
import dev.idempotent.seatgrant.server.FakeSeatServer;
import dev.idempotent.seatgrant.server.Main;
import dev.idempotent.seatgrant.server.ProxyConfig;
import dev.idempotent.seatgrant.server.ProxyLedger;
import dev.idempotent.seatgrant.server.ServerConfig;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.spi.SLF4JServiceProvider;

/**
 * What a test-scope dependency on dev.idempotent:fake-server puts on a service's test classpath, and what not: no
 * logging backend, no interview code, no database driver or pool (the in-memory store and the proxy need none).
 */
class TestClasspathTest {

    @Test
    void noLoggingBackendAndNoInterviewCode() {
        for (String absent : List.of(
                "ch.qos.logback.classic.Logger",
                "dev.idempotent.seatgrant.worker.fixture.AgentSeatGrantWorker",
                "dev.idempotent.seatgrant.worker.minimalpatch.AgentSeatGrantWorker",
                "dev.idempotent.seatgrant.worker.variants.Variant",
                "dev.idempotent.seatgrant.worker.SeatGrantWorker")) {
            assertThrows(ClassNotFoundException.class, () -> Class.forName(absent), absent);
        }
        assertFalse(ServiceLoader.load(SLF4JServiceProvider.class).iterator().hasNext(), "no SLF4J backend");

        List<String> classpath = Arrays.asList(System.getProperty("surefire.test.class.path")
                .split(File.pathSeparator));
        assertTrue(classpath.stream().anyMatch(entry -> entry.contains("fake-server")), String.valueOf(classpath));
        for (String entry : classpath) {
            assertFalse(entry.contains("logback"), entry);
            assertFalse(entry.contains("seat-grant-worker"), entry);
        }
    }

    @Test
    void noDatabaseDriverAndNoPool() {
        for (String absent : List.of("org.sqlite.JDBC", "org.h2.Driver", "org.postgresql.Driver",
                "com.zaxxer.hikari.HikariDataSource")) {
            assertThrows(ClassNotFoundException.class, () -> Class.forName(absent), absent);
        }
        for (String entry : System.getProperty("surefire.test.class.path").split(File.pathSeparator)) {
            for (String artifact : List.of("sqlite-jdbc", "h2-", "postgresql", "HikariCP")) {
                assertFalse(new File(entry).getName().startsWith(artifact), entry);
            }
        }
    }

    @Test
    void aDatabaseStoreNamesTheDependenciesToAdd(@TempDir Path dir) {
        for (String[] store : new String[][] {
                {"sqlite:" + dir.resolve("seats"), "SQLite", "org.xerial:sqlite-jdbc"},
                {"h2:" + dir.resolve("seats"), "H2", "com.h2database:h2"},
                {"jdbc:postgresql://127.0.0.1:1/seats", "PostgreSQL", "org.postgresql:postgresql"}}) {
            RuntimeException e = assertThrows(RuntimeException.class,
                    () -> FakeSeatServer.start(ServerConfig.builder().db(store[0]).build()).close());

            assertEquals("the " + store[1] + " store needs " + store[2] + " and com.zaxxer:HikariCP on the "
                    + "classpath, which fake-server declares optional: add them to your build (the runnable "
                    + "fake-server.jar has them), or use the in-memory store (--db mem)", e.getMessage());
        }
    }

    @Test
    void theProxyRunsWithoutAnyDatabaseLibrary() throws Exception {
        try (FakeProxy proxy = FakeProxy.start(ProxyConfig.builder(URI.create("http://127.0.0.1:9")).build())) {
            HttpResponse<String> ledger = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                    proxy.baseUri().resolve("/__admin/ledger")).build(), HttpResponse.BodyHandlers.ofString());

            assertEquals(200, ledger.statusCode());
            assertEquals(new ProxyLedger(0, 0, List.of()), proxy.ledger());
        }
    }

    @Test
    void reproduceSaysWhatItNeedsInsteadOfFailingOnAMissingClass() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();

        int exit = Main.run(new String[] {"reproduce"}, print(out), print(err));

        assertEquals(1, exit);
        assertEquals("", out.toString(StandardCharsets.UTF_8));
        assertEquals("fake-server reproduce: the incident lab needs dev.idempotent:seat-grant-worker-lab on the "
                + "classpath; run it from the runnable jar: java -jar fake-server.jar reproduce"
                + System.lineSeparator(), err.toString(StandardCharsets.UTF_8));
    }

    private static PrintStream print(ByteArrayOutputStream bytes) {
        return new PrintStream(bytes, true, StandardCharsets.UTF_8);
    }
}
