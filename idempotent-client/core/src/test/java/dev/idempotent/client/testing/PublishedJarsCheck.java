package dev.idempotent.client.testing;

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
 * Reads the jars a user downloads: the main jar holds this library's classes and nothing runnable or bundled (no
 * SLF4J backend), under a stable module name; the {@code -sources.jar} holds every main source, internal's too; the
 * {@code -javadoc.jar} documents the API package only.
 *
 * <p>Run by a surefire execution in {@code verify}, after the jars are built, with {@code published.jar},
 * {@code published.sources} and {@code published.javadoc} naming them. Its name ends in {@code Check}, so the
 * ordinary test run never picks it up.
 */
class PublishedJarsCheck {

    private static final String API = "dev/idempotent/client/";
    private static final String INTERNAL = API + "internal/";

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
    void theJarHoldsTheLibraryOnlyUnderItsModuleName() throws IOException {
        Path jar = jar("published.jar");
        List<String> classes = entries(jar).stream().filter(e -> e.endsWith(".class")).toList();

        assertTrue(classes.contains(API + "IdempotentClient.class"));
        assertTrue(classes.contains(INTERNAL + "Classifier.class"));
        assertTrue(classes.stream().allMatch(e -> e.startsWith(API)), "nothing but this library's classes: " + classes);
        assertTrue(entries(jar).stream().noneMatch(e -> e.contains("logback") || e.contains("slf4j")
                || e.startsWith("META-INF/services/")), "no logging backend and no service registration");
        try (JarFile file = new JarFile(jar.toFile())) {
            assertEquals("dev.idempotent.client",
                    file.getManifest().getMainAttributes().getValue("Automatic-Module-Name"));
            assertEquals(null, file.getManifest().getMainAttributes().getValue("Main-Class"), "nothing runnable");
        }
    }

    @Test
    void theSourcesJarHoldsEveryMainSourceAndNoTest() throws IOException {
        List<String> entries = entries(jar("published.sources"));

        for (String source : List.of("IdempotentClient.java", "KeyForm.java", "ResponseRule.java", "Verdict.java",
                "package-info.java", "internal/CallPolicy.java", "internal/Classifier.java", "internal/Backoff.java")) {
            assertTrue(entries.contains(API + source), "the sources jar lacks " + source);
        }
        assertTrue(entries.stream().noneMatch(e -> e.endsWith("Test.java") || e.endsWith(".class")),
                "sources only, no tests and no classes: " + entries);
    }

    @Test
    void theJavadocPresentsTheApiAndNotTheInternalPackage() throws IOException {
        Path javadoc = jar("published.javadoc");
        List<String> entries = entries(javadoc);

        assertTrue(entries.stream().anyMatch(e -> e.endsWith(API + "IdempotentClient.html")), "the API is documented");
        assertTrue(entries.stream().anyMatch(e -> e.endsWith(API + "ResponseRule.html")));
        assertTrue(entries.stream().noneMatch(e -> e.contains(INTERNAL)), "no page for the internal package");
        try (JarFile file = new JarFile(javadoc.toFile())) {
            try (InputStream in = file.getInputStream(file.getEntry("element-list"))) {
                assertEquals(List.of("dev.idempotent.client"), new String(in.readAllBytes(), StandardCharsets.UTF_8)
                                .lines().filter(line -> !line.startsWith("module:")).toList(),
                        "the one package the Javadoc offers to link against");
            }
            String index = new String(file.getInputStream(file.getEntry("index-all.html")).readAllBytes(),
                    StandardCharsets.UTF_8);
            assertTrue(!index.contains("client.internal"), "the index names nothing internal");
        }
    }
}
