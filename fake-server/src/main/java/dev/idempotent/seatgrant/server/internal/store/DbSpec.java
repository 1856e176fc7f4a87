package dev.idempotent.seatgrant.server.internal.store;

import java.nio.file.Path;
import java.util.Locale;
import java.util.UUID;

/**
 * Where the seats live, read from the {@code --db} value: {@code mem}, a file path, a {@code jdbc:h2:} URL or a
 * {@code jdbc:postgresql:} URL.
 *
 * @param kind        which engine
 * @param jdbcUrl     the URL handed to the pool; may hold credentials, so it is never logged
 * @param description a loggable description with no credentials
 */
public record DbSpec(Kind kind, String jdbcUrl, String description) {

    /** The default store: a file under ./fake-server-data/ that survives restarts. */
    public static final String DEFAULT = "./fake-server-data/seats";

    /** The database engines the server can use. */
    public enum Kind { H2, POSTGRESQL }

    // WRITE_DELAY=0 makes H2's MVStore store each commit to the file before commit() returns; with the default
    // (500 ms) a kill -9 right after an after-commit fault could lose a seat the client was told nothing about,
    // and the reproduction would lie. LOCK_TIMEOUT lets concurrent claims wait for each other instead of failing.
    private static final String H2_FILE_SETTINGS = ";WRITE_DELAY=0;LOCK_TIMEOUT=10000";
    private static final String H2_MEM_SETTINGS = ";DB_CLOSE_DELAY=-1;LOCK_TIMEOUT=10000";

    @Override
    public String toString() {
        return description;
    }

    /**
     * Reads a {@code --db} value.
     *
     * @throws IllegalArgumentException for a blank value or a JDBC URL of another database
     */
    public static DbSpec parse(String value) {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException("--db must not be blank");
        }
        String lower = value.toLowerCase(Locale.ROOT);
        if (lower.equals("mem")) {
            // A fresh name per server instance: two in-process servers never share a "mem" store by accident.
            return new DbSpec(Kind.H2, "jdbc:h2:mem:seats-" + UUID.randomUUID() + H2_MEM_SETTINGS, "in-memory H2");
        }
        if (lower.startsWith("jdbc:postgresql:")) {
            return new DbSpec(Kind.POSTGRESQL, value, "PostgreSQL");
        }
        if (lower.startsWith("jdbc:h2:")) {
            String url = lower.contains("write_delay") || lower.startsWith("jdbc:h2:mem:")
                    ? value : value + ";WRITE_DELAY=0";
            return new DbSpec(Kind.H2, url, "H2 (JDBC URL)");
        }
        if (lower.startsWith("jdbc:")) {
            throw new IllegalArgumentException("--db supports mem, a file path, jdbc:h2: and jdbc:postgresql: URLs");
        }
        Path file = Path.of(value).toAbsolutePath().normalize();
        return new DbSpec(Kind.H2, "jdbc:h2:file:" + file + H2_FILE_SETTINGS, "H2 file " + file + ".mv.db");
    }
}
