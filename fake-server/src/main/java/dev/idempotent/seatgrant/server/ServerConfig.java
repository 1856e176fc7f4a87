package dev.idempotent.seatgrant.server;

import java.time.Clock;
import java.time.Duration;
import java.util.Objects;

/**
 * How a {@link FakeSeatServer} runs: where it listens, where it stores seats, which faults it injects and how it
 * replays. Immutable; build one with {@link #builder()}. The defaults suit tests (a free port, an in-memory
 * store); the {@code serve} command's defaults (port 8080, a file store) are set by the command.
 *
 * <p>{@link #toString()} never shows the admin token or the database URL (it may carry credentials).
 */
public final class ServerConfig {

    private final String host;
    private final int port;
    private final String db;
    private final FaultPlan faultPlan;
    private final ReplayStatus replayStatus;
    private final boolean requireKey;
    private final String adminToken;
    private final Duration claimLease;
    private final Duration defaultHang;
    private final Clock clock;
    private final String basePath;
    private final Duration headerTimeout;
    private final Duration bodyTimeout;
    private final Duration idleTimeout;
    private final int maxConnections;
    private final int journalCapacity;
    private final java.util.List<String> allowedHosts;
    private final boolean adminApi;
    private final ApiNames apiNames;

    private ServerConfig(Builder b) {
        this.host = b.host;
        this.port = b.port;
        this.db = b.db;
        this.faultPlan = b.faultPlan;
        this.replayStatus = b.replayStatus;
        this.requireKey = b.requireKey;
        this.adminToken = b.adminToken;
        this.claimLease = b.claimLease;
        this.defaultHang = b.defaultHang;
        this.clock = b.clock;
        this.basePath = b.basePath;
        this.headerTimeout = b.headerTimeout;
        this.bodyTimeout = b.bodyTimeout;
        this.idleTimeout = b.idleTimeout;
        this.maxConnections = b.maxConnections;
        this.journalCapacity = b.journalCapacity;
        this.allowedHosts = java.util.List.copyOf(b.allowedHosts);
        this.adminApi = b.adminApi;
        this.apiNames = b.apiNames;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** A builder holding this configuration's values, to change a few. */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.host = host;
        b.port = port;
        b.db = db;
        b.faultPlan = faultPlan;
        b.replayStatus = replayStatus;
        b.requireKey = requireKey;
        b.adminToken = adminToken;
        b.claimLease = claimLease;
        b.defaultHang = defaultHang;
        b.clock = clock;
        b.basePath = basePath;
        b.headerTimeout = headerTimeout;
        b.bodyTimeout = bodyTimeout;
        b.idleTimeout = idleTimeout;
        b.maxConnections = maxConnections;
        b.journalCapacity = journalCapacity;
        b.allowedHosts = new java.util.ArrayList<>(allowedHosts);
        b.adminApi = adminApi;
        b.apiNames = apiNames;
        return b;
    }

    public String host() {
        return host;
    }

    public int port() {
        return port;
    }

    /**
     * The store: {@code mem}, a file path (SQLite), {@code sqlite:PATH}, {@code h2:PATH}, or a {@code jdbc:sqlite:},
     * {@code jdbc:h2:} or {@code jdbc:postgresql:} URL.
     */
    public String db() {
        return db;
    }

    public FaultPlan faultPlan() {
        return faultPlan;
    }

    public ReplayStatus replayStatus() {
        return replayStatus;
    }

    public boolean requireKey() {
        return requireKey;
    }

    /** Nullable: without a token the admin API answers loopback clients only. */
    public String adminToken() {
        return adminToken;
    }

    public Duration claimLease() {
        return claimLease;
    }

    public Duration defaultHang() {
        return defaultHang;
    }

    public Clock clock() {
        return clock;
    }

    /**
     * The prefix the seat API is served under, e.g. {@code /t/tok_abc} for {@code /t/tok_abc/v1/seats}; empty for
     * none. The admin API stays at {@code /__admin}. It may hold a secret-looking token, so it is never logged.
     */
    public String basePath() {
        return basePath;
    }

    /** The names the seat API speaks on the wire; {@link ApiNames#PACKET} unless a handout's were given. */
    public ApiNames apiNames() {
        return apiNames;
    }

    /** How long a request's headers may take to arrive, from their first byte; then 408 and close. */
    public Duration headerTimeout() {
        return headerTimeout;
    }

    /** How long a request's body may take to arrive, after its headers; then 408 and close. */
    public Duration bodyTimeout() {
        return bodyTimeout;
    }

    /** How long a kept-alive connection may sit idle (or a response take to be written) before it is closed. */
    public Duration idleTimeout() {
        return idleTimeout;
    }

    /** Open connections beyond this are accepted and closed at once. */
    public int maxConnections() {
        return maxConnections;
    }

    /** How many journal entries are kept; past it the oldest are overwritten. */
    public int journalCapacity() {
        return journalCapacity;
    }

    /**
     * The names, besides the server's own ({@code localhost}, {@code 127.0.0.1}, {@code [::1]} and {@link #host()},
     * each with the port), that a client may reach the admin API by, on any port; empty by default.
     */
    public java.util.List<String> allowedHosts() {
        return allowedHosts;
    }

    /**
     * Whether the server answers its admin API under {@code /__admin}; when false, a request there is one more
     * request the seat API does not know: answered {@code 404} and journaled with its path.
     */
    public boolean adminApi() {
        return adminApi;
    }

    @Override
    public String toString() {
        return "ServerConfig[host=" + host + ", port=" + port + ", rules=" + faultPlan.rules().size()
                + ", replayStatus=" + replayStatus + ", requireKey=" + requireKey
                + ", adminToken=" + (adminToken == null ? "none" : "set")
                + ", basePath=" + (basePath.isEmpty() ? "none" : "set") + "]";
    }

    /** Collects settings; {@link #build()} copies them, so a built config never changes afterwards. Not thread-safe. */
    public static final class Builder {
        private String host = "127.0.0.1";
        private int port = 0;
        private String db = "mem";
        private FaultPlan faultPlan = FaultPlan.none();
        private ReplayStatus replayStatus = ReplayStatus.CONFLICT;
        private boolean requireKey;
        private String adminToken;
        private Duration claimLease = Duration.ofSeconds(10);
        private Duration defaultHang = Duration.ofSeconds(60);
        private Clock clock = Clock.systemUTC();
        private String basePath = "";
        private ApiNames apiNames = ApiNames.PACKET;
        private Duration headerTimeout = Duration.ofSeconds(10);
        private Duration bodyTimeout = Duration.ofSeconds(30);
        private Duration idleTimeout = Duration.ofSeconds(60);
        private int maxConnections = ConfigChecks.defaultMaxConnections();
        private int journalCapacity = 100_000;
        private java.util.List<String> allowedHosts = new java.util.ArrayList<>();
        private boolean adminApi = true;

        private Builder() {
        }

        /** The address to bind; default {@code 127.0.0.1} (loopback only). */
        public Builder host(String host) {
            this.host = Objects.requireNonNull(host, "host");
            return this;
        }

        /** The port; default 0, a free port chosen at start ({@link FakeSeatServer#port()} tells which). */
        public Builder port(int port) {
            this.port = ConfigChecks.port(port);
            return this;
        }

        /** The store; default {@code mem}, private to this server. */
        public Builder db(String db) {
            this.db = Objects.requireNonNull(db, "db");
            return this;
        }

        /** The fault plan in force at start; default none. */
        public Builder faultPlan(FaultPlan faultPlan) {
            this.faultPlan = Objects.requireNonNull(faultPlan, "faultPlan");
            return this;
        }

        /** How a completed key is replayed; default {@link ReplayStatus#CONFLICT} (409). */
        public Builder replayStatus(ReplayStatus replayStatus) {
            this.replayStatus = Objects.requireNonNull(replayStatus, "replayStatus");
            return this;
        }

        /** When true, a POST without an Idempotency-Key gets 400; default false (the incident's setting). */
        public Builder requireKey(boolean requireKey) {
            this.requireKey = requireKey;
            return this;
        }

        /**
         * A bearer token for the admin API, which then answers any address that presents it; nullable.
         *
         * @throws IllegalArgumentException unless 1 or more visible ASCII characters (0x21 to 0x7E): HTTP strips
         *                                  a header value's surrounding whitespace, a browser sends a header in
         *                                  Latin-1 and a UTF-8 client in UTF-8, so no request could present a
         *                                  token with a space, a control character or anything beyond ASCII
         */
        public Builder adminToken(String adminToken) {
            this.adminToken = ConfigChecks.adminToken(adminToken);
            return this;
        }

        /**
         * How long an in-progress claim on a key holds before another request may take it over (its holder is
         * presumed dead); default 10 s. Longer than any commit, shorter than a human's patience.
         */
        public Builder claimLease(Duration claimLease) {
            if (claimLease.isNegative() || claimLease.isZero()) {
                throw new IllegalArgumentException("claim lease must be positive");
            }
            this.claimLease = claimLease;
            return this;
        }

        /** How long {@code hang-after-commit} holds a connection when its rule gives no delayMs; default 60 s. */
        public Builder defaultHang(Duration defaultHang) {
            this.defaultHang = ConfigChecks.defaultHang(defaultHang);
            return this;
        }

        /** The clock for createdAt, the journal and claim leases; default the UTC system clock. */
        public Builder clock(Clock clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        /**
         * Serves the seat API under this prefix: {@code /t/tok_abc} serves {@code /t/tok_abc/v1/seats}, and
         * {@code /v1/seats} at the root then answers 404. Default empty (the root). The admin API stays at
         * {@code /__admin}.
         *
         * @throws IllegalArgumentException unless empty or {@code /} followed by segments of URL-safe characters
         *                                  ({@code A-Z a-z 0-9 - . _ ~}), with no empty, {@code .} or {@code ..}
         *                                  segment, no trailing {@code /}, and not under {@code /__admin}
         */
        public Builder basePath(String basePath) {
            this.basePath = checkBasePath(Objects.requireNonNull(basePath, "basePath"));
            return this;
        }

        /** Serves the seat API in these names (a handout's); by default the packet's, {@link ApiNames#PACKET}. */
        public Builder apiNames(ApiNames apiNames) {
            this.apiNames = Objects.requireNonNull(apiNames, "apiNames");
            return this;
        }

        private static String checkBasePath(String path) {
            if (path.isEmpty() || path.equals("/")) {
                return "";
            }
            if (!path.startsWith("/") || path.endsWith("/")) {
                throw new IllegalArgumentException("base path must start with / and not end with /");
            }
            for (String segment : path.substring(1).split("/", -1)) {
                if (segment.isEmpty() || segment.equals(".") || segment.equals("..")
                        || !segment.matches("[A-Za-z0-9._~-]+")) {
                    throw new IllegalArgumentException(
                            "base path segments must be non-empty and use only A-Z a-z 0-9 - . _ ~");
                }
            }
            if (path.equals("/__admin") || path.startsWith("/__admin/")) {
                throw new IllegalArgumentException("base path must not be under /__admin");
            }
            return path;
        }

        /** Headers must be complete this long after their first byte, or the client gets 408; default 10 s. */
        public Builder headerTimeout(Duration timeout) {
            this.headerTimeout = ConfigChecks.positive(timeout, "header timeout");
            return this;
        }

        /** A body must be complete this long after its headers, or the client gets 408; default 30 s. */
        public Builder bodyTimeout(Duration timeout) {
            this.bodyTimeout = ConfigChecks.positive(timeout, "body timeout");
            return this;
        }

        /**
         * A kept-alive connection with no request for this long is closed, and so is one whose response takes this
         * long to write (a client that stopped reading); default 60 s. A connection held by
         * {@code hang-after-commit} follows its rule's delayMs instead.
         */
        public Builder idleTimeout(Duration timeout) {
            this.idleTimeout = ConfigChecks.positive(timeout, "idle timeout");
            return this;
        }

        /**
         * Open connections beyond this are accepted and closed at once; default 10,000, or three quarters of the
         * process's open-file limit when that is lower, so the server never runs out of file descriptors.
         */
        public Builder maxConnections(int max) {
            this.maxConnections = ConfigChecks.maxConnections(max);
            return this;
        }

        /** How many journal entries are kept, oldest overwritten first; default 100,000. */
        public Builder journalCapacity(int capacity) {
            this.journalCapacity = ConfigChecks.journalCapacity(capacity);
            return this;
        }

        /**
         * Lets clients reach the admin API by {@code name} (a host name or address, without a port) on any port,
         * beside the server's own names: for a server reached under another name, such as {@code fake-server} in
         * a container network. Without it, an admin request whose {@code Host} names something else gets
         * {@code 403}: that is how a web page on another site, which got its name to resolve to this machine, is
         * kept out. Adds to the names given before.
         *
         * @throws IllegalArgumentException when {@code name} is not a host name or address, or carries a port
         */
        public Builder allowedHost(String name) {
            this.allowedHosts.add(dev.idempotent.seatgrant.server.internal.http.admin.AdminAccess.hostName(
                    Objects.requireNonNull(name, "name")));
            return this;
        }

        /**
         * Turns the admin API off (default on): {@code grade} hands a server's address to code it does not trust,
         * which must not read the fault plan, the journal or the ledger, nor reset them, and whose every attempt to
         * is journaled (answered {@code 404}) for the grader to see. Whoever started the server still reads it in
         * process.
         */
        public Builder adminApi(boolean adminApi) {
            this.adminApi = adminApi;
            return this;
        }

        public ServerConfig build() {
            return new ServerConfig(this);
        }
    }
}
