package dev.idempotent.seatgrant.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idempotent.seatgrant.server.internal.OwnHeap;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code serve} on a durable store, started with no heap flag, serves from a child JVM with its own heap, and a
 * {@code kill -9} of the process the user started takes the child down too (else it would keep the store file).
 * On {@code --db mem}, whose seats live in the heap, the child keeps the default heap; both get the collector
 * settings.
 */
class OwnHeapTest {

    @TempDir
    Path dir;

    @Test
    void aDurableServerWithNoHeapFlagServesFromAChildThatDiesWithIt() throws Exception {
        servesFromAChildThatDiesWithIt(List.of("--db", dir.resolve("seats").toString()), command -> {
            assertTrue(command.contains("-Xmx" + OwnHeap.HEAP), command::toString);
            assertTrue(command.containsAll(OwnHeap.COLLECTOR), command::toString);
        });
    }

    @Test
    void aServerInMemoryServesFromAChildWithTheCollectorSettingsAndNoHeapCap() throws Exception {
        servesFromAChildThatDiesWithIt(List.of("--db", "mem"), command -> {
            assertTrue(command.containsAll(OwnHeap.COLLECTOR), command::toString);
            assertTrue(command.stream().noneMatch(arg -> arg.startsWith("-Xmx")), command::toString);
        });
    }

    /**
     * Starts {@code serve ARGS} as a user would, checks its one child's command line where Linux shows it, grants
     * through it, and kills the parent with -9: the child must die too.
     */
    private static void servesFromAChildThatDiesWithIt(List<String> serveArgs, Consumer<List<String>> checkCommand)
            throws Exception {
        JavaProcess.Server server = JavaProcess.startServer(serveArgs.toArray(String[]::new));
        ProcessHandle child;
        try {
            List<ProcessHandle> children = server.process().children().toList();
            assertEquals(1, children.size(), children::toString);
            child = children.get(0);
            // ProcessHandle.Info often omits another process's arguments; Linux's /proc has them all.
            Path cmdline = Path.of("/proc", String.valueOf(child.pid()), "cmdline");
            if (Files.exists(cmdline)) {
                checkCommand.accept(List.of(Files.readString(cmdline).split("\0")));
            }
            assertEquals(201, new Http(server.base()).grant("k-own-heap", Http.BODY).statusCode());
        } finally {
            server.kill9();
        }
        Await.until(Duration.ofSeconds(30), "the child to die with its parent", () -> !child.isAlive());
    }
}
