package dev.idempotent.seatgrant.server.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The own-heap child's class-data-sharing archive: only for a start from one jar, one archive per build of the
 * jar, older builds' archives deleted, and on JDK 17 and 18 a dumped archive moved into place only once whole.
 * Whether the JVM then starts faster is measured in docs/benchmarks.md, not here.
 */
class StartupArchiveTest {

    @TempDir
    Path dir;

    private Path jar() throws Exception {
        Path jar = dir.resolve("fake-server.jar");
        if (!Files.exists(jar)) {
            Files.writeString(jar, "a jar");
        }
        return jar;
    }

    @Test
    void aClasspathOfDirectoriesOrSeveralEntriesGetsNoArchive() throws Exception {
        Optional<Path> cache = Optional.of(Files.createDirectories(dir.resolve("cache")));

        assertEquals(Optional.empty(), StartupArchive.plan(dir.resolve("classes").toString(), "256m", cache));
        assertEquals(Optional.empty(), StartupArchive.plan(jar() + File.pathSeparator + jar(), "256m", cache));
        assertEquals(Optional.empty(), StartupArchive.plan(jar().toString(), "256m", Optional.empty()));
    }

    @Test
    void oneJarGetsOneArchiveAndARebuiltJarReplacesIt() throws Exception {
        Path cache = Files.createDirectories(dir.resolve("cache"));
        StartupArchive.Plan first = StartupArchive.plan(jar().toString(), "256m", Optional.of(cache)).orElseThrow();
        Files.writeString(first.archive(), "an archive of the first build");
        assertEquals(first.archive(), StartupArchive.plan(jar().toString(), "256m", Optional.of(cache))
                .orElseThrow().archive(), "the same build keeps its archive");

        Files.setLastModifiedTime(jar(), FileTime.fromMillis(Files.getLastModifiedTime(jar()).toMillis() + 60_000));
        StartupArchive.Plan rebuilt = StartupArchive.plan(jar().toString(), "256m", Optional.of(cache)).orElseThrow();

        assertFalse(rebuilt.archive().equals(first.archive()));
        assertFalse(Files.exists(first.archive()), "the older build's archive is deleted");
    }

    @Test
    void childrenWithOtherFlagsKeepArchivesOfTheirOwn() throws Exception {
        Path cache = Files.createDirectories(dir.resolve("cache"));
        StartupArchive.Plan durable = StartupArchive.plan(jar().toString(), "-Xmx256m", Optional.of(cache))
                .orElseThrow();
        Files.writeString(durable.archive(), "the durable store's child's archive");

        StartupArchive.Plan inHeap = StartupArchive.plan(jar().toString(), "-XX:+UseG1GC -XX:MaxNewSize=64m",
                Optional.of(cache)).orElseThrow();

        assertFalse(inHeap.archive().equals(durable.archive()));
        assertTrue(Files.exists(durable.archive()), "a start on the other kind of store keeps this archive");
    }

    @Test
    void onJdk17AnArchiveIsDumpedAsideAndMovedInOnlyOnceWritten() throws Exception {
        Path cache = Files.createDirectories(dir.resolve("cache"));
        StartupArchive.Plan plan = StartupArchive.plan(jar().toString(), "256m", Optional.of(cache)).orElseThrow();
        if (Runtime.version().feature() >= 19) {
            assertEquals(List.of("-XX:+AutoCreateSharedArchive", "-XX:SharedArchiveFile=" + plan.archive()),
                    plan.flags());
            return;
        }
        Path dumped = plan.dumped().orElseThrow();
        assertEquals(List.of("-XX:ArchiveClassesAtExit=" + dumped), plan.flags());

        plan.childExited(); // the child died before it dumped anything
        assertFalse(Files.exists(plan.archive()));

        Files.writeString(dumped, "a whole archive");
        plan.childExited();
        assertTrue(Files.exists(plan.archive()));
        assertFalse(Files.exists(dumped));
        assertEquals(List.of("-XX:SharedArchiveFile=" + plan.archive()),
                StartupArchive.plan(jar().toString(), "256m", Optional.of(cache)).orElseThrow().flags());
    }
}
