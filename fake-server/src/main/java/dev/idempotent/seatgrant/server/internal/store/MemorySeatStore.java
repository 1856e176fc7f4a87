package dev.idempotent.seatgrant.server.internal.store;

import dev.idempotent.seatgrant.server.Ledger;
import dev.idempotent.seatgrant.server.Seat;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * The in-memory store ({@code --db mem}): seats and keys in maps in this process, nothing on disk, nothing left
 * when the process ends. It keeps the same contract as {@link JdbcSeatStore} ({@code SeatStoreContract} runs on
 * both): one seat per key, the claim with its lease, the ledger.
 *
 * <p>Why maps and not an in-memory database: the in-memory server's latency was its garbage collector's. H2's
 * in-memory tables are copy-on-write B-trees, so each grant copied a few pages, and the heap filled with pages
 * to copy and collect. Here a grant adds a handful of small objects that stay where they are.
 *
 * <p>Thread-safe: one lock guards everything, so every call, {@link #reset} included, is atomic with respect
 * to every other. Grants go through the same group commit as the database stores: the I/O threads never wait for
 * this lock, and one writer takes it once per group. A call is a map operation or two; only {@link #ledger}
 * and {@link #list} walk many seats.
 */
public final class MemorySeatStore implements SeatStore {

    private static final int MAX_DUPLICATE_GROUPS = 1000;
    private static final Comparator<Row> OLDEST_FIRST = Comparator.comparing((Row r) -> r.seat().createdAt())
            .thenComparing(r -> r.seat().id());

    /** A seat and the key it was written under (null for a keyless seat). */
    private record Row(Seat seat, String key) { }

    /** A key's state: a live or expired claim, or completed with its seat. */
    private sealed interface KeyState {
        String requestHash();
    }

    private record Claim(String requestHash, String owner, long leaseUntil) implements KeyState { }

    private record Completed(String requestHash, Seat seat) implements KeyState { }

    /** Rows in the order they were added, sorted oldest first (by time, then id) the first time a reader asks. */
    private static final class Rows {
        final ArrayList<Row> list = new ArrayList<>();
        boolean sorted = true;

        void add(Row row) {
            if (sorted && !list.isEmpty() && OLDEST_FIRST.compare(list.get(list.size() - 1), row) > 0) {
                sorted = false;
            }
            list.add(row);
        }

        List<Row> oldestFirst() {
            if (!sorted) {
                list.sort(OLDEST_FIRST);
                sorted = true;
            }
            return list;
        }
    }

    /** Where a user's seats are kept; a record, so it is the map's key by value. */
    private record User(String workspaceId, String userId) { }

    private final Object lock = new Object();
    private final Map<String, KeyState> keys = new HashMap<>();
    private final Map<String, Row> seatsById = new HashMap<>();
    private final Rows all = new Rows();
    private final Map<User, Rows> byUser = new HashMap<>();
    private final GroupCommit groups = new GroupCommit(1, this::runGroup);
    private volatile boolean closed;

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
                if (seatsById.containsKey(op.seat().id())) {
                    continue; // fails alone, below, as a primary-key violation would
                }
                if (op.key() != null) {
                    if (keys.containsKey(op.key())) {
                        wrote[i] = false; // the caller goes through claim(), as with the database stores
                        continue;
                    }
                    keys.put(op.key(), new Completed(op.requestHash(), op.seat()));
                }
                add(op.seat(), op.key());
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
            KeyState state = keys.get(key);
            if (state == null) {
                keys.put(key, new Claim(requestHash, owner, leaseUntil));
                return new ClaimResult.Claimed(false);
            }
            ClaimResult found = found(state, requestHash);
            if (found != null) {
                return found;
            }
            Claim holder = (Claim) state;
            if (holder.leaseUntil() > now.toEpochMilli()) {
                return new ClaimResult.InProgress(Instant.ofEpochMilli(holder.leaseUntil()));
            }
            // The holder's lease ran out: this request takes the claim over, and the holder's complete() will find
            // it no longer owns the key.
            keys.put(key, new Claim(requestHash, owner, leaseUntil));
            return new ClaimResult.Claimed(true);
        }
    }

    /** Mismatch or Completed, as a claim or a peek reports them; null for a claim with the same payload. */
    private static ClaimResult found(KeyState state, String requestHash) {
        if (!state.requestHash().equals(requestHash)) {
            return new ClaimResult.Mismatch();
        }
        if (state instanceof Completed completed) {
            return new ClaimResult.Completed(completed.seat());
        }
        return null;
    }

    @Override
    public CompleteResult complete(String key, String owner, Seat seat) {
        synchronized (lock) {
            checkOpen();
            if (!(keys.get(key) instanceof Claim claim) || !claim.owner().equals(owner)) {
                return new CompleteResult.LostClaim();
            }
            requireNewId(seat);
            keys.put(key, new Completed(claim.requestHash(), seat));
            add(seat, key);
            return new CompleteResult.Committed(seat);
        }
    }

    @Override
    public ClaimResult peek(String key, String requestHash, Instant now) {
        synchronized (lock) {
            checkOpen();
            KeyState state = keys.get(key);
            if (state == null) {
                return new ClaimResult.InProgress(now);
            }
            ClaimResult found = found(state, requestHash);
            return found != null ? found
                    : new ClaimResult.InProgress(Instant.ofEpochMilli(((Claim) state).leaseUntil()));
        }
    }

    @Override
    public void release(String key, String owner) {
        synchronized (lock) {
            checkOpen();
            if (keys.get(key) instanceof Claim claim && claim.owner().equals(owner)) {
                keys.remove(key);
            }
        }
    }

    @Override
    public Seat insertWithoutKey(Seat seat) {
        synchronized (lock) {
            checkOpen();
            requireNewId(seat);
            add(seat, null);
            return seat;
        }
    }

    /** A seat id is unique, as the tables' primary key keeps it; checked before anything changes. */
    private void requireNewId(Seat seat) {
        if (seatsById.containsKey(seat.id())) {
            throw duplicateId();
        }
    }

    private static StoreException duplicateId() {
        return new StoreException("a seat with this id exists", null);
    }

    /** Adds a seat under the lock, once {@link #requireNewId} passed. */
    private void add(Seat seat, String key) {
        Row row = new Row(seat, key);
        seatsById.put(seat.id(), row);
        all.add(row);
        byUser.computeIfAbsent(new User(seat.workspaceId(), seat.userId()), u -> new Rows()).add(row);
    }

    @Override
    public Optional<Seat> find(String seatId) {
        synchronized (lock) {
            checkOpen();
            Row row = seatsById.get(seatId);
            return row == null ? Optional.empty() : Optional.of(row.seat());
        }
    }

    @Override
    public List<Seat> list(String workspaceId, String userId, int limit) {
        synchronized (lock) {
            checkOpen();
            List<Row> candidates;
            if (workspaceId != null && userId != null) {
                Rows rows = byUser.get(new User(workspaceId, userId));
                candidates = rows == null ? List.of() : rows.oldestFirst();
            } else {
                candidates = all.oldestFirst();
            }
            List<Seat> seats = new ArrayList<>();
            for (Row row : candidates) {
                if (seats.size() >= limit) {
                    break;
                }
                Seat seat = row.seat();
                if ((workspaceId == null || workspaceId.equals(seat.workspaceId()))
                        && (userId == null || userId.equals(seat.userId()))) {
                    seats.add(seat);
                }
            }
            return seats;
        }
    }

    @Override
    public Ledger ledger() {
        synchronized (lock) {
            checkOpen();
            List<User> users = new ArrayList<>();
            for (Map.Entry<User, Rows> e : byUser.entrySet()) {
                if (e.getValue().list.size() > 1) {
                    users.add(e.getKey());
                }
            }
            users.sort(Comparator.comparing(User::workspaceId).thenComparing(User::userId));
            List<Ledger.Duplicate> duplicates = new ArrayList<>();
            for (User user : users.subList(0, Math.min(users.size(), MAX_DUPLICATE_GROUPS))) {
                List<String> ids = new ArrayList<>();
                List<String> keyList = new ArrayList<>();
                for (Row row : byUser.get(user).oldestFirst()) {
                    ids.add(row.seat().id());
                    if (row.key() != null) {
                        keyList.add(row.key());
                    }
                }
                duplicates.add(new Ledger.Duplicate(user.workspaceId(), user.userId(), ids, keyList));
            }
            return new Ledger(all.list.size(), keys.size(), duplicates);
        }
    }

    /** Empties everything at once: no grant lands half before and half after it. */
    @Override
    public void reset() {
        synchronized (lock) {
            checkOpen();
            keys.clear();
            seatsById.clear();
            all.list.clear();
            all.sorted = true;
            byUser.clear();
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
}
