package dev.idempotent.seatgrant.server.internal.store;

import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Where the seats live, read from the {@code --db} value: {@code mem}; {@code sqlite:PATH} or {@code h2:PATH}; a
 * bare file path, which means the default engine ({@link #DEFAULT_ENGINE}); a {@code jdbc:sqlite:}, {@code jdbc:h2:}
 * or {@code jdbc:postgresql:} URL.
 *
 * <p>A path is a path and nothing else: a character an engine would read as the start of its settings ({@code ;}
 * for H2, {@code ?} for SQLite) is refused, never pasted into the URL. A value that looks like a URL of another
 * kind ({@code postgresql://...}) is refused with the spelling that works, rather than becoming a file named
 * {@code postgresql:}. An explicit {@code jdbc:} URL is the operator's explicit choice and is used as given.
 *
 * @param kind        which engine
 * @param jdbcUrl     the URL handed to the pool (null for {@link Kind#MEMORY}); may hold credentials, so it is
 *                    never logged
 * @param description a loggable description with no credentials
 * @param file        for a file path, the path as given, without the engine's extension; null otherwise
 */
public record DbSpec(Kind kind, String jdbcUrl, String description, Path file) {

    /** The default store: a file under ./fake-server-data/ that survives restarts. */
    public static final String DEFAULT = "./fake-server-data/seats";

    /** The engine a bare file path means; docs/benchmarks.md has the measurements that chose it. */
    public static final Kind DEFAULT_ENGINE = Kind.SQLITE;

    /** The name of the database file made inside a directory given as {@code --db}. */
    private static final String FILE_IN_DIRECTORY = "seats";

    /** The engines the server can use. */
    public enum Kind {
        /** The seats in this process's heap ({@code MemorySeatStore}). */
        MEMORY(null),
        H2(".mv.db"),
        SQLITE(".sqlite"),
        POSTGRESQL(null);

        private final String extension;

        Kind(String extension) {
            this.extension = extension;
        }

        /** What a file store of this engine appends to its path; null for an engine that has no file of ours. */
        public String extension() {
            return extension;
        }
    }

    // A file must be compacted: MVStore never overwrites a page, and a chunk's space is reused only once none of
    // its pages is live. Without compaction nothing rewrites a chunk that still holds one live page, and the file
    // grew by about 7 KB per grant without bound. AUTO_COMPACT_FILL_RATE=0 switches H2's own compaction off,
    // because it holds the store lock for up to seconds at a time; JdbcSeatStore compacts in small slices
    // between group commits instead (see its compactSlice method). WRITE_DELAY=500 is H2's default.
    // Durability does not rest on either setting: JdbcSeatStore stores the file itself after every write (see
    // its write method). LOCK_TIMEOUT lets concurrent claims wait for each other instead of failing.
    private static final String H2_FILE_SETTINGS = ";WRITE_DELAY=500;AUTO_COMPACT_FILL_RATE=0;LOCK_TIMEOUT=10000";

    // WAL: a commit appends the pages it changed to the write-ahead log, and readers never wait for the writer.
    // synchronous=NORMAL: a commit is written to the log before it returns, so it survives the process dying (the
    // kill -9 guarantee), and the log is fsynced only at checkpoints, as the H2 file is never fsynced either (see
    // docs/benchmarks.md, "What durable means here"). busy_timeout: a connection waits for another's write lock
    // instead of failing at once. wal_autocheckpoint=0: JdbcSeatStore checkpoints on a thread of its own, so no
    // grant's commit waits for one. cache_size is per connection, in KiB when negative.
    private static final String SQLITE_FILE_SETTINGS = "?journal_mode=WAL&synchronous=NORMAL&busy_timeout=10000"
            + "&wal_autocheckpoint=0&cache_size=-" + JdbcSeatStore.SQLITE_CACHE_KIB;

    /** A scheme and {@code //}: a URL, never a file path (a Windows drive letter is one character, so not this). */
    private static final Pattern URL = Pattern.compile("^[A-Za-z][A-Za-z0-9+.-]+://.*", Pattern.DOTALL);

    private static final String FORMS = "mem, sqlite:PATH, h2:PATH, a file path, jdbc:sqlite:..., jdbc:h2:... or "
            + "jdbc:postgresql://HOST:PORT/DB";

    @Override
    public String toString() {
        return description;
    }

    /** The file the engine writes, the path plus the engine's extension; null for a store with no file of ours. */
    public Path storeFile() {
        return file == null ? null : file.resolveSibling(file.getFileName() + kind.extension());
    }

    /**
     * Reads a {@code --db} value.
     *
     * @throws IllegalArgumentException for a blank value, a URL of another kind, or a file path that cannot be used
     *                                  as one (the message says why, in one line, and never repeats a URL, which
     *                                  may hold a password)
     */
    public static DbSpec parse(String value) {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException("--db must not be blank");
        }
        String lower = value.toLowerCase(Locale.ROOT);
        if (lower.equals("mem")) {
            return new DbSpec(Kind.MEMORY, null, "in memory", null);
        }
        if (lower.startsWith("jdbc:postgresql:")) {
            return new DbSpec(Kind.POSTGRESQL, value, "PostgreSQL", null);
        }
        if (lower.startsWith("jdbc:h2:")) {
            // Taken as given: a file URL keeps H2's WRITE_DELAY unless it sets one, and is durable either way.
            return new DbSpec(Kind.H2, value, "H2 (JDBC URL)", null);
        }
        if (lower.startsWith("jdbc:sqlite:")) {
            return new DbSpec(Kind.SQLITE, value, "SQLite (JDBC URL)", null);
        }
        if (lower.startsWith("jdbc:postgres:")) {
            throw new IllegalArgumentException(
                    "--db: PostgreSQL's JDBC URL starts jdbc:postgresql://, not jdbc:postgres:");
        }
        if (lower.startsWith("jdbc:")) {
            throw new IllegalArgumentException("--db supports " + FORMS);
        }
        if (lower.startsWith("postgresql:") || lower.startsWith("postgres:")) {
            // What psql and most drivers take; left alone it would become an H2 file named "postgresql:".
            throw new IllegalArgumentException("--db: a PostgreSQL URL needs the JDBC form: "
                    + "jdbc:postgresql://HOST:PORT/DB?user=USER&password=PASSWORD");
        }
        if (lower.startsWith("sqlite:")) {
            return file(Kind.SQLITE, value.substring("sqlite:".length()));
        }
        if (lower.startsWith("h2:")) {
            return file(Kind.H2, value.substring("h2:".length()));
        }
        if (URL.matcher(value).matches()) {
            throw new IllegalArgumentException("--db: a URL is not a file path; give " + FORMS);
        }
        DbSpec spec = file(DEFAULT_ENGINE, value);
        Path oldH2 = spec.file().resolveSibling(spec.file().getFileName() + Kind.H2.extension());
        if (DEFAULT_ENGINE != Kind.H2 && Files.exists(oldH2) && !Files.exists(spec.storeFile())) {
            // Earlier versions kept a bare path's seats in H2. Starting an empty SQLite store beside them would
            // look like the seats had gone.
            throw new IllegalArgumentException("--db: " + oldH2 + " is an H2 store made by an earlier version; start"
                    + " with --db h2:" + value + " to keep using it (a bare path now means SQLite)");
        }
        return spec;
    }

    private static DbSpec file(Kind kind, String value) {
        if (value.isEmpty()) {
            throw new IllegalArgumentException(
                    "--db: give a file path after " + kind.name().toLowerCase(Locale.ROOT) + ":");
        }
        Path path = filePath(value);
        String name = path.getFileName().toString();
        if (name.endsWith(kind.extension()) && name.length() > kind.extension().length()) {
            // "sqlite:/var/seats.sqlite" names the file itself, not "/var/seats.sqlite.sqlite".
            path = path.resolveSibling(name.substring(0, name.length() - kind.extension().length()));
        }
        if (kind == Kind.H2) {
            return new DbSpec(kind, "jdbc:h2:file:" + path + H2_FILE_SETTINGS, "H2 file " + path + kind.extension(),
                    path);
        }
        return new DbSpec(kind, "jdbc:sqlite:" + path + kind.extension() + SQLITE_FILE_SETTINGS,
                "SQLite file " + path + kind.extension(), path);
    }

    private static Path filePath(String value) {
        // Refused whatever the engine, so that a path means the same file under h2: and sqlite:.
        if (value.indexOf(';') >= 0 || value.indexOf('?') >= 0) {
            throw new IllegalArgumentException("--db: a file path must not contain ';' or '?' (H2 and SQLite would"
                    + " read what follows as settings); give a jdbc: URL to choose settings explicitly");
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
            // "--db /var/seats/" means "keep the store in that directory", not a file called ".sqlite" beside it.
            path = path.resolve(FILE_IN_DIRECTORY);
        }
        if (path.getFileName() == null) {
            throw new IllegalArgumentException("--db: not a usable file path");
        }
        return path;
    }
}
