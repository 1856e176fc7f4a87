package dev.idempotent.seatgrant.server.internal.store;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.idempotent.seatgrant.server.Ledger;
import dev.idempotent.seatgrant.server.Seat;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import org.h2.engine.SessionLocal;
import org.h2.jdbc.JdbcConnection;
import org.h2.mvstore.MVStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.sqlite.SQLiteErrorCode;
import org.sqlite.SQLiteException;

/**
 * The {@link SeatStore} over JDBC, one implementation for SQLite, H2 and PostgreSQL: the SQL is the portable
 * subset all three speak (timestamps as epoch milliseconds), so the engines cannot drift apart. What differs is
 * said once, in {@link Dialect}: how a unique violation is reported, whether a failed statement spoils its
 * transaction, and who may write at once.
 *
 * <p><b>One seat per key</b> is kept by the keys table alone. A keyed seat is inserted only in the transaction
 * that either inserts its key row (the primary key lets one such insert win) or moves the key from a claim we
 * own to completed (a conditional update, which one writer wins). {@code seats.idempotency_key} records the
 * key for the ledger and carries no index: a unique index on it was a second guard for the same rule that put a
 * second random page into every grant's commit, and is dropped from files made before.
 *
 * <p>Thread-safe: every call borrows its own connection from a HikariCP pool. Reads never wait for writes; on
 * SQLite writes take turns, on H2 and PostgreSQL unrelated writes run side by side, and only {@link #reset} waits
 * for all of them. On a file every write is in the file before it returns (see {@link #write}).
 */
public final class JdbcSeatStore implements SeatStore {

    private static final String UNIQUE_VIOLATION = "23505";
    /** How often SQLite's write-ahead log is copied into the database file, see {@link #checkpointLoop()}. */
    private static final long CHECKPOINT_EVERY_MILLIS = 200;
    /** Past this many pages (16 MB) in the log, a checkpoint finishes under the store lock, so the log restarts. */
    private static final long CHECKPOINT_RESTART_PAGES = 4096;
    /** The most flush-and-copy passes before the checkpoint under the store lock, see {@link #catchUp}. */
    private static final int CATCH_UP_PASSES = 8;
    private static final int MAX_DUPLICATE_GROUPS = 1000;
    private static final int WRITERS_POSTGRESQL = 4;
    /** Compaction of an H2 file, see {@link #compactSlice()}: the live bytes one slice may rewrite. */
    private static final int COMPACT_SLICE_BYTES = 512 * 1024;
    /** The writer compacts at most one slice this often. */
    private static final long COMPACT_EVERY_NANOS = 50_000_000L;
    /** A slice runs only while the file's chunks as a whole are less live than this (percent); H2's default. */
    private static final int COMPACT_FILL_RATE = 90;
    private static final Logger LOG = LoggerFactory.getLogger(JdbcSeatStore.class);

    /** The page cache of an H2 file store, in MB; see {@link #sizeH2Cache()}. */
    static final int H2_CACHE_MB = 64;

    /**
     * SQLite's page cache, per connection, in KiB. It lives outside the heap, beside it in the process's memory,
     * so {@code pool size × this} counts against the resident-set goal; pages that miss it come from the
     * operating system's file cache, which is cheap and not the process's memory. See docs/benchmarks.md.
     */
    static final int SQLITE_CACHE_KIB = 16 * 1024;

    private static final String[] SCHEMA = {
        """
        CREATE TABLE IF NOT EXISTS seats (
          id VARCHAR(64) PRIMARY KEY,
          workspace_id VARCHAR(255) NOT NULL,
          user_id VARCHAR(255) NOT NULL,
          role VARCHAR(32) NOT NULL,
          created_at BIGINT NOT NULL,
          idempotency_key VARCHAR(255)
        )""",
        "CREATE INDEX IF NOT EXISTS seats_by_user ON seats (workspace_id, user_id)",
        """
        CREATE TABLE IF NOT EXISTS idempotency_keys (
          idem_key VARCHAR(255) PRIMARY KEY,
          request_hash VARCHAR(64) NOT NULL,
          state VARCHAR(16) NOT NULL,
          owner VARCHAR(64),
          lease_until BIGINT NOT NULL,
          seat_id VARCHAR(64),
          created_at BIGINT NOT NULL
        )""",
    };

    private static final String SEAT_COLUMNS = "id, workspace_id, user_id, role, created_at";
    private static final String INSERT_SEAT =
            "INSERT INTO seats (" + SEAT_COLUMNS + ", idempotency_key) VALUES (?, ?, ?, ?, ?, ?)";

    private final HikariDataSource pool;
    private final Dialect dialect;
    /** True for PostgreSQL, where a failed statement aborts its transaction unless a savepoint catches it. */
    private final boolean savepoints;
    /**
     * The store-wide lock of an embedded engine (see {@link Dialect#inProcessLock}): every write transaction holds
     * one side of it, and {@link #reset} the exclusive side. Null on PostgreSQL, where reset locks the tables.
     */
    private final ReadWriteLock writers;
    private final GroupCommit groups;
    /** SQLite only: copies the write-ahead log into the database file, off the writer's path. Null otherwise. */
    private final Thread checkpointer;
    /** SQLite with a file of ours: the database file, which a restart of the log flushes first; null otherwise. */
    private volatile Path sqliteFile;
    private volatile boolean closed;
    /**
     * Nullable: set for an H2 file store only. See {@link #write(Work)} for why every write
     * stores the file before it returns.
     */
    private final MVStore h2File;
    /** When the writer last compacted a slice of the H2 file ({@link System#nanoTime()}). */
    private long lastCompaction = System.nanoTime() - COMPACT_EVERY_NANOS;

    private JdbcSeatStore(HikariDataSource pool, MVStore h2File, Dialect dialect, int maxConnections) {
        this.pool = pool;
        this.h2File = h2File;
        this.dialect = dialect;
        this.savepoints = dialect == Dialect.POSTGRESQL;
        this.writers = dialect.inProcessLock() ? new ReentrantReadWriteLock() : null;
        // An embedded engine has one writer at a time (H2: one store step for its file; SQLite: one write lock), so
        // one group-commit writer; PostgreSQL overlaps commits, so a few, leaving connections for claims and reads.
        int groupWriters = dialect == Dialect.POSTGRESQL
                ? Math.max(1, Math.min(WRITERS_POSTGRESQL, maxConnections / 2)) : 1;
        this.groups = new GroupCommit(groupWriters, this::runGroup);
        if (dialect == Dialect.SQLITE) {
            checkpointer = new Thread(this::checkpointLoop, "seat-store-checkpoint");
            checkpointer.setDaemon(true);
        } else {
            checkpointer = null;
        }
    }

    /**
     * What differs between the engines, said once.
     *
     * <p>{@code inProcessLock}: an embedded engine is reached by this process alone, so a lock in the process can
     * order its writers. SQLite needs it for every write: it lets one connection write at a time, and a
     * transaction that read before it wrote fails, rather than waits, when another connection committed in
     * between; with the writers taking turns in the process that never happens. H2 lets writers run side by
     * side and needs it only so that {@link #reset} can shut them all out while it empties both tables.
     */
    private enum Dialect {
        H2(true), SQLITE(true), POSTGRESQL(false);

        private final boolean inProcessLock;

        Dialect(boolean inProcessLock) {
            this.inProcessLock = inProcessLock;
        }

        boolean inProcessLock() {
            return inProcessLock;
        }

        static Dialect of(DbSpec.Kind kind) {
            return switch (kind) {
                case H2 -> H2;
                case SQLITE -> SQLITE;
                case POSTGRESQL -> POSTGRESQL;
                case MEMORY -> throw new IllegalArgumentException("the in-memory store is MemorySeatStore");
            };
        }
    }

    /**
     * Opens the pool and creates the schema if it is missing.
     *
     * @param maxConnections the pool size, also the most concurrent store calls
     * @throws StoreException if the database cannot be reached or the schema cannot be created
     */
    public static JdbcSeatStore open(DbSpec spec, int maxConnections) {
        Dialect dialect = Dialect.of(spec.kind());
        if (spec.file() != null) {
            probeFile(spec);
        }
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(spec.jdbcUrl());
        config.setPoolName("seat-store");
        config.setMaximumPoolSize(maxConnections);
        config.setMinimumIdle(1);
        config.setAutoCommit(false);
        config.setConnectionTimeout(10_000);
        if (dialect != Dialect.SQLITE) {
            // SQLite has one isolation level: a transaction sees one snapshot, and writers take turns.
            config.setTransactionIsolation("TRANSACTION_READ_COMMITTED");
        }
        HikariDataSource pool;
        try {
            pool = new HikariDataSource(config);
        } catch (RuntimeException e) {
            // Hikari's and the driver's messages can echo the URL; say what went wrong in words of our own.
            throw new StoreException("cannot open the " + spec.description() + " store: "
                    + UnreachableDatabase.why(spec, e), null);
        }
        JdbcSeatStore store = null;
        try {
            store = new JdbcSeatStore(pool, dialect == Dialect.H2 ? h2FileOf(pool) : null, dialect, maxConnections);
            if (dialect == Dialect.SQLITE) {
                store.sqliteFile = spec.storeFile();
            }
            store.createSchema();
            store.sizeH2Cache();
            if (store.checkpointer != null) {
                store.checkpointer.start();
            }
        } catch (RuntimeException e) {
            if (store != null) {
                store.close(); // stops the writer threads too
            } else {
                pool.close();
            }
            throw e;
        }
        return store;
    }

    /**
     * Opens a file store once, directly, before the pool does: when the file cannot be used (a directory it cannot
     * create, {@code /proc}, a corrupt file) the pool would say only "PoolInitializationException"; the engine's
     * own message names the cause. A file path holds no credential, so its message may be shown.
     */
    private static void probeFile(DbSpec spec) {
        java.nio.file.Path dir = spec.file().getParent();
        try {
            java.nio.file.Files.createDirectories(dir);
        } catch (java.io.IOException | SecurityException e) {
            throw new StoreException("cannot create the directory " + dir + " for the " + spec.description()
                    + " store (" + e.getClass().getSimpleName() + ")", null);
        }
        // No trace file for H2's probe: when H2 cannot write one it prints a stack trace to stderr itself.
        String url = spec.kind() == DbSpec.Kind.H2 ? spec.jdbcUrl() + ";TRACE_LEVEL_FILE=0" : spec.jdbcUrl();
        try (Connection c = java.sql.DriverManager.getConnection(url); Statement s = c.createStatement()) {
            // SQLite opens any file lazily; the first read of its schema finds one that is not a database.
            try (ResultSet rs = s.executeQuery(spec.kind() == DbSpec.Kind.H2 ? "SELECT 1"
                    : "SELECT COUNT(*) FROM sqlite_master")) {
                rs.next();
            }
        } catch (SQLException e) {
            String reason = String.valueOf(e.getMessage()).lines().findFirst().orElse("unknown").strip();
            if (reason.length() > 240) {
                reason = reason.substring(0, 240) + "...";
            }
            throw new StoreException("cannot open the " + spec.description() + " store: " + reason, null);
        }
    }

    /**
     * The MVStore behind an embedded, persistent H2 database; null for an in-memory or a remote (tcp:) one, where
     * there is no file of ours to store. Reached through H2's engine classes: the JDBC API has no "store the file
     * now" call that waits for a concurrent store instead of skipping.
     */
    private static MVStore h2FileOf(HikariDataSource pool) {
        try (Connection c = pool.getConnection()) {
            if (c.unwrap(JdbcConnection.class).getSession() instanceof SessionLocal local
                    && local.getDatabase().isPersistent()) {
                return local.getDatabase().getStore().getMvStore();
            }
            return null;
        } catch (SQLException e) {
            throw new StoreException("cannot open the H2 store (SQLSTATE " + e.getSQLState() + ")", null);
        }
    }

    /**
     * Gives an H2 file a page cache of {@link #H2_CACHE_MB} instead of H2's 16 MB. Every grant inserts a random
     * key into the keys' primary-key index; past a few hundred thousand seats the tables' pages no longer fit in
     * 16 MB, and each grant then reads and decodes pages from the file again. 64 MB keeps the upper levels and
     * most leaves at a million seats, inside the heap {@code OwnHeap} chooses.
     */
    private void sizeH2Cache() {
        if (h2File == null) {
            return;
        }
        write(c -> {
            try (Statement s = c.createStatement()) {
                s.execute("SET CACHE_SIZE " + H2_CACHE_MB * 1024);
            }
            return null;
        });
    }

    private void createSchema() {
        write(c -> {
            try (Statement s = c.createStatement()) {
                for (String ddl : SCHEMA) {
                    s.execute(ddl);
                }
                // Stores made before carry a unique index on the seats' key (see the class comment); no SQLite store
                // was ever made with it. It is dropped only when it is there: on PostgreSQL an ALTER TABLE locks
                // the table even when it changes nothing, and every instance sharing the database runs this when
                // it starts.
                if (dialect != Dialect.SQLITE && oldKeyIndexPresent(s)) {
                    s.execute("ALTER TABLE seats DROP CONSTRAINT IF EXISTS seats_one_per_key");
                }
            }
            return null;
        });
    }

    private static boolean oldKeyIndexPresent(Statement s) throws SQLException {
        try (ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM INFORMATION_SCHEMA.TABLE_CONSTRAINTS"
                + " WHERE UPPER(TABLE_NAME) = 'SEATS' AND UPPER(CONSTRAINT_NAME) = 'SEATS_ONE_PER_KEY'")) {
            rs.next();
            return rs.getLong(1) > 0;
        }
    }

    @Override
    public CompletableFuture<Boolean> grant(String key, String requestHash, Seat seat, Instant now) {
        return groups.submit(key, requestHash, seat, now);
    }

    /** A writer's turn: one group of grants, answered, then (on an H2 file) one slice of compaction. */
    private void runGroup(List<GroupCommit.Op> group) {
        writeGroup(group);
        compactSlice();
    }

    /**
     * Rewrites the live pages of a few of the H2 file's oldest, emptiest chunks, so that their space can be
     * reused; without that the file grows by about 7 KB per grant for as long as the server runs (see
     * {@link DbSpec}). H2 can do this itself, on its background thread, but it does so holding the store lock,
     * up to a quarter of its auto-commit memory per pass under load and all of it (some 15 MB of pages) after an
     * idle spell, and every grant's store waited for it: 250 ms to 2 s on the build machine. So H2's is switched
     * off ({@code AUTO_COMPACT_FILL_RATE=0}) and the writer does it here, between groups: at most
     * {@link #COMPACT_SLICE_BYTES} of live pages every {@link #COMPACT_EVERY_NANOS}, and only while the file's
     * chunks as a whole are less than {@link #COMPACT_FILL_RATE}% live. H2 picks the chunks: those older than its
     * retention time, emptiest and oldest first. A grant waits for at most one slice, and the rewritten pages
     * reach the file with the next group's store. On H2 there is one writer thread, so only it touches
     * {@link #lastCompaction}.
     */
    private void compactSlice() {
        if (h2File == null) {
            return;
        }
        long now = System.nanoTime();
        if (now - lastCompaction < COMPACT_EVERY_NANOS) {
            return;
        }
        lastCompaction = now;
        try {
            h2File.compact(COMPACT_FILL_RATE, COMPACT_SLICE_BYTES);
        } catch (RuntimeException e) {
            // The grants are answered and in the file. If the rewrite failed inside H2, H2 has closed the store
            // and the next write fails with it; if not, all that is lost is a slice of space.
            LOG.warn("compacting the H2 file failed ({})", e.getClass().getSimpleName());
        }
    }

    /**
     * Writes one group of grants in one transaction. A key that already exists must not spoil the others: H2 undoes
     * just the failed statement, PostgreSQL aborts the whole transaction, so there each grant gets a savepoint. If
     * the group fails for any other reason (a deadlock between two PostgreSQL writers, say), it is rolled back
     * and every grant is retried in a transaction of its own, so one bad grant fails alone.
     */
    private void writeGroup(List<GroupCommit.Op> group) {
        boolean[] wrote = new boolean[group.size()];
        try {
            write(c -> {
                try (GrantStatements statements = new GrantStatements(c)) {
                    for (int i = 0; i < group.size(); i++) {
                        wrote[i] = statements.grant(group.get(i), savepoints);
                    }
                }
                return null;
            });
        } catch (StoreException groupFailed) {
            if (group.size() == 1) {
                group.get(0).done().completeExceptionally(groupFailed);
                return;
            }
            for (GroupCommit.Op op : group) {
                try {
                    op.done().complete(write(c -> {
                        try (GrantStatements statements = new GrantStatements(c)) {
                            return statements.grant(op, false);
                        }
                    }));
                } catch (StoreException e) {
                    op.done().completeExceptionally(e);
                }
            }
            return;
        }
        for (int i = 0; i < group.size(); i++) {
            group.get(i).done().complete(wrote[i]);
        }
    }

    /**
     * The two inserts of a grant, prepared once for a whole group on its connection rather than once per grant:
     * the writer's time is the store's throughput, and a group can carry {@link GroupCommit#MAX_BATCH} grants.
     */
    private final class GrantStatements implements AutoCloseable {
        private final Connection c;
        private final PreparedStatement insertKey;
        private final PreparedStatement insertSeat;

        GrantStatements(Connection c) throws SQLException {
            this.c = c;
            this.insertKey = c.prepareStatement(
                    "INSERT INTO idempotency_keys (idem_key, request_hash, state, owner, lease_until, seat_id, created_at)"
                            + " VALUES (?, ?, 'COMPLETED', NULL, ?, ?, ?)");
            try {
                this.insertSeat = c.prepareStatement(INSERT_SEAT);
            } catch (SQLException | RuntimeException e) {
                insertKey.close();
                throw e;
            }
        }

        /** Inserts one completed key and its seat; false, with nothing written, if the key exists. */
        boolean grant(GroupCommit.Op op, boolean savepoint) throws SQLException {
            if (op.key() == null) {
                insertSeat(insertSeat, op.seat(), null);
                return true;
            }
            Savepoint before = savepoint ? c.setSavepoint() : null;
            try {
                insertKey.setString(1, op.key());
                insertKey.setString(2, op.requestHash());
                insertKey.setLong(3, op.now().toEpochMilli());
                insertKey.setString(4, op.seat().id());
                insertKey.setLong(5, op.now().toEpochMilli());
                insertKey.executeUpdate();
            } catch (SQLException e) {
                if (isUniqueViolation(e)) {
                    // The key exists (or a concurrent grant of it just committed, or it came twice in this
                    // group): write nothing for it; the caller asks claim(), which replays, refuses a mismatch
                    // or takes an expired claim over.
                    if (before != null) {
                        c.rollback(before);
                    }
                    return false;
                }
                throw e;
            }
            insertSeat(insertSeat, op.seat(), op.key());
            if (before != null) {
                c.releaseSavepoint(before);
            }
            return true;
        }

        @Override
        public void close() throws SQLException {
            try {
                insertKey.close();
            } finally {
                insertSeat.close();
            }
        }
    }

    @Override
    public ClaimResult claim(String key, String requestHash, String owner, Instant now, Duration lease) {
        long leaseUntil = now.plus(lease).toEpochMilli();
        // A bounded loop: a claim row can vanish between our failed insert and our read (its holder released it).
        for (int round = 0; round < 5; round++) {
            ClaimResult result = write(c -> {
                try (PreparedStatement insert = c.prepareStatement(
                        "INSERT INTO idempotency_keys (idem_key, request_hash, state, owner, lease_until, seat_id, created_at)"
                                + " VALUES (?, ?, 'IN_PROGRESS', ?, ?, NULL, ?)")) {
                    insert.setString(1, key);
                    insert.setString(2, requestHash);
                    insert.setString(3, owner);
                    insert.setLong(4, leaseUntil);
                    insert.setLong(5, now.toEpochMilli());
                    insert.executeUpdate();
                    return new ClaimResult.Claimed(false);
                } catch (SQLException e) {
                    if (isUniqueViolation(e)) {
                        return null;
                    }
                    throw e;
                }
            });
            if (result != null) {
                return result;
            }
            result = write(c -> existingClaim(c, key, requestHash, owner, now, leaseUntil));
            if (result != null) {
                return result;
            }
        }
        throw new StoreException("the key's claim kept changing under us", null);
    }

    @Override
    public ClaimResult peek(String key, String requestHash, Instant now) {
        return transaction(c -> {
            ClaimResult found = existingClaim(c, key, requestHash, null, now, 0);
            return found == null || found instanceof ClaimResult.Claimed ? new ClaimResult.InProgress(now) : found;
        });
    }

    /** What an existing key row says; with a null {@code owner} an expired claim is reported, not taken over. */
    private ClaimResult existingClaim(Connection c, String key, String requestHash, String owner, Instant now,
                                      long leaseUntil) throws SQLException {
        String hash;
        String state;
        String holder;
        long holderLease;
        String seatId;
        try (PreparedStatement select = c.prepareStatement(
                "SELECT request_hash, state, owner, lease_until, seat_id FROM idempotency_keys WHERE idem_key = ?")) {
            select.setString(1, key);
            try (ResultSet rs = select.executeQuery()) {
                if (!rs.next()) {
                    return null;
                }
                hash = rs.getString(1);
                state = rs.getString(2);
                holder = rs.getString(3);
                holderLease = rs.getLong(4);
                seatId = rs.getString(5);
            }
        }
        if (!hash.equals(requestHash)) {
            return new ClaimResult.Mismatch();
        }
        if ("COMPLETED".equals(state)) {
            Seat seat = findSeat(c, seatId).orElseThrow(
                    () -> new SQLException("completed key points at a missing seat"));
            return new ClaimResult.Completed(seat);
        }
        if (holderLease > now.toEpochMilli() || owner == null) {
            return new ClaimResult.InProgress(Instant.ofEpochMilli(holderLease));
        }
        // The holder's lease ran out: take the claim over, but only if nobody beat us to it (compare-and-set
        // on the old owner). The old holder's complete() will then find it no longer owns the key.
        try (PreparedStatement takeOver = c.prepareStatement(
                "UPDATE idempotency_keys SET owner = ?, lease_until = ?"
                        + " WHERE idem_key = ? AND state = 'IN_PROGRESS' AND owner = ? AND lease_until = ?")) {
            takeOver.setString(1, owner);
            takeOver.setLong(2, leaseUntil);
            takeOver.setString(3, key);
            takeOver.setString(4, holder);
            takeOver.setLong(5, holderLease);
            return takeOver.executeUpdate() == 1 ? new ClaimResult.Claimed(true) : null;
        }
    }

    @Override
    public CompleteResult complete(String key, String owner, Seat seat) {
        return write(c -> {
            // Complete the key first: the row lock this takes orders us against a concurrent takeover, and a
            // zero count means we lost the claim, so we write no seat at all.
            try (PreparedStatement done = c.prepareStatement(
                    "UPDATE idempotency_keys SET state = 'COMPLETED', seat_id = ?, owner = NULL"
                            + " WHERE idem_key = ? AND state = 'IN_PROGRESS' AND owner = ?")) {
                done.setString(1, seat.id());
                done.setString(2, key);
                done.setString(3, owner);
                if (done.executeUpdate() != 1) {
                    c.rollback();
                    return new CompleteResult.LostClaim();
                }
            }
            insertSeat(c, seat, key);
            return new CompleteResult.Committed(seat);
        });
    }

    @Override
    public void release(String key, String owner) {
        write(c -> {
            try (PreparedStatement delete = c.prepareStatement(
                    "DELETE FROM idempotency_keys WHERE idem_key = ? AND state = 'IN_PROGRESS' AND owner = ?")) {
                delete.setString(1, key);
                delete.setString(2, owner);
                delete.executeUpdate();
            }
            return null;
        });
    }

    @Override
    public Seat insertWithoutKey(Seat seat) {
        return write(c -> {
            insertSeat(c, seat, null);
            return seat;
        });
    }

    private static void insertSeat(Connection c, Seat seat, String key) throws SQLException {
        try (PreparedStatement insert = c.prepareStatement(INSERT_SEAT)) {
            insertSeat(insert, seat, key);
        }
    }

    private static void insertSeat(PreparedStatement insert, Seat seat, String key) throws SQLException {
        insert.setString(1, seat.id());
        insert.setString(2, seat.workspaceId());
        insert.setString(3, seat.userId());
        insert.setString(4, seat.role());
        insert.setLong(5, seat.createdAt().toEpochMilli());
        insert.setString(6, key);
        insert.executeUpdate();
    }

    @Override
    public Optional<Seat> find(String seatId) {
        return transaction(c -> findSeat(c, seatId));
    }

    private static Optional<Seat> findSeat(Connection c, String seatId) throws SQLException {
        try (PreparedStatement select = c.prepareStatement("SELECT " + SEAT_COLUMNS + " FROM seats WHERE id = ?")) {
            select.setString(1, seatId);
            try (ResultSet rs = select.executeQuery()) {
                return rs.next() ? Optional.of(seat(rs)) : Optional.empty();
            }
        }
    }

    @Override
    public List<Seat> list(String workspaceId, String userId, int limit) {
        StringBuilder sql = new StringBuilder("SELECT " + SEAT_COLUMNS + " FROM seats WHERE 1 = 1");
        List<String> args = new ArrayList<>();
        if (workspaceId != null) {
            sql.append(" AND workspace_id = ?");
            args.add(workspaceId);
        }
        if (userId != null) {
            sql.append(" AND user_id = ?");
            args.add(userId);
        }
        sql.append(" ORDER BY created_at, id");
        return transaction(c -> {
            try (PreparedStatement select = c.prepareStatement(sql.toString())) {
                select.setMaxRows(limit);
                for (int i = 0; i < args.size(); i++) {
                    select.setString(i + 1, args.get(i));
                }
                List<Seat> seats = new ArrayList<>();
                try (ResultSet rs = select.executeQuery()) {
                    while (rs.next()) {
                        seats.add(seat(rs));
                    }
                }
                return seats;
            }
        });
    }

    @Override
    public Ledger ledger() {
        return transaction(c -> {
            long seats = count(c, "SELECT COUNT(*) FROM seats");
            long keys = count(c, "SELECT COUNT(*) FROM idempotency_keys");
            List<String[]> groups = new ArrayList<>();
            try (PreparedStatement select = c.prepareStatement(
                    "SELECT workspace_id, user_id FROM seats GROUP BY workspace_id, user_id HAVING COUNT(*) > 1"
                            + " ORDER BY workspace_id, user_id")) {
                select.setMaxRows(MAX_DUPLICATE_GROUPS);
                try (ResultSet rs = select.executeQuery()) {
                    while (rs.next()) {
                        groups.add(new String[] {rs.getString(1), rs.getString(2)});
                    }
                }
            }
            List<Ledger.Duplicate> duplicates = new ArrayList<>();
            try (PreparedStatement select = c.prepareStatement(
                    "SELECT id, idempotency_key FROM seats WHERE workspace_id = ? AND user_id = ? ORDER BY created_at, id")) {
                for (String[] group : groups) {
                    select.setString(1, group[0]);
                    select.setString(2, group[1]);
                    List<String> ids = new ArrayList<>();
                    List<String> keyList = new ArrayList<>();
                    try (ResultSet rs = select.executeQuery()) {
                        while (rs.next()) {
                            ids.add(rs.getString(1));
                            String key = rs.getString(2);
                            if (key != null) {
                                keyList.add(key);
                            }
                        }
                    }
                    duplicates.add(new Ledger.Duplicate(group[0], group[1], ids, keyList));
                }
            }
            return new Ledger(seats, keys, duplicates);
        });
    }

    private static long count(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /**
     * Empties both tables in one transaction that no grant can interleave with. Without that, a group commit that
     * landed between the two deletes left seats whose keys were gone, and the retry of such a key wrote a second
     * seat: a duplicate in the ledger that no client caused. On SQLite and H2 the store-wide lock shuts every
     * writer of this process out (nothing else reaches their files); on PostgreSQL a table lock does it for every
     * server sharing the database. It conflicts with the row locks of inserts and updates, not with reads, and it
     * is taken in the order grants write (keys, then seats), so it waits for grants in flight instead of
     * deadlocking with them.
     */
    @Override
    public void reset() {
        Work<Void> empty = c -> {
            try (Statement s = c.createStatement()) {
                if (dialect == Dialect.POSTGRESQL) {
                    s.execute("LOCK TABLE idempotency_keys, seats IN SHARE ROW EXCLUSIVE MODE");
                }
                s.executeUpdate("DELETE FROM seats");
                s.executeUpdate("DELETE FROM idempotency_keys");
            }
            return null;
        };
        if (writers == null) {
            write(empty);
            return;
        }
        Lock exclusive = writers.writeLock();
        exclusive.lock();
        try {
            stored(inTransaction(empty));
        } finally {
            exclusive.unlock();
        }
    }

    @Override
    public void close() {
        closed = true;
        try {
            groups.close();
            if (checkpointer != null) {
                checkpointer.interrupt();
                checkpointer.join(5_000);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            pool.close();
        }
    }

    /**
     * SQLite's checkpoints, on a thread of their own. With SQLite's automatic checkpoint, the commit that filled the
     * log copied a thousand pages into the database file and fsynced twice before its grants were answered: a
     * stall of its group every second or so under load. Here, every {@link #CHECKPOINT_EVERY_MILLIS}, a passive
     * checkpoint copies what the log holds while the writer goes on appending (it waits for no reader and no
     * writer). Under steady load that never quite catches up, and SQLite starts the log again from its beginning
     * only once a checkpoint has copied all of it; so once the log is past {@link #CHECKPOINT_RESTART_PAGES}, the
     * checkpoint that follows runs under the store lock, where it has only the last moments' pages left to copy,
     * and the next write starts the log afresh. The log's file is then bounded by about that size plus what
     * arrives while the checkpointer catches up. A failure here is logged, once per kind, and loses nothing: the
     * log keeps every commit until a checkpoint succeeds.
     *
     * <p>That checkpoint under the lock is a stall every grant of the moment waits for, and most of it is the
     * {@code fsync} of the database file that ends a complete checkpoint: on a million-seat file it held the lock
     * 66 to 96 ms about every half second when it came straight after a passive pass. So before it takes the lock
     * the loop lets the disk catch up in passes that shrink ({@link #catchUp}); the lock is then held 6 to 12 ms,
     * and under the benchmark's load the store's p99 at a million seats is 1.0 to 1.2 times its p99 at a
     * thousand (docs/benchmarks.md).
     */
    private void checkpointLoop() {
        String lastFailure = null;
        while (!closed) {
            try {
                Thread.sleep(CHECKPOINT_EVERY_MILLIS);
            } catch (InterruptedException e) {
                return;
            }
            try (Connection c = pool.getConnection(); Statement s = c.createStatement()) {
                c.setAutoCommit(true);
                if (checkpoint(s) > CHECKPOINT_RESTART_PAGES) {
                    catchUp(s);
                    Lock exclusive = writers.writeLock();
                    exclusive.lock();
                    try {
                        checkpoint(s);
                    } finally {
                        exclusive.unlock();
                    }
                }
                lastFailure = null;
            } catch (SQLException | RuntimeException e) {
                String failure = e.getClass().getSimpleName() + (e instanceof SQLException sql
                        ? " " + sql.getErrorCode() : "");
                if (!closed && !failure.equals(lastFailure)) {
                    LOG.warn("checkpointing the SQLite log failed ({})", failure);
                }
                lastFailure = failure;
            }
        }
    }

    /**
     * Shrinks what the checkpoint under the store lock will have to do, while grants go on. A checkpoint that copies
     * everything the log holds ends with an {@code fsync} of the database file, and a flush costs about 17 µs for
     * each page written into the file since the last one. So each pass here first flushes the database file (the
     * disk writes out what the pass before copied into it), then copies what arrived meanwhile. The passes shrink,
     * because each has only what arrived during the one before to write and to copy, and then level off; the
     * loop stops once a pass is no shorter than the one before, or after {@link #CATCH_UP_PASSES}. A last flush
     * writes out what the last pass copied, so the checkpoint under the lock copies and flushes only what arrived
     * since that pass began. On the benchmark's load at a million seats the passes took about 90, 50, 30, 20, 15
     * and 10 ms, and the lock was then held 6 to 12 ms, against 20 to 33 ms after a single pass
     * (docs/benchmarks.md).
     */
    private void catchUp(Statement s) throws SQLException {
        long previous = Long.MAX_VALUE;
        for (int pass = 0; pass < CATCH_UP_PASSES; pass++) {
            long start = System.nanoTime();
            flushDatabaseFile();
            checkpoint(s);
            long took = System.nanoTime() - start;
            if (took >= previous) {
                break;
            }
            previous = took;
        }
        flushDatabaseFile();
    }

    /**
     * Writes the database file's changed pages to the disk ({@code fsync}) from a channel of its own, without the
     * store lock. It changes nothing SQLite relies on: an extra flush only moves work out from under the lock.
     * Any failure is ignored; the checkpoint under the lock flushes the file anyway.
     */
    private void flushDatabaseFile() {
        Path file = sqliteFile;
        if (file == null) {
            return;
        }
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            channel.force(false);
        } catch (IOException | RuntimeException e) {
            // the checkpoint under the lock flushes it anyway
        }
    }

    /** One passive checkpoint; returns the pages in the log. */
    private static long checkpoint(Statement s) throws SQLException {
        try (ResultSet rs = s.executeQuery("PRAGMA wal_checkpoint(PASSIVE)")) {
            return rs.next() ? rs.getLong(2) : 0;
        }
    }

    /**
     * Whether a statement failed on a primary-key or unique constraint: SQLSTATE 23505 on PostgreSQL and H2, a
     * constraint result code on SQLite, which reports no SQLSTATE.
     */
    private boolean isUniqueViolation(SQLException e) {
        // Asked of SQLite's classes only on SQLite: the drivers are optional, and an H2 or PostgreSQL store may
        // run without sqlite-jdbc.
        return dialect == Dialect.SQLITE ? SqliteErrors.isUniqueViolation(e) : UNIQUE_VIOLATION.equals(e.getSQLState());
    }

    /** Apart, so SQLite's classes are resolved only on a SQLite store. */
    private static final class SqliteErrors {
        static boolean isUniqueViolation(SQLException e) {
            if (e instanceof SQLiteException sqlite) {
                SQLiteErrorCode code = sqlite.getResultCode();
                return code == SQLiteErrorCode.SQLITE_CONSTRAINT_PRIMARYKEY
                        || code == SQLiteErrorCode.SQLITE_CONSTRAINT_UNIQUE;
            }
            return UNIQUE_VIOLATION.equals(e.getSQLState());
        }
    }

    private static Seat seat(ResultSet rs) throws SQLException {
        return new Seat(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4),
                Instant.ofEpochMilli(rs.getLong(5)));
    }

    @FunctionalInterface
    private interface Work<T> {
        T run(Connection c) throws SQLException;
    }

    /** A transaction that only reads: nothing to store, so it never waits for the file. */
    private <T> T transaction(Work<T> work) {
        return inTransaction(work);
    }

    /**
     * A transaction that may write, and whose changes are in the file when it returns. After the commit we ask
     * MVStore to store the file, waiting for its store lock ({@code MVStore.commit()}, which serializes and writes
     * synchronously). That is not enough on its own: another thread (MVStore's background thread, which stores
     * every {@code WRITE_DELAY}, see {@link DbSpec}, or any writer whose changes filled H2's buffer) may have
     * started a store that holds our change just before, and such a store hands its writing to H2's
     * serialization and save threads and returns; our store then finds nothing left to write. So we also wait, under the store lock, for
     * those two threads to finish what they were given ({@code executeFilestoreOperation}), and that call throws
     * if one of them failed, where H2 would otherwise only have recorded the failure. When this method returns
     * normally, the change is in the file, however the stores interleaved. This is also the group commit: the
     * grants of one {@link GroupCommit} group share one transaction and this one store.
     *
     * <p>On SQLite the commit itself appends the transaction's pages to the write-ahead log with a write to the
     * file before it returns, so there is nothing more to wait for. On an embedded engine the transaction holds its
     * side of the store-wide lock ({@link #writers}) from its first statement to its commit.
     */
    private <T> T write(Work<T> work) {
        if (writers == null) {
            return stored(inTransaction(work));
        }
        Lock lock = dialect == Dialect.SQLITE ? writers.writeLock() : writers.readLock();
        lock.lock();
        try {
            return stored(inTransaction(work));
        } finally {
            lock.unlock();
        }
    }

    /** Returns {@code result} once the transaction that made it is in the H2 file, as {@link #write} says. */
    private <T> T stored(T result) {
        if (h2File != null) {
            try {
                h2File.commit();
                h2File.executeFilestoreOperation(NOTHING);
            } catch (RuntimeException e) {
                throw new StoreException("the H2 file store failed (" + e.getClass().getSimpleName() + ")", e);
            }
        }
        return result;
    }

    /** Run by {@code executeFilestoreOperation} once every store handed to H2's writing threads is written. */
    private static final Runnable NOTHING = () -> { };

    private <T> T inTransaction(Work<T> work) {
        try (Connection c = pool.getConnection()) {
            try {
                T result = work.run(c);
                c.commit();
                return result;
            } catch (SQLException | RuntimeException e) {
                rollbackQuietly(c, e);
                throw e;
            }
        } catch (SQLException e) {
            throw new StoreException("store call failed (SQLSTATE " + e.getSQLState() + ")", e);
        }
    }

    private static void rollbackQuietly(Connection c, Exception cause) {
        try {
            c.rollback();
        } catch (SQLException suppressed) {
            cause.addSuppressed(suppressed);
        }
    }
}
