package dev.idempotent.seatgrant.server.internal.store;

import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.UUID;

/**
 * Where the seats live, read from the {@code --db} value: {@code mem}, a file path, a {@code jdbc:h2:} URL or a
 * {@code jdbc:postgresql:} URL.
 *
 * <p>A value that is not {@code mem} and does not start with {@code jdbc:} is a file path and nothing else: a
 * path H2 would read part of as settings (a {@code ;}) is refused, never pasted into the URL. An explicit
 * {@code jdbc:} URL is the operator's explicit choice and is used as given.
 *
 * @param kind        which engine
 * @param jdbcUrl     the URL handed to the pool; may hold credentials, so it is never logged
 * @param description a loggable description with no credentials
 * @param file        for a file path, the H2 database path without {@code .mv.db}; null otherwise
 */
public record DbSpec(Kind kind, String jdbcUrl, String description, Path file) {

    /** The default store: a file under ./fake-server-data/ that survives restarts. */
    public static final String DEFAULT = "./fake-server-data/seats";

    /** The name of the database file made inside a directory given as {@code --db}. */
    private static final String FILE_IN_DIRECTORY = "seats";

    /** The database engines the server can use. */
    public enum Kind { H2, POSTGRESQL }

    // A file must be compacted: MVStore never overwrites a page, and a chunk's space is reused only once none of
    // its pages is live. Without compaction nothing rewrites a chunk that still holds one live page, and the file
    // grew by about 7 KB per grant without bound. AUTO_COMPACT_FILL_RATE=0 switches H2's own compaction off,
    // because it holds the store lock for up to seconds at a time; JdbcSeatStore compacts in small slices
    // between group commits instead (see its compactSlice method). WRITE_DELAY=500 is H2's default.
    // Durability does not rest on either setting: JdbcSeatStore stores the file itself after every write (see
    // its write method). LOCK_TIMEOUT lets concurrent claims wait for each other instead of failing.
    private static final String H2_FILE_SETTINGS = ";WRITE_DELAY=500;AUTO_COMPACT_FILL_RATE=0;LOCK_TIMEOUT=10000";
    private static final String H2_MEM_SETTINGS = ";DB_CLOSE_DELAY=-1;LOCK_TIMEOUT=10000";

    @Override
    public String toString() {
        return description;
    }

    /**
     * Reads a {@code --db} value.
     *
     * @throws IllegalArgumentException for a blank value, a JDBC URL of another database, or a file path that
     *                                  cannot be used as one (the message says why, in one line)
     */
    public static DbSpec parse(String value) {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException("--db must not be blank");
        }
        String lower = value.toLowerCase(Locale.ROOT);
        if (lower.equals("mem")) {
            // A fresh name per server instance: two in-process servers never share a "mem" store by accident.
            return new DbSpec(Kind.H2, "jdbc:h2:mem:seats-" + UUID.randomUUID() + H2_MEM_SETTINGS, "in-memory H2",
                    null);
        }
        if (lower.startsWith("jdbc:postgresql:")) {
            return new DbSpec(Kind.POSTGRESQL, value, "PostgreSQL", null);
        }
        if (lower.startsWith("jdbc:h2:")) {
            // Taken as given: a file URL keeps H2's WRITE_DELAY unless it sets one, and is durable either way.
            return new DbSpec(Kind.H2, value, "H2 (JDBC URL)", null);
        }
        if (lower.startsWith("jdbc:")) {
            throw new IllegalArgumentException("--db supports mem, a file path, jdbc:h2: and jdbc:postgresql: URLs");
        }
        Path file = filePath(value);
        return new DbSpec(Kind.H2, "jdbc:h2:file:" + file + H2_FILE_SETTINGS, "H2 file " + file + ".mv.db", file);
    }

    private static Path filePath(String value) {
        if (value.indexOf(';') >= 0) {
            throw new IllegalArgumentException("--db: a file path must not contain ';' (H2 would read what follows "
                    + "as settings); give a jdbc:h2: URL to choose settings explicitly");
        }
        if (value.chars().anyMatch(Character::isISOControl)) {
            throw new IllegalArgumentException("--db: a file path must not contain control characters");
        }
        String expanded = value;
        if (value.equals("~") || value.startsWith("~/")) {
            expanded = System.getProperty("user.home") + value.substring(1);
        } else if (value.startsWith("~")) {
            throw new IllegalArgumentException("--db: only ~/ is expanded (to your home directory); give the full path");
        }
        boolean directory = expanded.endsWith("/") || expanded.endsWith(java.io.File.separator);
        Path path;
        try {
            path = Path.of(expanded).toAbsolutePath().normalize();
        } catch (InvalidPathException e) {
            throw new IllegalArgumentException("--db: not a usable file path");
        }
        if (directory || Files.isDirectory(path)) {
            // "--db /var/seats/" means "keep the store in that directory", not a file called ".mv.db" beside it.
            path = path.resolve(FILE_IN_DIRECTORY);
        }
        if (path.getFileName() == null) {
            throw new IllegalArgumentException("--db: not a usable file path");
        }
        return path;
    }
}
