package dev.idempotent.seatgrant.server.grade;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * How each delivery is contained. On Linux, each runs in a PID namespace of its own ({@code unshare --pid --fork
 * --kill-child --mount-proc}, with {@code --user --map-root-user} when the grader is not root): inside, {@code /proc}
 * shows the delivery's own processes only, and when the delivery ends, however it ends, the namespace ends and
 * every process in it with it, in a new session or not. The network stays the host's.
 *
 * <p>PID 1 of the namespace is a small init the grader controls ({@link #INIT}, a POSIX shell): it starts the worker
 * as PID 2, with the event on its stdin, waits for it alone and exits with its exit code, which ends the namespace.
 * The worker therefore never gets PID 1's exemption from signals it has no handler for; a delivery killed at its
 * timeout is ended by a SIGKILL to {@code unshare}, which {@code --kill-child} passes to PID 1, and the kernel then
 * kills the rest of the namespace.
 *
 * <p>Where a namespace cannot be made (not Linux, no {@code unshare}, user namespaces off), the fallback is the
 * delivery's session and process group, swept when the delivery ends ({@link WorkerCommand}); the liveness gate
 * still fails a worker whose leftovers send a request. Immutable.
 */
final class Containment {

    /** What the report says, once, when a delivery cannot have its own namespace. */
    static final String FALLBACK = "containment: process groups only";

    /**
     * PID 1 inside the namespace: starts the worker in the background with the event on its stdin (a background job
     * of a non-interactive shell would read /dev/null), waits for it alone, and exits with its code.
     */
    static final String INIT = "exec 3<&0; \"$@\" 0<&3 3<&- & w=$!; exec 3<&- 0</dev/null; wait \"$w\"";

    private static final List<String> PID_NAMESPACE = List.of("--pid", "--fork", "--kill-child", "--mount-proc");

    private final List<String> prefix;

    private Containment(List<String> prefix) {
        this.prefix = List.copyOf(prefix);
    }

    /** No namespace: the session and process-group sweep only (what {@code --no-namespace} asks for). */
    static Containment processGroupsOnly() {
        return new Containment(List.of());
    }

    /**
     * Tries a namespace once: as root, plain {@code unshare}; otherwise with {@code --user --map-root-user}; the
     * fallback when that fails too, or this is not Linux.
     */
    static Containment probe() {
        if (!System.getProperty("os.name", "").toLowerCase(Locale.ROOT).contains("linux")) {
            return processGroupsOnly();
        }
        String unshare = null;
        for (String dir : List.of("/usr/bin", "/bin", "/usr/sbin", "/sbin")) {
            if (Files.isExecutable(Path.of(dir, "unshare"))) {
                unshare = Path.of(dir, "unshare").toString();
                break;
            }
        }
        if (unshare == null) {
            return processGroupsOnly();
        }
        List<String> prefix = new ArrayList<>(List.of(unshare));
        if (!root()) {
            prefix.addAll(List.of("--user", "--map-root-user"));
        }
        prefix.addAll(PID_NAMESPACE);
        prefix.addAll(List.of("/bin/sh", "-c", INIT, "grade-init"));
        List<String> trial = new ArrayList<>(prefix);
        trial.add("true");
        return works(trial) ? new Containment(prefix) : processGroupsOnly();
    }

    /** Whether deliveries get a PID namespace each. */
    boolean namespaced() {
        return !prefix.isEmpty();
    }

    /** {@code command} as a delivery runs it: inside its namespace's init, or as it is. */
    List<String> wrap(List<String> command) {
        if (prefix.isEmpty()) {
            return command;
        }
        List<String> line = new ArrayList<>(prefix);
        line.addAll(command);
        return line;
    }

    private static boolean works(List<String> command) {
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            p.getOutputStream().close();
            if (!p.waitFor(10, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return false;
            }
            return p.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static boolean root() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"), StandardCharsets.ISO_8859_1)) {
                if (line.startsWith("Uid:")) {
                    return line.split("\\s+")[1].equals("0");
                }
            }
        } catch (IOException | RuntimeException e) {
            // Unknown: try the unprivileged way, which also works for root where user namespaces are on.
        }
        return false;
    }

    @Override
    public String toString() {
        return namespaced() ? "containment: a PID namespace per delivery" : FALLBACK;
    }
}
