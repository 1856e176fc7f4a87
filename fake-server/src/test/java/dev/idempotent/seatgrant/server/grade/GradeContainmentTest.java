package dev.idempotent.seatgrant.server.grade;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.idempotent.seatgrant.server.Await;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Nothing a worker starts outlives its delivery, and a worker cannot see the grader: each delivery runs in a PID
 * namespace of its own. Each escaped child below carries a nonce in its command line, writes its PID, and touches a
 * file every 100 ms; 2 s after the grade returned, no process on the host holds the nonce and the file has stopped
 * changing. These tests need the namespace probe to succeed (they say on stdout whether they ran).
 */
class GradeContainmentTest {

    private static final Duration DELIVERY_TIMEOUT = Duration.ofSeconds(60);
    private static final boolean NAMESPACES = Containment.probe().namespaced();

    /** How each escape starts the child ({@code $CHILD} runs it: nonce in its command line, file, PID file). */
    private static final String FORK_SETSID_FORK = "( setsid sh -c '$CHILD &' & )";
    private static final String SETSID_F = "setsid -f sh -c '$CHILD'";
    private static final String NOHUP_DISOWN = "nohup sh -c '$CHILD' > /dev/null 2>&1 & disown";
    private static final String NEW_PROCESS_GROUP = "set -m; sh -c '$CHILD' & set +m";
    private static final String CLEARED_ENVIRONMENT = "( exec env -i /bin/sh -c 'setsid sh -c \"$0\" &' \"$CHILD\" )";

    @TempDir
    Path dir;

    private final List<Long> started = new ArrayList<>();

    @BeforeAll
    static void sayWhetherTheyRun() {
        System.out.println("GradeContainmentTest: PID namespaces " + (NAMESPACES
                ? "available: the escape and /proc tests run" : "unavailable: the escape and /proc tests are skipped"));
    }

    @AfterEach
    void killWhatTheTestsStarted() {
        // Only the control test leaves a child on purpose; a failed assertion may leave others.
        started.forEach(pid -> ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly));
    }

    @ParameterizedTest
    @ValueSource(strings = {FORK_SETSID_FORK, SETSID_F, NOHUP_DISOWN, NEW_PROCESS_GROUP, CLEARED_ENVIRONMENT})
    void aChildThatEscapesItsDeliveryDoesNotOutliveIt(String escape) throws Exception {
        assumeTrue(NAMESPACES, "no PID namespace can be made here");
        String nonce = "escape-" + UUID.randomUUID();
        Path touched = dir.resolve("touched");
        new Grader(worker(escape, nonce, touched), DELIVERY_TIMEOUT).grade(Set.of("seed-1-201-once"));
        assertTrue(Files.exists(touched), "the child never ran: " + escape);
        Await.until(Duration.ofSeconds(2), "no process to hold the nonce", () -> holders(nonce).isEmpty());
        assertStopsChanging(touched);
    }

    @Test
    void withoutANamespaceASetsidChildOutlivesTheSweepWhichIsWhyTheNamespaceIsThere() throws Exception {
        assumeTrue(NAMESPACES, "no PID namespace can be made here");
        String nonce = "escape-" + UUID.randomUUID();
        Path touched = dir.resolve("touched");
        Grader grader = new Grader(worker(SETSID_F, nonce, touched), DELIVERY_TIMEOUT).withoutNamespace();
        grader.grade(Set.of("seed-1-201-once"));
        assertEquals("containment: process groups only", grader.containment());
        List<Long> holders = holders(nonce);
        started.addAll(holders);
        assertFalse(holders.isEmpty(), "the control escape was swept: the escape tests above would prove nothing");
    }

    @Test
    void aWorkerThatListsProcSeesNoProcessOfTheGrader() throws Exception {
        assumeTrue(NAMESPACES, "no PID namespace can be made here");
        Path seen = dir.resolve("seen");
        // Every process it can see, with its command line; then acks.
        String script = "cat > /dev/null; for p in /proc/[0-9]*; do printf '%s %s\\n' \"${p#/proc/}\""
                + " \"$(tr '\\0' ' ' < $p/cmdline 2>/dev/null)\"; done > '" + seen + "'; exit 0";
        Grader grader = new Grader(List.of("sh", "-c", script), DELIVERY_TIMEOUT);
        grader.grade(Set.of("seed-1-201-once"));
        assertEquals("containment: a PID namespace per delivery", grader.containment());
        List<String> lines = Files.readAllLines(seen);
        String jvm = ProcessHandle.current().info().command().orElseThrow();
        // Its own init, itself, and its loop's subshells and tr: nothing of the grader, nothing else on the host.
        assertTrue(lines.stream().noneMatch(l -> l.contains(jvm)), String.join("\n", lines));
        assertTrue(lines.stream().map(l -> l.substring(l.indexOf(' ') + 1)).allMatch(cmd -> cmd.isBlank()
                || cmd.startsWith("/bin/sh -c ") || cmd.startsWith("sh -c ") || cmd.startsWith("tr ")),
                String.join("\n", lines));
        assertTrue(lines.stream().anyMatch(l -> l.startsWith("1 /bin/sh -c ")), "PID 1 is the grader's init: " + lines);
        assertTrue(lines.stream().anyMatch(l -> l.startsWith("2 sh -c ")), "the worker is PID 2: " + lines);
    }

    /** A worker that starts the child by {@code escape}, waits until it has touched its file, and acks. */
    private List<String> worker(String escape, String nonce, Path touched) throws IOException {
        Path child = dir.resolve("child.sh");
        Files.writeString(child, "echo $$ > \"$1.pid\"; while :; do touch \"$1\"; sleep 0.1; done\n",
                StandardCharsets.UTF_8);
        String run = "exec /bin/sh " + child + " " + touched + " " + nonce;
        String script = "cat > /dev/null; CHILD=\"" + run + "\"; " + escape.replace("$CHILD", run)
                + "\nfor i in $(seq 400); do [ -e '" + touched + "' ] && exit 0; sleep 0.05; done; exit 1";
        return List.of("bash", "-c", script);
    }

    /** The host's processes whose command line holds {@code nonce}. */
    private static List<Long> holders(String nonce) {
        List<Long> found = new ArrayList<>();
        try (Stream<Path> entries = Files.list(Path.of("/proc"))) {
            for (Path entry : entries.filter(p -> p.getFileName().toString().matches("[0-9]+")).toList()) {
                try {
                    String cmdline = new String(Files.readAllBytes(entry.resolve("cmdline")), StandardCharsets.UTF_8);
                    if (cmdline.contains(nonce)) {
                        found.add(Long.parseLong(entry.getFileName().toString()));
                    }
                } catch (IOException gone) {
                    // It ended while we looked.
                }
            }
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        return found;
    }

    /** The file a child touches every 100 ms has stopped changing: the same time over five of its periods. */
    private static void assertStopsChanging(Path touched) throws Exception {
        FileTime before = Files.getLastModifiedTime(touched);
        Thread.sleep(500);
        assertEquals(before, Files.getLastModifiedTime(touched), "the child is still touching its file");
    }
}
