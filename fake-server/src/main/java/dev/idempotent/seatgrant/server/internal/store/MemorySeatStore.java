package dev.idempotent.seatgrant.server.internal.store;

import dev.idempotent.seatgrant.server.Ledger;
import dev.idempotent.seatgrant.server.Seat;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.IntPredicate;

/**
 * The in-memory store ({@code --db mem}): seats and keys in this process, nothing on disk, nothing left when the
 * process ends. It keeps the same contract as {@link JdbcSeatStore} ({@code SeatStoreContract} runs on both): one
 * seat per key, the claim with its lease, the ledger.
 *
 * <p>Why it is laid out as it is: the in-memory server's latency was its garbage collector's. Every seat kept is
 * live for the rest of the run, so each young collection copied the seats made since the one before, and with
 * a dozen small objects per seat (the record, its strings, an {@code Instant}, map nodes) those copies were
 * the pauses that made the p99 (docs/benchmarks.md). So a seat here is no object at all: its strings are written,
 * with a length before each, into large byte arrays ({@link Arena}), its time into columns of primitive arrays,
 * and the three ways to find it (by key, by seat id, by user) are hash tables of row numbers ({@link Index}). A
 * collection has nothing per seat to copy or to scan; {@link Seat}s are made again when a reader asks. Nothing
 * grows by copying all it holds at once, either: at a million seats such a copy was a stall every grant of the
 * moment waited on.
 *
 * <p>A row is a seat and the key it was written under. Claims in flight (a key claimed, its seat not yet
 * written) are few and short-lived, and stay plain objects in a map until they complete or are released.
 *
 * <p>Thread-safe: one lock guards everything, so every call, {@link #reset} included, is atomic with respect to
 * every other. Grants go through the same group commit as the database stores: the I/O threads never wait for
 * this lock, and one writer takes it once per group. A call is a table lookup or two; only {@link #ledger} and
 * {@link #list} walk many seats.
 */
public final class MemorySeatStore implements SeatStore {

    private static final int MAX_DUPLICATE_GROUPS = 1000;
    private static final int PAGE_BITS = 14;
    /** Rows per page of a column: 16,384, 64 or 128 KB. */
    private static final int PAGE = 1 << PAGE_BITS;

    /** The order of a row's strings in the arena. */
    private static final int ID = 0;
    private static final int WORKSPACE = 1;
    private static final int USER = 2;
    private static final int KEY = 3;
    private static final int REQUEST_HASH = 4;
    private static final int ROLE = 5;
    private static final int FIELDS = 6;

    /** A live or expired claim on a key whose seat is not written yet. */
    private record Claim(String requestHash, String owner, long leaseUntil) { }

    private final Object lock = new Object();
    private final GroupCommit groups = new GroupCommit(1, this::runGroup);
    private volatile boolean closed;
    private Rows rows = new Rows();

    @Override
    public CompletableFuture<Boolean> grant(String key, String requestHash, Seat seat, Instant now) {
        return groups.submit(key, requestHash, seat, now);
    }

    private void runGroup(List<GroupCommit.Op> group) {
        Boolean[] wrote = new Boolean[group.size()];
        synchronized (lock) {
            checkOpen();
            for (int i = 0; i < group.size(); i++) {
                GroupCommit.Op op = group.get(i);
                if (rows.withId(op.seat().id()) >= 0) {
                    continue; // fails alone, below, as a primary-key violation would
                }
                if (op.key() != null && (rows.claims.containsKey(op.key()) || rows.withKey(op.key()) >= 0)) {
                    wrote[i] = false; // the caller goes through claim(), as with the database stores
                    continue;
                }
                rows.add(op.seat(), op.key(), op.key() == null ? null : op.requestHash());
                wrote[i] = true;
            }
        }
        // Answered outside the lock: a caller's continuation must not run while every other call waits.
        for (int i = 0; i < group.size(); i++) {
            if (wrote[i] == null) {
                group.get(i).done().completeExceptionally(duplicateId());
            } else {
                group.get(i).done().complete(wrote[i]);
            }
        }
    }

    @Override
    public ClaimResult claim(String key, String requestHash, String owner, Instant now, Duration lease) {
        long leaseUntil = now.plus(lease).toEpochMilli();
        synchronized (lock) {
            checkOpen();
            ClaimResult completed = completed(key, requestHash);
            if (completed != null) {
                return completed;
            }
            Claim holder = rows.claims.get(key);
            if (holder == null) {
                rows.claims.put(key, new Claim(requestHash, owner, leaseUntil));
                return new ClaimResult.Claimed(false);
            }
            if (!holder.requestHash().equals(requestHash)) {
                return new ClaimResult.Mismatch();
            }
            if (holder.leaseUntil() > now.toEpochMilli()) {
                return new ClaimResult.InProgress(Instant.ofEpochMilli(holder.leaseUntil()));
            }
            // The holder's lease ran out: this request takes the claim over, and the holder's complete() will find
            // it no longer owns the key.
            rows.claims.put(key, new Claim(requestHash, owner, leaseUntil));
            return new ClaimResult.Claimed(true);
        }
    }

    /** Completed or Mismatch when a seat was written under the key; null when none was. Under the lock. */
    private ClaimResult completed(String key, String requestHash) {
        int row = rows.withKey(key);
        if (row < 0) {
            return null;
        }
        return rows.equals(row, REQUEST_HASH, requestHash) ? new ClaimResult.Completed(rows.seat(row))
                : new ClaimResult.Mismatch();
    }

    @Override
    public CompleteResult complete(String key, String owner, Seat seat) {
        synchronized (lock) {
            checkOpen();
            Claim claim = rows.claims.get(key);
            if (claim == null || !claim.owner().equals(owner)) {
                return new CompleteResult.LostClaim();
            }
            requireNewId(seat);
            rows.claims.remove(key);
            rows.add(seat, key, claim.requestHash());
            return new CompleteResult.Committed(seat);
        }
    }

    @Override
    public ClaimResult peek(String key, String requestHash, Instant now) {
        synchronized (lock) {
            checkOpen();
            ClaimResult completed = completed(key, requestHash);
            if (completed != null) {
                return completed;
            }
            Claim holder = rows.claims.get(key);
            if (holder == null) {
                return new ClaimResult.InProgress(now);
            }
            return holder.requestHash().equals(requestHash)
                    ? new ClaimResult.InProgress(Instant.ofEpochMilli(holder.leaseUntil()))
                    : new ClaimResult.Mismatch();
        }
    }

    @Override
    public void release(String key, String owner) {
        synchronized (lock) {
            checkOpen();
            Claim claim = rows.claims.get(key);
            if (claim != null && claim.owner().equals(owner)) {
                rows.claims.remove(key);
            }
        }
    }

    @Override
    public Seat insertWithoutKey(Seat seat) {
        synchronized (lock) {
            checkOpen();
            requireNewId(seat);
            rows.add(seat, null, null);
            return seat;
        }
    }

    /** A seat id is unique, as the tables' primary key keeps it; checked before anything changes. */
    private void requireNewId(Seat seat) {
        if (rows.withId(seat.id()) >= 0) {
            throw duplicateId();
        }
    }

    private static StoreException duplicateId() {
        return new StoreException("a seat with this id exists", null);
    }

    @Override
    public Optional<Seat> find(String seatId) {
        synchronized (lock) {
            checkOpen();
            int row = rows.withId(seatId);
            return row < 0 ? Optional.empty() : Optional.of(rows.seat(row));
        }
    }

    @Override
    public List<Seat> list(String workspaceId, String userId, int limit) {
        synchronized (lock) {
            checkOpen();
            List<Seat> seats = new ArrayList<>();
            if (workspaceId != null && userId != null) {
                int user = rows.user(workspaceId, userId);
                if (user >= 0) {
                    for (int row : rows.oldestFirst(user)) {
                        if (seats.size() >= limit) {
                            break;
                        }
                        seats.add(rows.seat(row));
                    }
                }
                return seats;
            }
            for (int i = 0; i < rows.count && seats.size() < limit; i++) {
                int row = rows.byTime.get(i);
                if ((workspaceId == null || rows.equals(row, WORKSPACE, workspaceId))
                        && (userId == null || rows.equals(row, USER, userId))) {
                    seats.add(rows.seat(row));
                }
            }
            return seats;
        }
    }

    @Override
    public Ledger ledger() {
        synchronized (lock) {
            checkOpen();
            record Named(String workspaceId, String userId, int user) { }
            List<Named> users = new ArrayList<>();
            for (int user = 0; user < rows.users; user++) {
                if (rows.userSeats.get(user) > 1) {
                    int row = rows.userFirst.get(user);
                    users.add(new Named(rows.string(row, WORKSPACE), rows.string(row, USER), user));
                }
            }
            users.sort(Comparator.comparing(Named::workspaceId).thenComparing(Named::userId));
            List<Ledger.Duplicate> duplicates = new ArrayList<>();
            for (Named named : users.subList(0, Math.min(users.size(), MAX_DUPLICATE_GROUPS))) {
                List<String> ids = new ArrayList<>();
                List<String> keys = new ArrayList<>();
                for (int row : rows.oldestFirst(named.user())) {
                    ids.add(rows.string(row, ID));
                    String key = rows.string(row, KEY);
                    if (key != null) {
                        keys.add(key);
                    }
                }
                duplicates.add(new Ledger.Duplicate(named.workspaceId(), named.userId(), ids, keys));
            }
            return new Ledger(rows.count, rows.keyed + rows.claims.size(), duplicates);
        }
    }

    /** Empties everything at once: no grant lands half before and half after it. */
    @Override
    public void reset() {
        synchronized (lock) {
            checkOpen();
            rows = new Rows();
        }
    }

    @Override
    public void close() {
        closed = true;
        groups.close();
    }

    private void checkOpen() {
        if (closed) {
            throw new StoreException("the store is closed", null);
        }
    }

    /**
     * The seats, numbered in the order they were added. Not thread-safe: the store's lock guards it. Each column
     * below is indexed by row (or by user number) and grows a page at a time; the arena holds the strings.
     */
    private static final class Rows {
        final Map<String, Claim> claims = new HashMap<>();
        final Arena arena = new Arena();
        int count;
        /** Rows that were written under a key. */
        long keyed;
        /** Where each row's strings start in the arena. */
        final LongColumn at = new LongColumn();
        final LongColumn createdSeconds = new LongColumn();
        final IntColumn createdNanos = new IntColumn();
        /** The next row of the same user, in the order added; -1 at the end. */
        final IntColumn nextOfUser = new IntColumn();
        /** Every row, oldest first (by time, then id): kept sorted as rows come, so readers never sort them all. */
        final IntColumn byTime = new IntColumn();
        final Index byKey = new Index();
        final Index byId = new Index();
        /** (workspace, user) to a user number; the user's first row stands for its names. */
        final Index byUser = new Index();
        /** What the indexes hash with: a key of this store's own, see {@link SipHash}. */
        final SipHash sipHash = SipHash.withRandomKey();
        int users;
        final IntColumn userFirst = new IntColumn();
        final IntColumn userLast = new IntColumn();
        final IntColumn userSeats = new IntColumn();
        /** Whether every user's rows were added oldest first, so following nextOfUser needs no sort. */
        boolean addedInTimeOrder = true;

        void add(Seat seat, String key, String requestHash) {
            int row = count;
            String[] fields = new String[FIELDS];
            fields[ID] = seat.id();
            fields[WORKSPACE] = seat.workspaceId();
            fields[USER] = seat.userId();
            fields[KEY] = key;
            fields[REQUEST_HASH] = requestHash;
            fields[ROLE] = seat.role();
            at.set(row, arena.write(fields));
            createdSeconds.set(row, seat.createdAt().getEpochSecond());
            createdNanos.set(row, seat.createdAt().getNano());
            nextOfUser.set(row, -1);
            count++;
            placeByTime(row);
            byId.put(hash(Arena.encode(seat.id())), row);
            if (key != null) {
                byKey.put(hash(Arena.encode(key)), row);
                keyed++;
            }
            addToUser(row, seat.workspaceId(), seat.userId());
        }

        /** Inserts the new row into byTime where it belongs; rows come nearly in order, so it is almost always last. */
        private void placeByTime(int row) {
            int end = count - 1;
            int low = end;
            while (low > 0 && olderFirst(row, byTime.get(low - 1)) < 0) {
                low--;
                if (end - low > 16) {
                    low = binarySearch(row, 0, low); // far out of order: find its place without walking
                    break;
                }
            }
            for (int i = end; i > low; i--) {
                byTime.set(i, byTime.get(i - 1));
            }
            byTime.set(low, row);
        }

        /** The first index in byTime[from, to) whose row sorts after {@code row}. */
        private int binarySearch(int row, int from, int to) {
            while (from < to) {
                int mid = (from + to) >>> 1;
                if (olderFirst(byTime.get(mid), row) <= 0) {
                    from = mid + 1;
                } else {
                    to = mid;
                }
            }
            return from;
        }

        private void addToUser(int row, String workspaceId, String userId) {
            byte[] workspace = Arena.encode(workspaceId);
            byte[] name = Arena.encode(userId);
            int hash = userHash(workspace, name);
            int user = user(workspace, name, hash);
            if (user < 0) {
                user = users++;
                userFirst.set(user, row);
                userLast.set(user, row);
                userSeats.set(user, 1);
                byUser.put(hash, user);
                return;
            }
            if (olderFirst(row, userLast.get(user)) < 0) {
                addedInTimeOrder = false;
            }
            nextOfUser.set(userLast.get(user), row);
            userLast.set(user, row);
            userSeats.set(user, userSeats.get(user) + 1);
        }

        /** The user number of (workspace, user), or -1. */
        int user(String workspaceId, String userId) {
            byte[] workspace = Arena.encode(workspaceId);
            byte[] user = Arena.encode(userId);
            return user(workspace, user, userHash(workspace, user));
        }

        private int user(byte[] workspace, byte[] user, int hash) {
            return byUser.find(hash, u -> arena.equals(at.get(userFirst.get(u)), WORKSPACE, workspace)
                    && arena.equals(at.get(userFirst.get(u)), USER, user));
        }

        private int hash(byte[] encoded) {
            return (int) sipHash.hash(encoded);
        }

        /** One hash of both names, the workspace's length first, so ("ab", "c") and ("a", "bc") differ. */
        private int userHash(byte[] workspace, byte[] user) {
            byte[] both = new byte[4 + workspace.length + user.length];
            both[0] = (byte) (workspace.length >>> 24);
            both[1] = (byte) (workspace.length >>> 16);
            both[2] = (byte) (workspace.length >>> 8);
            both[3] = (byte) workspace.length;
            System.arraycopy(workspace, 0, both, 4, workspace.length);
            System.arraycopy(user, 0, both, 4 + workspace.length, user.length);
            return hash(both);
        }

        int withKey(String key) {
            byte[] bytes = Arena.encode(key);
            return byKey.find(hash(bytes), row -> arena.equals(at.get(row), KEY, bytes));
        }

        int withId(String id) {
            byte[] bytes = Arena.encode(id);
            return byId.find(hash(bytes), row -> arena.equals(at.get(row), ID, bytes));
        }

        /** A user's rows, oldest first (by time, then id). */
        int[] oldestFirst(int user) {
            int[] found = new int[userSeats.get(user)];
            int n = 0;
            for (int row = userFirst.get(user); row >= 0; row = nextOfUser.get(row)) {
                found[n++] = row;
            }
            if (!addedInTimeOrder) {
                Integer[] boxed = Arrays.stream(found).boxed().toArray(Integer[]::new);
                Arrays.sort(boxed, this::olderFirst);
                for (int i = 0; i < boxed.length; i++) {
                    found[i] = boxed[i];
                }
            }
            return found;
        }

        /** Orders rows as the database stores' ORDER BY created_at, id does. */
        int olderFirst(int a, int b) {
            int c = Long.compare(createdSeconds.get(a), createdSeconds.get(b));
            if (c == 0) {
                c = Integer.compare(createdNanos.get(a), createdNanos.get(b));
            }
            return c != 0 ? c : string(a, ID).compareTo(string(b, ID));
        }

        Seat seat(int row) {
            return new Seat(string(row, ID), string(row, WORKSPACE), string(row, USER), string(row, ROLE),
                    Instant.ofEpochSecond(createdSeconds.get(row), createdNanos.get(row)));
        }

        String string(int row, int field) {
            return arena.string(at.get(row), field);
        }

        boolean equals(int row, int field, String value) {
            return arena.equals(at.get(row), field, Arena.encode(value));
        }
    }

    /**
     * A hash table from a hash to an int (a row or a user number), with no removal (a reset replaces the whole
     * store). It keeps each entry's hash, so growing never reads the arena; the caller says whether an entry with
     * the same hash is the one it looks for.
     *
     * <p>It never grows all at once. A table that doubled allocated and filled tens of megabytes at once at a
     * million rows, under the store's lock, which every grant waited on: 100 to 200 ms, a p99 of its own. So this
     * is extendible hashing: a directory, indexed by a hash's top bits, of buckets of {@link #BUCKET} slots, each an
     * open-addressing table with linear probing. A bucket half full splits in two by its next bit (a few
     * kilobytes moved), and the directory, a few thousand references at a million rows, doubles when a bucket
     * needs one more bit than it has. A bucket whose entries a split cannot part (at {@link #MAX_DEPTH} bits,
     * which only hashes alike to that depth reach) grows in place instead.
     */
    static final class Index {
        static final int BUCKET = 1024;
        /** The directory's bits at most: a million buckets. */
        static final int MAX_DEPTH = 20;

        private static final class Bucket {
            final int depth;
            /** The value plus one; 0 is an empty slot. */
            int[] slots;
            int[] hashes;
            int size;

            Bucket(int depth, int capacity) {
                this.depth = depth;
                this.slots = new int[capacity];
                this.hashes = new int[capacity];
            }

            int find(int hash, int mixed, IntPredicate matches) {
                int mask = slots.length - 1;
                for (int i = mixed & mask; slots[i] != 0; i = (i + 1) & mask) {
                    if (hashes[i] == hash && matches.test(slots[i] - 1)) {
                        return slots[i] - 1;
                    }
                }
                return -1;
            }

            void insert(int hash, int slot) {
                int mask = slots.length - 1;
                int i = mix(hash) & mask;
                while (slots[i] != 0) {
                    i = (i + 1) & mask;
                }
                slots[i] = slot;
                hashes[i] = hash;
                size++;
            }

            void growInPlace() {
                int[] oldSlots = slots;
                int[] oldHashes = hashes;
                slots = new int[oldSlots.length * 2];
                hashes = new int[oldSlots.length * 2];
                size = 0;
                for (int i = 0; i < oldSlots.length; i++) {
                    if (oldSlots[i] != 0) {
                        insert(oldHashes[i], oldSlots[i]);
                    }
                }
            }
        }

        private Bucket[] directory = {new Bucket(0, BUCKET)};
        private int depth;

        /** The value whose entry has this hash and matches, or -1. */
        int find(int hash, IntPredicate matches) {
            int mixed = mix(hash);
            return directory[bucketOf(mixed)].find(hash, mixed, matches);
        }

        /** Adds an entry the caller knows is not there yet. */
        void put(int hash, int value) {
            int mixed = mix(hash);
            Bucket bucket = directory[bucketOf(mixed)];
            while ((bucket.size + 1) * 2 > bucket.slots.length) {
                if (bucket.depth < MAX_DEPTH) {
                    split(bucket, mixed);
                } else {
                    bucket.growInPlace();
                }
                bucket = directory[bucketOf(mixed)];
            }
            bucket.insert(hash, value + 1);
        }

        /** The buckets in the directory (for the tests). */
        int directorySize() {
            return directory.length;
        }

        private int bucketOf(int mixed) {
            return depth == 0 ? 0 : mixed >>> (32 - depth);
        }

        /** Splits the bucket that {@code mixed} falls in by the bit after its prefix. */
        private void split(Bucket bucket, int mixed) {
            if (bucket.depth == depth) {
                Bucket[] doubled = new Bucket[directory.length * 2];
                for (int i = 0; i < doubled.length; i++) {
                    doubled[i] = directory[i >> 1];
                }
                directory = doubled;
                depth++;
            }
            Bucket zero = new Bucket(bucket.depth + 1, bucket.slots.length);
            Bucket one = new Bucket(bucket.depth + 1, bucket.slots.length);
            int bit = 31 - bucket.depth;
            for (int i = 0; i < bucket.slots.length; i++) {
                if (bucket.slots[i] != 0) {
                    int hash = bucket.hashes[i];
                    ((mix(hash) >>> bit & 1) == 0 ? zero : one).insert(hash, bucket.slots[i]);
                }
            }
            // The directory entries of this bucket are a run of 2^(depth - bucket depth); the first half take
            // the prefix followed by 0.
            int span = 1 << (depth - bucket.depth);
            int first = bucketOf(mixed) & -span;
            for (int i = 0; i < span; i++) {
                directory[first + i] = i < span / 2 ? zero : one;
            }
        }

        /** A bijective mix (MurmurHash3's finalizer), so hashes that differ in a few bits spread over all of them. */
        static int mix(int hash) {
            int h = hash;
            h ^= h >>> 16;
            h *= 0x85ebca6b;
            h ^= h >>> 13;
            h *= 0xc2b2ae35;
            h ^= h >>> 16;
            return h;
        }
    }

    /**
     * An int per row (or per user), in pages of {@link #PAGE} that are never copied: a column that doubled
     * instead copied and zeroed tens of megabytes at once at a million rows, a stall every grant of the moment
     * waited on. The page list grows by doubling, but it is a few hundred references long at most.
     */
    static final class IntColumn {
        private int[][] pages = new int[8][];

        int get(int i) {
            return pages[i >>> PAGE_BITS][i & (PAGE - 1)];
        }

        void set(int i, int value) {
            int page = i >>> PAGE_BITS;
            if (page >= pages.length) {
                pages = Arrays.copyOf(pages, Math.max(pages.length * 2, page + 1));
            }
            if (pages[page] == null) {
                pages[page] = new int[PAGE];
            }
            pages[page][i & (PAGE - 1)] = value;
        }
    }

    /** A long per row, in pages as {@link IntColumn} keeps its ints. */
    static final class LongColumn {
        private long[][] pages = new long[8][];

        long get(int i) {
            return pages[i >>> PAGE_BITS][i & (PAGE - 1)];
        }

        void set(int i, long value) {
            int page = i >>> PAGE_BITS;
            if (page >= pages.length) {
                pages = Arrays.copyOf(pages, Math.max(pages.length * 2, page + 1));
            }
            if (pages[page] == null) {
                pages[page] = new long[PAGE];
            }
            pages[page][i & (PAGE - 1)] = value;
        }
    }

    /**
     * The rows' strings, in byte arrays of a megabyte (a row longer than that gets an array of its own). A row is
     * its strings one after another, each as its {@link #encode encoded} length plus one (0 for a null) in a
     * varint, then its bytes;
     * its position is the array's number in the high 32 bits and the offset in the low 32.
     */
    static final class Arena {
        static final int CHUNK = 1 << 20;

        private final List<byte[]> chunks = new ArrayList<>();
        private byte[] current;
        private int position;

        long write(String[] fields) {
            byte[][] encoded = new byte[fields.length][];
            int size = 0;
            for (int i = 0; i < fields.length; i++) {
                encoded[i] = fields[i] == null ? null : encode(fields[i]);
                int length = encoded[i] == null ? 0 : encoded[i].length;
                size += varintSize(length + 1) + length;
            }
            if (current == null || current.length - position < size) {
                current = new byte[Math.max(CHUNK, size)];
                chunks.add(current);
                position = 0;
            }
            long at = ((long) (chunks.size() - 1) << 32) | position;
            for (byte[] bytes : encoded) {
                position = writeVarint(current, position, bytes == null ? 0 : bytes.length + 1);
                if (bytes != null) {
                    System.arraycopy(bytes, 0, current, position, bytes.length);
                    position += bytes.length;
                }
            }
            return at;
        }

        /** The field's string, or null. */
        String string(long at, int field) {
            byte[] chunk = chunks.get((int) (at >>> 32));
            int offset = skipTo(chunk, (int) at, field);
            int lengthPlusOne = readVarint(chunk, offset);
            if (lengthPlusOne == 0) {
                return null;
            }
            return decode(chunk, offset + varintSize(lengthPlusOne), lengthPlusOne - 1);
        }

        /**
         * Each UTF-16 char in one to three bytes as UTF-8 writes a char below U+10000, surrogates included (a
         * surrogate pair is two chars of three bytes each, where UTF-8 proper would write four). Unlike
         * {@code getBytes(UTF_8)}, which writes {@code ?} for a lone surrogate, this keeps every string as it came,
         * so two different keys never encode alike, and a seat reads back exactly as it was granted.
         */
        static byte[] encode(String s) {
            int size = 0;
            for (int i = 0; i < s.length(); i++) {
                char c = s.charAt(i);
                size += c < 0x80 ? 1 : c < 0x800 ? 2 : 3;
            }
            byte[] bytes = new byte[size];
            int n = 0;
            for (int i = 0; i < s.length(); i++) {
                char c = s.charAt(i);
                if (c < 0x80) {
                    bytes[n++] = (byte) c;
                } else if (c < 0x800) {
                    bytes[n++] = (byte) (0xC0 | (c >> 6));
                    bytes[n++] = (byte) (0x80 | (c & 0x3F));
                } else {
                    bytes[n++] = (byte) (0xE0 | (c >> 12));
                    bytes[n++] = (byte) (0x80 | ((c >> 6) & 0x3F));
                    bytes[n++] = (byte) (0x80 | (c & 0x3F));
                }
            }
            return bytes;
        }

        /** The string {@link #encode} wrote into {@code length} bytes from {@code start}. */
        static String decode(byte[] from, int start, int length) {
            char[] chars = new char[length];
            int n = 0;
            int end = start + length;
            for (int i = start; i < end; ) {
                int b = from[i] & 0xFF;
                if (b < 0x80) {
                    chars[n++] = (char) b;
                    i++;
                } else if (b < 0xE0) {
                    chars[n++] = (char) (((b & 0x1F) << 6) | (from[i + 1] & 0x3F));
                    i += 2;
                } else {
                    chars[n++] = (char) (((b & 0x0F) << 12) | ((from[i + 1] & 0x3F) << 6) | (from[i + 2] & 0x3F));
                    i += 3;
                }
            }
            return new String(chars, 0, n);
        }

        /** Whether the field holds exactly these {@link #encode encoded} bytes (false for a null field). */
        boolean equals(long at, int field, byte[] value) {
            byte[] chunk = chunks.get((int) (at >>> 32));
            int offset = skipTo(chunk, (int) at, field);
            int lengthPlusOne = readVarint(chunk, offset);
            if (lengthPlusOne - 1 != value.length) {
                return false;
            }
            int start = offset + varintSize(lengthPlusOne);
            return Arrays.equals(chunk, start, start + value.length, value, 0, value.length);
        }

        private static int skipTo(byte[] chunk, int offset, int field) {
            for (int i = 0; i < field; i++) {
                int lengthPlusOne = readVarint(chunk, offset);
                offset += varintSize(lengthPlusOne) + Math.max(0, lengthPlusOne - 1);
            }
            return offset;
        }

        private static int varintSize(int value) {
            int size = 1;
            while ((value >>>= 7) != 0) {
                size++;
            }
            return size;
        }

        private static int writeVarint(byte[] into, int offset, int value) {
            while ((value & ~0x7F) != 0) {
                into[offset++] = (byte) ((value & 0x7F) | 0x80);
                value >>>= 7;
            }
            into[offset++] = (byte) value;
            return offset;
        }

        private static int readVarint(byte[] from, int offset) {
            int value = 0;
            for (int shift = 0; ; shift += 7) {
                byte b = from[offset++];
                value |= (b & 0x7F) << shift;
                if (b >= 0) {
                    return value;
                }
            }
        }
    }
}
