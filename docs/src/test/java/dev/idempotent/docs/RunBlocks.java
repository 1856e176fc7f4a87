package dev.idempotent.docs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The shell blocks a page marks for the docs test to run as printed: a {@code ```sh} block right after the line
 * {@value #MARKER}. Finds them, and runs one with {@code bash -euo pipefail -c} under a time bound.
 */
final class RunBlocks {

    /** The line that marks the next code block as one to run. */
    static final String MARKER = "<!-- docs-test: run -->";

    private static final Set<String> SHELLS = Set.of("sh", "bash", "shell");
    private static final Pattern JAR = Pattern.compile("(?<![\\w./$~-])((?:[\\w.-]+/)*target/[\\w.-]+\\.jar)(?![\\w/])");
    private static final int KEPT_OUTPUT = 4_000;

    private RunBlocks() {
    }

    /** A marked block: the line of its opening fence (1-based) and its script. */
    record Block(int line, String script) { }

    /** What running a block did: its exit code (-1 when killed at the bound), and the end of what it printed. */
    record Outcome(int exit, boolean timedOut, String output) { }

    /** The marked blocks of a page, in order. */
    static List<Block> marked(String text) {
        List<Block> blocks = new ArrayList<>();
        String[] lines = text.split("\n", -1);
        for (Markdown.Fenced fenced : Markdown.fencedBlocks(text)) {
            int opening = fenced.line() - 1;
            if (opening > 0 && lines[opening - 1].strip().equals(MARKER) && SHELLS.contains(fenced.info())) {
                blocks.add(new Block(fenced.line(), fenced.body()));
            }
        }
        return blocks;
    }

    /**
     * The lines (1-based) of markers that mark nothing runnable: not right before a {@code ```sh} block. Such a
     * marker would let a command the author meant to be run go unrun.
     */
    static List<Integer> strayMarkers(String text) {
        List<Integer> stray = new ArrayList<>();
        String[] lines = text.split("\n", -1);
        Set<Integer> good = new java.util.HashSet<>();
        for (Block block : marked(text)) {
            good.add(block.line() - 1);
        }
        for (int i = 0; i < lines.length; i++) {
            if (lines[i].strip().equals(MARKER) && !good.contains(i + 1)) {
                stray.add(i + 1);
            }
        }
        return stray;
    }

    /** The relative paths of the built jars a script runs ({@code .../target/NAME.jar}), in order. */
    static List<String> jars(String script) {
        List<String> jars = new ArrayList<>();
        Matcher m = JAR.matcher(script);
        while (m.find()) {
            if (!jars.contains(m.group(1))) {
                jars.add(m.group(1));
            }
        }
        return jars;
    }

    /**
     * Runs {@code script} in {@code directory} with {@code bash -euo pipefail -c}, this JVM's {@code java} first on
     * the PATH; past {@code bound} the process and everything it started are killed.
     */
    static Outcome run(Path directory, String script, Duration bound) {
        Path output = null;
        try {
            output = Files.createTempFile("docs-test-run", ".out");
            ProcessBuilder builder = new ProcessBuilder("bash", "-euo", "pipefail", "-c", script)
                    .directory(directory.toFile())
                    .redirectErrorStream(true)
                    .redirectOutput(output.toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
            String javaBin = Path.of(System.getProperty("java.home"), "bin").toString();
            builder.environment().merge("PATH", javaBin, (old, bin) -> bin + java.io.File.pathSeparator + old);
            Process process = builder.start();
            boolean finished = process.waitFor(bound.toMillis(), TimeUnit.MILLISECONDS);
            if (!finished) {
                process.descendants().forEach(ProcessHandle::destroyForcibly);
                process.destroyForcibly();
                process.waitFor(10, TimeUnit.SECONDS);
            }
            String text = new String(Files.readAllBytes(output), StandardCharsets.UTF_8);
            String tail = text.length() > KEPT_OUTPUT ? "..." + text.substring(text.length() - KEPT_OUTPUT) : text;
            return new Outcome(finished ? process.exitValue() : -1, !finished, tail);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while a docs command ran", e);
        } finally {
            if (output != null) {
                try {
                    Files.deleteIfExists(output);
                } catch (IOException e) {
                    // a temp file left behind is harmless
                }
            }
        }
    }
}
