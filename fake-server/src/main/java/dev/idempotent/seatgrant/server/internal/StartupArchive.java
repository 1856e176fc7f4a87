package dev.idempotent.seatgrant.server.internal;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;

/**
 * A class-data-sharing archive for the own-heap child JVM ({@link OwnHeap}), so that it starts in about half the
 * time: most of a server's start is loading and verifying the four thousand classes of Netty, Jackson, logback
 * and the JDBC drivers, and an archive maps them in ready-made. The first start of a jar writes the archive as
 * the child exits; every later start of the same jar on the same JVM uses it, {@code serve} and {@code proxy}
 * alike (the first to run decides what is in it; the classes they share are most of both).
 *
 * <p>The archive lives in the user's cache directory ({@code $XDG_CACHE_HOME/fake-server}, else
 * {@code ~/.cache/fake-server}), created readable by its owner alone: one file per jar path and JVM (15 to 20 MB),
 * named by a hash of the jar's path and of the JVM's home and version, then of the jar's size and modification
 * time, so a rebuilt jar replaces its archive and another JDK gets one of its own. Each start marks its archive
 * used, and beyond {@link #KEPT} archives the least recently used are deleted, so the directory stays under about
 * 80 MB however many checkouts and JDKs start servers. JDK 19 and later make and check the archive themselves
 * ({@code -XX:+AutoCreateSharedArchive}); JDK 17 and 18 dump it at exit to a file of the child's own, which the
 * parent then renames into place, so a reader never sees half an archive. The JVM checks an archive against the
 * classpath and itself before it maps anything, and starts without one it cannot use. Nothing of this is needed
 * for correctness: where there is no single jar on the classpath (a test run, an IDE), no writable cache directory,
 * {@code --no-cds} or {@code FAKE_SERVER_NO_CDS=1}, or any failure, the child starts without an archive.
 */
final class StartupArchive {

    /** What to add to the child's command line, and what to do once it exited. */
    record Plan(List<String> flags, Optional<Path> dumped, Path archive) {

        /**
         * Moves a freshly dumped archive into place (JDK 17 and 18); quietly does nothing on any failure, or when
         * it was done already (the parent's main thread and its shutdown hook may both call it).
         */
        synchronized void childExited() {
            if (dumped.isEmpty() || !Files.exists(dumped.get())) {
                return;
            }
            Path written = dumped.get();
            try {
                if (Files.size(written) > 0) {
                    try {
                        Files.move(written, archive, StandardCopyOption.ATOMIC_MOVE,
                                StandardCopyOption.REPLACE_EXISTING);
                    } catch (AtomicMoveNotSupportedException e) {
                        Files.move(written, archive, StandardCopyOption.REPLACE_EXISTING);
                    }
                }
            } catch (IOException e) {
                // no archive this time; the next start tries again
            } finally {
                try {
                    Files.deleteIfExists(written);
                } catch (IOException ignored) {
                    // a stray temporary file in the cache directory; the next cleanup takes it
                }
            }
        }
    }

    private static final String PREFIX = "fake-server-";
    private static final String SUFFIX = ".jsa";

    /** Archives kept in the cache directory at most, {@code keep} included: the least recently used go first. */
    static final int KEPT = 4;

    private StartupArchive() {
    }

    /**
     * The archive flags for a child started with {@code classPath}, keeping its archive in {@code cache}, or empty
     * when there should be none.
     */
    static Optional<Plan> plan(String classPath, Optional<Path> cache) {
        try {
            if (classPath.contains(java.io.File.pathSeparator) || !classPath.endsWith(".jar")) {
                return Optional.empty(); // the JVM archives classes from jars only, and one jar is a user's start
            }
            Path jar = Path.of(classPath).toAbsolutePath();
            if (cache.isEmpty() || !Files.isRegularFile(jar)) {
                return Optional.empty();
            }
            String jarAndJvm = hash(jar + "|" + System.getProperty("java.home") + "|"
                    + System.getProperty("java.vm.version")).substring(0, 16);
            String build = hash(Files.size(jar) + "|" + Files.getLastModifiedTime(jar).toMillis()).substring(0, 16);
            Path archive = cache.get().resolve(PREFIX + jarAndJvm + "-" + build + SUFFIX);
            deleteOthers(cache.get(), PREFIX + jarAndJvm + "-", archive);
            if (Files.isRegularFile(archive)) {
                Files.setLastModifiedTime(archive, FileTime.fromMillis(System.currentTimeMillis()));
            }
            keepRecent(cache.get(), archive);
            if (Runtime.version().feature() >= 19) {
                return Optional.of(new Plan(List.of("-XX:+AutoCreateSharedArchive",
                        "-XX:SharedArchiveFile=" + archive), Optional.empty(), archive));
            }
            if (Files.isRegularFile(archive)) {
                return Optional.of(new Plan(List.of("-XX:SharedArchiveFile=" + archive), Optional.empty(), archive));
            }
            Path dumped = archive.resolveSibling(archive.getFileName() + ".tmp-" + ProcessHandle.current().pid());
            return Optional.of(new Plan(List.of("-XX:ArchiveClassesAtExit=" + dumped), Optional.of(dumped), archive));
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /** The user's cache directory for the archive, made readable by its owner alone; empty when it cannot be had. */
    static Optional<Path> userCache() {
        String xdg = System.getenv("XDG_CACHE_HOME");
        String home = System.getProperty("user.home");
        try {
            Path base;
            if (xdg != null && !xdg.isBlank() && Path.of(xdg).isAbsolute()) {
                base = Path.of(xdg);
            } else if (home != null && !home.isBlank() && !home.equals("?")) {
                base = Path.of(home, ".cache");
            } else {
                return Optional.empty();
            }
            Path dir = base.resolve("fake-server");
            if (!Files.isDirectory(dir)) {
                Files.createDirectories(base);
                try {
                    Files.createDirectory(dir,
                            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
                } catch (UnsupportedOperationException e) {
                    Files.createDirectory(dir); // not a POSIX file system: the platform's defaults
                }
            }
            return Files.isWritable(dir) ? Optional.of(dir) : Optional.empty();
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /** Archives of older builds of the same jar, and temporary files a crashed child left. */
    private static void deleteOthers(Path dir, String jarPrefix, Path keep) {
        try (DirectoryStream<Path> old = Files.newDirectoryStream(dir, jarPrefix + "*")) {
            for (Path p : old) {
                boolean stale = !p.getFileName().toString().startsWith(keep.getFileName().toString());
                boolean abandoned = p.getFileName().toString().contains(".tmp-")
                        && Files.getLastModifiedTime(p).toMillis() < System.currentTimeMillis() - 3_600_000L;
                if (stale || abandoned) {
                    Files.deleteIfExists(p);
                }
            }
        } catch (IOException | RuntimeException e) {
            // cleaning up is a courtesy
        }
    }

    /**
     * Deletes the least recently used archives beyond {@link #KEPT}, counting {@code keep} (which the child about to
     * start uses, or writes) as one, and never deleting it.
     */
    private static void keepRecent(Path dir, Path keep) {
        List<Path> others = new ArrayList<>();
        try (DirectoryStream<Path> all = Files.newDirectoryStream(dir, PREFIX + "*" + SUFFIX)) {
            for (Path p : all) {
                if (!p.equals(keep)) {
                    others.add(p);
                }
            }
            others.sort(Comparator.comparing(StartupArchive::lastModified).reversed());
            for (Path old : others.subList(Math.min(others.size(), KEPT - 1), others.size())) {
                Files.deleteIfExists(old);
            }
        } catch (IOException | RuntimeException e) {
            // cleaning up is a courtesy
        }
    }

    private static long lastModified(Path file) {
        try {
            return Files.getLastModifiedTime(file).toMillis();
        } catch (IOException e) {
            return 0; // gone already, or unreadable: the first to go
        }
    }

    private static String hash(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }
}
