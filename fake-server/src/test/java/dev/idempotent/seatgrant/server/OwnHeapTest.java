package dev.idempotent.seatgrant.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idempotent.seatgrant.server.internal.OwnHeap;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code serve} on a durable store, started with no heap flag, serves from a child JVM with its own heap, and a
 * {@code kill -9} of the process the user started takes the child down too (else it would keep the store file).
 * On {@code --db mem}, whose seats live in the heap, the child keeps the default heap, and so does the proxy's;
 * all get the collector settings.
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
     * {@code proxy} serves from a child with the collector settings: its command line says so where Linux shows it,
     * and the child is what answers, since killing it alone ends the proxy, whose exit code is the child's.
     */
    @Test
    void aProxyServesFromAChildWithTheCollectorSettingsAndNoHeapCap() throws Exception {
        try (FakeSeatServer upstream = FakeSeatServer.start(ServerConfig.builder().build())) {
            List<String> command = List.of("proxy", "--port", "0", "--upstream", upstream.baseUri().toString());
            JavaProcess.Server proxy = JavaProcess.startCommand(command, ProcessBuilder.Redirect.DISCARD);
            try {
                ProcessHandle child = onlyChild(proxy, childCommand -> {
                    assertTrue(childCommand.containsAll(OwnHeap.COLLECTOR), childCommand::toString);
                    assertTrue(childCommand.stream().noneMatch(arg -> arg.startsWith("-Xmx")), childCommand::toString);
                    assertEquals(command, childCommand.subList(childCommand.size() - command.size(),
                            childCommand.size()), "the child runs the proxy with the same arguments");
                });
                Http client = new Http(proxy.base());
                assertEquals(201, client.grant("k-own-heap", Http.BODY).statusCode());
                assertEquals(1, upstream.ledger().seats(), "the grant went through the proxy");

                assertTrue(child.destroyForcibly());
                assertTrue(proxy.process().waitFor(30, TimeUnit.SECONDS), "the proxy ends with its child");
                assertEquals(137, proxy.process().exitValue(), "the child's exit code, killed by signal 9");
                assertThrows(IOException.class, () -> client.grant("k-after", Http.BODY), "nothing serves any more");
            } finally {
                proxy.kill9();
            }
        }
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
            child = onlyChild(server, checkCommand);
            assertEquals(201, new Http(server.base()).grant("k-own-heap", Http.BODY).statusCode());
        } finally {
            server.kill9();
        }
        Await.until(Duration.ofSeconds(30), "the child to die with its parent", () -> !child.isAlive());
    }

    /** The process's one child, its command line checked where Linux shows it. */
    private static ProcessHandle onlyChild(JavaProcess.Server server, Consumer<List<String>> checkCommand)
            throws Exception {
        List<ProcessHandle> children = server.process().children().toList();
        assertEquals(1, children.size(), children::toString);
        ProcessHandle child = children.get(0);
        // ProcessHandle.Info often omits another process's arguments; Linux's /proc has them all.
        Path cmdline = Path.of("/proc", String.valueOf(child.pid()), "cmdline");
        if (Files.exists(cmdline)) {
            checkCommand.accept(List.of(Files.readString(cmdline).split("\0")));
        }
        return child;
    }
}
