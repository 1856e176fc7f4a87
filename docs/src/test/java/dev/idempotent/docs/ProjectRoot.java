package dev.idempotent.docs;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Finds the repository root, so packet checks name files the same way whether Maven runs from the
 * root, from {@code docs/}, or an IDE runs a single test.
 *
 * <p>First the {@code idempotent.projectRoot} system property (the docs pom passes
 * {@code ${maven.multiModuleProjectDirectory}} through surefire), then each parent of the working
 * directory. A directory counts as the root when it holds {@code pom.xml} and {@code docs/packets}.
 */
public final class ProjectRoot {

    /** The system property surefire sets from the docs pom. */
    public static final String PROPERTY = "idempotent.projectRoot";

    private ProjectRoot() {
    }

    /** The repository root; throws {@link IllegalStateException} when none can be found. */
    public static Path get() {
        String configured = System.getProperty(PROPERTY);
        if (configured != null && !configured.isBlank() && isRoot(Path.of(configured))) {
            return Path.of(configured).toAbsolutePath().normalize();
        }
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (isRoot(dir)) {
                return dir.normalize();
            }
        }
        throw new IllegalStateException("no project root (pom.xml with docs/packets) at -D" + PROPERTY
                + "=" + configured + " or above " + Path.of("").toAbsolutePath());
    }

    /** {@code docs/packets/<name>} under the root. */
    public static Path packet(String name) {
        return get().resolve("docs").resolve("packets").resolve(name);
    }

    private static boolean isRoot(Path dir) {
        return Files.isRegularFile(dir.resolve("pom.xml")) && Files.isDirectory(dir.resolve("docs").resolve("packets"));
    }
}
