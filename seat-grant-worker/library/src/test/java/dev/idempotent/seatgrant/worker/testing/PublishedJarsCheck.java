package dev.idempotent.seatgrant.worker.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.jar.JarFile;
import java.util.zip.ZipEntry;
import org.junit.jupiter.api.Test;

/**
 * Reads the jars a user downloads beside the library: the {@code -sources.jar} holds every main source file (the
 * internal package's too, so a debugger can step into it), and the {@code -javadoc.jar} documents the API package
 * only, never presenting {@code internal} as something to depend on.
 *
 * <p>Run by a surefire execution in {@code verify}, after both jars are built, with the system properties
 * {@code published.sources} and {@code published.javadoc} naming them. Its name ends in {@code Check}, so the
 * ordinary test run never picks it up.
 */
class PublishedJarsCheck {

    private static final String API = "dev/idempotent/seatgrant/worker/";
    private static final String INTERNAL = API + "internal/";
    private static final String PACKAGE = "dev.idempotent.seatgrant.worker";

    private static Path jar(String property) {
        String value = System.getProperty(property);
        assertTrue(value != null && !value.isBlank(), "set -D" + property);
        Path path = Path.of(value);
        assertTrue(Files.isRegularFile(path), "no " + path.getFileName() + " was built");
        return path;
    }

    private static List<String> entries(Path jar) throws IOException {
        try (JarFile file = new JarFile(jar.toFile())) {
            return file.stream().map(ZipEntry::getName).toList();
        }
    }

    @Test
    void theSourcesJarHoldsEveryMainSourceAndNoTest() throws IOException {
        List<String> entries = entries(jar("published.sources"));

        for (String source : List.of("SeatGrantWorker.java", "RequestCustomizer.java", "AttemptContext.java",
                "package-info.java", "internal/SeatsApi.java", "internal/SeatProtocol.java")) {
            assertTrue(entries.contains(API + source), "the sources jar lacks " + source);
        }
        assertTrue(entries.stream().noneMatch(e -> e.endsWith("Test.java") || e.endsWith(".class")),
                "sources only, no tests and no classes: " + entries);
    }

    @Test
    void theJavadocPresentsTheApiAndNotTheInternalPackage() throws IOException {
        Path javadoc = jar("published.javadoc");
        List<String> entries = entries(javadoc);

        // The Automatic-Module-Name makes javadoc lay the pages out under the module's name; match either layout.
        assertTrue(entries.stream().anyMatch(e -> e.endsWith(API + "SeatGrantWorker.html")), "the API is documented");
        assertTrue(entries.stream().anyMatch(e -> e.endsWith(API + "RequestCustomizer.html")));
        assertTrue(entries.stream().noneMatch(e -> e.contains(INTERNAL)), "no page for the internal package");
        try (JarFile file = new JarFile(javadoc.toFile())) {
            ZipEntry list = file.getEntry("element-list");
            try (InputStream in = file.getInputStream(list)) {
                assertEquals(List.of(PACKAGE), new String(in.readAllBytes(), StandardCharsets.UTF_8).lines()
                                .filter(line -> !line.startsWith("module:")).toList(),
                        "the one package the Javadoc offers to link against");
            }
            String index = new String(file.getInputStream(file.getEntry("index-all.html")).readAllBytes(),
                    StandardCharsets.UTF_8);
            assertTrue(!index.contains("worker.internal"), "the index names nothing internal");
        }
    }
}
