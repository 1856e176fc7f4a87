package dev.idempotent.seatgrant.server;

import java.net.URI;
import java.util.List;
import java.util.Objects;

/**
 * A running fake that stands where a client's server would and loses answers on purpose: what
 * {@link dev.idempotent.seatgrant.server.junit.FakeServerExtension} starts, resets between tests and asks for
 * duplicates. {@link FakeSeatServer} is one; {@link FakeProxy}, the same faults in front of any HTTP service, is the
 * other.
 *
 * <p>Implementations are thread-safe: a test's client threads call the server while the test reads its journal.
 */
public interface FakeServer extends AutoCloseable {

    /** {@code http://host:port/}, where clients under test send their requests. */
    URI baseUri();

    /**
     * The requests received, faulted ones included, in {@code seq} order (see {@link JournalEntry}), read once no
     * answer is still being written (waiting at most two seconds), so an entry whose answer the client already got
     * says {@code sent: true}.
     */
    List<JournalEntry> journal();

    /** The fault plan in force. */
    FaultPlan faultPlan();

    /** Replaces the fault plan, with fresh rule counters. */
    void faultPlan(FaultPlan plan);

    /**
     * The shipped scenario {@code name} as this server runs it: as shipped, on {@code POST /v1/seats}; a proxy aims
     * it at its route ({@link ProxyConfig.Builder#route}).
     *
     * @throws IllegalArgumentException for an unknown scenario, naming the known ones
     */
    default FaultPlan scenario(String name) {
        return FaultPlan.scenario(name);
    }

    /** Forgets everything: what was created, the keys, the journal, the fault plan and its attempt counts. */
    void reset();

    /**
     * Each subject (a user, or an operation) that got more than one thing created (seats, or resources), read now,
     * with the requests that reached the server for it. Empty when every subject has at most one.
     */
    List<Duplication> duplications();

    /** Stops listening and releases everything the server holds. */
    @Override
    void close();

    /**
     * One subject with more than one created thing: the evidence an assertion prints.
     *
     * @param subject  who got them, in words: {@code user user_1 in workspace ws_1}, or {@code operation key-7}
     * @param noun     what was created, singular: {@code seat}, or {@code resource}
     * @param created  the ids of what was created, oldest first (two or more)
     * @param keys     the Idempotency-Keys they were created under; empty when the requests carried none
     * @param requests the journal's requests for this subject, in {@code seq} order; fewer than were sent when the
     *                 journal has overwritten the oldest
     */
    record Duplication(String subject, String noun, List<String> created, List<String> keys,
                       List<JournalEntry> requests) {
        public Duplication {
            Objects.requireNonNull(subject, "subject");
            Objects.requireNonNull(noun, "noun");
            created = List.copyOf(created);
            keys = List.copyOf(keys);
            requests = List.copyOf(requests);
        }
    }
}
