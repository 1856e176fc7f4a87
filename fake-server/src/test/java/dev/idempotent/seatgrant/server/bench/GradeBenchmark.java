package dev.idempotent.seatgrant.server.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * How long a full {@code grade} takes (issue 21: at most 15 s median on an idle 2-core machine, 30 s with a core
 * kept busy), measured as a user runs it: {@code java -jar fake-server.jar grade -- node seat-grant-worker.mjs}, a
 * new JVM each time (so its warm-up is in every number), the Node test worker (it starts in about 0.1 s). Not a
 * test. Run it with
 *
 * <pre>{@code ./mvnw -B -q -Pgrade-bench -pl fake-server -am verify -DskipTests}</pre>
 *
 * <p>{@code -Dgrade.bench.runs=N} (default 5) grades per setting; {@code -Dgrade.bench.busy=N} (default 0,1) the
 * settings, as numbers of threads this JVM keeps spinning meanwhile: 0 is the machine as it is, 1 "loaded" as the
 * stability test loads it. It prints each run's wall time, exit code and verdict line (and any check that did not
 * pass), then the median per setting.
 */
public final class GradeBenchmark {

    private GradeBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        Path target = Path.of(args.length > 0 ? args[0] : "target");
        Path jar = target.resolve("fake-server.jar");
        Path worker = Path.of("src", "test", "workers", "node", "seat-grant-worker.mjs").toAbsolutePath();
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException("build the jar first: " + jar);
        }
        int runs = Integer.getInteger("grade.bench.runs", 5);
        String java = ProcessHandle.current().info().command().orElse("java");
        System.out.printf(Locale.ROOT, "grade benchmark: %d runs per setting, %d cores, load average %s%n", runs,
                Runtime.getRuntime().availableProcessors(), loadAverage());
        for (String setting : System.getProperty("grade.bench.busy", "0,1").split(",")) {
            int busy = Integer.parseInt(setting.strip());
            AtomicBoolean spinning = new AtomicBoolean(true);
            List<Thread> spinners = new ArrayList<>();
            for (int i = 0; i < busy; i++) {
                Thread t = new Thread(() -> {
                    while (spinning.get()) {
                        Thread.onSpinWait();
                    }
                }, "busy-core-" + i);
                t.setDaemon(true);
                t.start();
                spinners.add(t);
            }
            List<Double> seconds = new ArrayList<>();
            try {
                for (int i = 1; i <= runs; i++) {
                    long start = System.nanoTime();
                    Process p = new ProcessBuilder(java, "-jar", jar.toString(), "grade", "--", "node",
                            worker.toString()).redirectErrorStream(true).start();
                    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                    if (!p.waitFor(10, TimeUnit.MINUTES)) {
                        p.destroyForcibly();
                        throw new IllegalStateException("a grade ran for 10 minutes");
                    }
                    double s = (System.nanoTime() - start) / 1e9;
                    seconds.add(s);
                    String verdict = out.lines().filter(l -> l.matches("(PASS|FAIL|INCONCLUSIVE): .*")).findFirst()
                            .orElse("(no verdict line)");
                    System.out.printf(Locale.ROOT, "  busy %d, run %d: %6.1f s, exit %d, %s%n", busy, i, s,
                            p.exitValue(), verdict);
                    // A check that did not pass, with its evidence: what the time went into, or what load did.
                    out.lines().filter(l -> l.matches("[a-z0-9-]+ +[a-zA-Z]+ +(FAIL|INCONCLUSIVE).*"))
                            .forEach(l -> System.out.println("    " + l));
                }
            } finally {
                spinning.set(false);
                for (Thread t : spinners) {
                    t.join(Duration.ofSeconds(5).toMillis());
                }
            }
            List<Double> sorted = seconds.stream().sorted().toList();
            System.out.printf(Locale.ROOT, "busy %d: median %.1f s, min %.1f s, max %.1f s (load average now %s)%n",
                    busy, sorted.get(sorted.size() / 2), sorted.get(0), sorted.get(sorted.size() - 1), loadAverage());
        }
    }

    private static String loadAverage() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).split(" ")[0];
        } catch (IOException | RuntimeException e) {
            return "unknown";
        }
    }
}
