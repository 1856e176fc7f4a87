package com.example.seats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idempotent.seatgrant.server.Main;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;
import org.slf4j.spi.SLF4JServiceProvider;

/** What a test-scope dependency on dev.idempotent:fake-server puts on a service's test classpath, and what not. */
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
