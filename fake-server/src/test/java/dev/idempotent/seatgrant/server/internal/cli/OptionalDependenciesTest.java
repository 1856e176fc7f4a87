package dev.idempotent.seatgrant.server.internal.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.reflect.Method;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * The lab and logback are optional dependencies of the fake-server artifact, so a service's test classpath lacks
 * them. Only the code that needs them may name their classes, and it says what is missing instead of failing on a
 * missing class. The consumer build (src/it/consumer) checks the same from a real service's classpath.
 */
class OptionalDependenciesTest {

    private static final String WORKER_CODE = "dev/idempotent/seatgrant/worker/";

    @Test
    void onlyOneNestedClassNamesLogbackSoNoCommandFailsWithoutIt() throws Exception {
        assertEquals(List.of("dev/idempotent/seatgrant/server/internal/cli/OptionalDependencies$Logback.class"),
                mainClassesNaming("ch/qos/logback/"),
                "reach logback through OptionalDependencies, which checks that it is there");
    }

    @Test
    void onlyTheIncidentLabAndReproduceNameWorkerCode() throws Exception {
        List<String> naming = mainClassesNaming(WORKER_CODE);
        assertFalse(naming.isEmpty());
        for (String name : naming) {
            assertTrue(name.startsWith("dev/idempotent/seatgrant/server/lab/")
                            || name.startsWith("dev/idempotent/seatgrant/server/internal/cli/Reproduce"),
                    name + " names worker code, which only the lab artifact brings; Main checks for it only before "
                            + "reproduce");
        }
    }

    @Test
    void withLogbackTheLevelIsSetAndTheLabIsFound() {
        OptionalDependencies.warnOnly("optional-dependencies-test");

        LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
        assertEquals(Level.WARN, context.getLogger("optional-dependencies-test").getLevel());
        assertTrue(OptionalDependencies.hasLab());
    }

    @Test
    void withoutTheLabAndLogbackReproduceSaysWhatItNeedsAndLevelsAreLeftAlone() throws Exception {
        List<URL> serviceClasspath = new ArrayList<>();
        for (String entry : System.getProperty("surefire.test.class.path").split(File.pathSeparator)) {
            if (!entry.contains("logback") && !entry.contains("seat-grant-worker")) {
                serviceClasspath.add(Path.of(entry).toUri().toURL());
            }
        }
        try (URLClassLoader service = new URLClassLoader(serviceClasspath.toArray(URL[]::new),
                ClassLoader.getPlatformClassLoader())) {
            Class<?> optional = service.loadClass(OptionalDependencies.class.getName());
            assertFalse((boolean) optional.getMethod("hasLab").invoke(null));
            Method warnOnly = optional.getDeclaredMethod("warnOnly", String.class);
            warnOnly.setAccessible(true);
            warnOnly.invoke(null, "dev.idempotent.seatgrant.server");

            ByteArrayOutputStream err = new ByteArrayOutputStream();
            Object exit = service.loadClass("dev.idempotent.seatgrant.server.Main")
                    .getMethod("run", String[].class, PrintStream.class, PrintStream.class)
                    .invoke(null, new String[] {"reproduce"}, new PrintStream(new ByteArrayOutputStream()),
                            new PrintStream(err, true, StandardCharsets.UTF_8));

            assertEquals(1, exit);
            assertEquals("fake-server reproduce: the incident lab needs dev.idempotent:seat-grant-worker-lab on the "
                    + "classpath; run it from the runnable jar: java -jar fake-server.jar reproduce"
                    + System.lineSeparator(), err.toString(StandardCharsets.UTF_8));
        }
    }

    /** The module's own class files (target/classes) whose constant pool names a class under this prefix. */
    private static List<String> mainClassesNaming(String classPrefix) throws IOException, URISyntaxException {
        Path classes = Path.of(OptionalDependencies.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        byte[] needle = classPrefix.getBytes(StandardCharsets.UTF_8);
        List<String> naming = new ArrayList<>();
        try (Stream<Path> files = Files.walk(classes)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".class")).sorted().toList()) {
                if (contains(Files.readAllBytes(file), needle)) {
                    naming.add(classes.relativize(file).toString().replace(File.separatorChar, '/'));
                }
            }
        }
        return naming;
    }

    private static boolean contains(byte[] haystack, byte[] needle) {
        outer:
        for (int i = 0; i <= haystack.length - needle.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }
}
