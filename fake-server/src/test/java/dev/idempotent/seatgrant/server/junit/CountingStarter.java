package dev.idempotent.seatgrant.server.junit;

import dev.idempotent.seatgrant.server.FakeSeatServer;
import dev.idempotent.seatgrant.server.FakeServer;
import dev.idempotent.seatgrant.server.FaultPlan;
import dev.idempotent.seatgrant.server.JournalEntry;
import dev.idempotent.seatgrant.server.ServerConfig;
import java.net.URI;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;

/**
 * Starts real seat servers for an extension under test and remembers each one, so a test can count how many were
 * started and which are closed.
 */
final class CountingStarter implements Supplier<FakeServer> {

    private final ServerConfig config;
    private final List<Counted> started = new CopyOnWriteArrayList<>();

    CountingStarter(ServerConfig config) {
        this.config = config;
    }

    @Override
    public FakeServer get() {
        Counted server = new Counted(FakeSeatServer.start(config));
        started.add(server);
        return server;
    }

    List<Counted> started() {
        return List.copyOf(started);
    }

    long closed() {
        return started.stream().filter(Counted::isClosed).count();
    }

    /** A real seat server that knows whether it was closed. */
    static final class Counted implements FakeServer {
        private final FakeSeatServer server;
        private volatile boolean closed;

        Counted(FakeSeatServer server) {
            this.server = server;
        }

        boolean isClosed() {
            return closed;
        }

        @Override
        public URI baseUri() {
            return server.baseUri();
        }

        @Override
        public List<JournalEntry> journal() {
            return server.journal();
        }

        @Override
        public FaultPlan faultPlan() {
            return server.faultPlan();
        }

        @Override
        public void faultPlan(FaultPlan plan) {
            server.faultPlan(plan);
        }

        @Override
        public void reset() {
            server.reset();
        }

        @Override
        public List<Duplication> duplications() {
            return server.duplications();
        }

        @Override
        public void close() {
            closed = true;
            server.close();
        }
    }
}
