package dev.idempotent.seatgrant.server.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * How long {@code java -jar fake-server.jar serve} takes to print its "listening on" line (issue 22 item 13), as a
 * user starts it: no JVM flags, in a directory of its own. Part of {@link ServerBenchmark} (row id
 * {@code startup}); it measures, it asserts nothing. Each kind of start is repeated, one at a time, and the
 * median and the slowest are printed:
 *
 * <ul>
 *   <li>{@code serve} in an empty directory: the default file store is created;</li>
 *   <li>{@code serve} again in the same directory: the store exists;</li>
 *   <li>{@code serve --db mem}, which serves from the JVM it was started in;</li>
 *   <li>{@code --version}: the JVM's own start and the jar's, for scale.</li>
 * </ul>
 */
final class StartupTimes {

    private static final long LIMIT_SECONDS = 120;

    private final Path jar;
    private final Path work;
    private final int starts;

    StartupTimes(Path jar, Path work, int starts) {
        this.jar = jar;
        this.work = work;
        this.starts = starts;
    }

    void run() throws Exception {
        Map<String, List<Long>> millis = new LinkedHashMap<>();
        for (int i = 0; i < starts; i++) {
            Path dir = Files.createDirectories(work.resolve("run-" + i));
            millis.computeIfAbsent("serve, new store", k -> new ArrayList<>()).add(untilListening(dir, List.of()));
            millis.computeIfAbsent("serve, store exists", k -> new ArrayList<>()).add(untilListening(dir, List.of()));
            millis.computeIfAbsent("serve --db mem", k -> new ArrayList<>())
                    .add(untilListening(dir, List.of("--db", "mem")));
            millis.computeIfAbsent("--version (exits)", k -> new ArrayList<>()).add(version(dir));
        }
        System.out.println();
        System.out.printf(Locale.ROOT, "Start to \"listening on\", %d starts each, one at a time, java %s%n%n", starts,
                System.getProperty("java.version"));
        System.out.println("| start | median ms | slowest ms | every start, ms |");
        System.out.println("| --- | ---: | ---: | --- |");
        millis.forEach((what, list) -> {
            List<Long> sorted = new ArrayList<>(list);
            sorted.sort(null);
            System.out.printf(Locale.ROOT, "| %s | %d | %d | %s |%n", what, sorted.get(sorted.size() / 2),
                    sorted.get(sorted.size() - 1), list);
        });
        System.out.println();
    }

    private ProcessBuilder java(Path dir, List<String> args) {
        List<String> command = new ArrayList<>(List.of(ProcessHandle.current().info().command().orElse("java"),
                "-jar", jar.toString()));
        command.addAll(args);
        ProcessBuilder builder = new ProcessBuilder(command).directory(dir.toFile())
                .redirectError(dir.resolve("stderr.log").toFile());
        builder.environment().remove("JAVA_TOOL_OPTIONS");
        builder.environment().remove("JDK_JAVA_OPTIONS");
        return builder;
    }

    /** Starts {@code serve --port 0 ARGS}, returns the milliseconds until its line, then stops it as Ctrl-C would. */
    private long untilListening(Path dir, List<String> args) throws Exception {
        List<String> serve = new ArrayList<>(List.of("serve", "--port", "0"));
        serve.addAll(args);
        long t0 = System.nanoTime();
        Process p = java(dir, serve).start();
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
            String line = CompletableFuture.supplyAsync(() -> {
                try {
                    return out.readLine();
                } catch (IOException e) {
                    return null;
                }
            }).get(LIMIT_SECONDS, TimeUnit.SECONDS);
            long ms = (System.nanoTime() - t0) / 1_000_000;
            if (line == null || !line.contains("listening on")) {
                throw new IllegalStateException("serve did not start; see " + dir.resolve("stderr.log"));
            }
            return ms;
        } finally {
            // SIGTERM, as Ctrl-C: the server closes its store, so the next start finds it as a user would.
            p.destroy();
            if (!p.waitFor(30, TimeUnit.SECONDS)) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
            }
        }
    }

    private long version(Path dir) throws Exception {
        long t0 = System.nanoTime();
        Process p = java(dir, List.of("--version")).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        if (!p.waitFor(LIMIT_SECONDS, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IllegalStateException("--version did not exit");
        }
        return (System.nanoTime() - t0) / 1_000_000;
    }
}
