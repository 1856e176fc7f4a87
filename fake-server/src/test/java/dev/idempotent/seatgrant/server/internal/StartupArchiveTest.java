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
 * The own-heap child's class-data-sharing archive: only for a start from one jar, one archive per jar path and JVM
 * (a rebuilt jar's replaces its older build's), at most four kept, the least recently used deleted first, and on
 * JDK 17 and 18 a dumped archive moved into place only once whole.
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

        assertEquals(Optional.empty(), StartupArchive.plan(dir.resolve("classes").toString(), cache));
        assertEquals(Optional.empty(), StartupArchive.plan(jar() + File.pathSeparator + jar(), cache));
        assertEquals(Optional.empty(), StartupArchive.plan(jar().toString(), Optional.empty()));
    }

    @Test
    void oneJarGetsOneArchiveAndARebuiltJarReplacesIt() throws Exception {
        Path cache = Files.createDirectories(dir.resolve("cache"));
        StartupArchive.Plan first = StartupArchive.plan(jar().toString(), Optional.of(cache)).orElseThrow();
        Files.writeString(first.archive(), "an archive of the first build");
        assertEquals(first.archive(), StartupArchive.plan(jar().toString(), Optional.of(cache))
                .orElseThrow().archive(), "the same build keeps its archive");

        Files.setLastModifiedTime(jar(), FileTime.fromMillis(Files.getLastModifiedTime(jar()).toMillis() + 60_000));
        StartupArchive.Plan rebuilt = StartupArchive.plan(jar().toString(), Optional.of(cache)).orElseThrow();

        assertFalse(rebuilt.archive().equals(first.archive()));
        assertFalse(Files.exists(first.archive()), "the older build's archive is deleted");
    }

    @Test
    void serveAndProxyShareTheArchiveOfTheirJarAndJvm() throws Exception {
        Path cache = Files.createDirectories(dir.resolve("cache"));
        Path first = StartupArchive.plan(jar().toString(), Optional.of(cache)).orElseThrow().archive();

        assertEquals(first, StartupArchive.plan(jar().toString(), Optional.of(cache)).orElseThrow().archive(),
                "one archive per jar and JVM, whichever child starts");
        Path other = Files.writeString(dir.resolve("other.jar"), "another checkout's jar");
        assertFalse(first.equals(StartupArchive.plan(other.toString(), Optional.of(cache)).orElseThrow().archive()));
    }

    @Test
    void beyondFourArchivesTheLeastRecentlyUsedAreDeleted() throws Exception {
        Path cache = Files.createDirectories(dir.resolve("cache"));
        List<Path> archives = new java.util.ArrayList<>();
        for (int i = 0; i < 4; i++) {
            Path archive = StartupArchive.plan(checkout(i).toString(), Optional.of(cache)).orElseThrow().archive();
            Files.writeString(archive, "archive " + i);
            // Used in turn, a minute apart, long ago: 0 is the least recently used.
            Files.setLastModifiedTime(archive, FileTime.fromMillis(1_000_000_000_000L + i * 60_000L));
            archives.add(archive);
        }
        StartupArchive.plan(checkout(0).toString(), Optional.of(cache));
        Path fifth = StartupArchive.plan(checkout(4).toString(), Optional.of(cache)).orElseThrow().archive();

        assertEquals(List.of(true, false, true, true), archives.stream().map(Files::exists).toList(),
                "0 was used again, so 1 is the least recently used and goes; the new one counts though unwritten");
        assertFalse(Files.exists(fifth));
    }

    private Path checkout(int n) throws Exception {
        Path jar = dir.resolve("checkout-" + n + ".jar");
        if (!Files.exists(jar)) {
            Files.writeString(jar, "jar " + n);
        }
        return jar;
    }

    @Test
    void onJdk17AnArchiveIsDumpedAsideAndMovedInOnlyOnceWritten() throws Exception {
        Path cache = Files.createDirectories(dir.resolve("cache"));
        StartupArchive.Plan plan = StartupArchive.plan(jar().toString(), Optional.of(cache)).orElseThrow();
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
                StartupArchive.plan(jar().toString(), Optional.of(cache)).orElseThrow().flags());
    }
}
