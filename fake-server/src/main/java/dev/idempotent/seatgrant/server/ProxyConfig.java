package dev.idempotent.seatgrant.server;

import dev.idempotent.seatgrant.server.internal.http.admin.AdminAccess;
import dev.idempotent.seatgrant.server.internal.http.proxy.CreatedRule;
import dev.idempotent.seatgrant.server.internal.http.proxy.OperationRule;
import dev.idempotent.seatgrant.server.internal.http.proxy.SuspectRule;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * How a {@link FakeProxy} runs: the one upstream it stands in front of, where it listens, which faults it injects,
 * what makes requests attempts of one operation and where an answer names what it created. Immutable; build one
 * with {@link #builder(URI)}. The defaults suit tests: loopback, a free port, no faults.
 *
 * <p>{@link #toString()} never shows the upstream's userinfo or the admin token.
 */
public final class ProxyConfig {

    /** The largest {@link Builder#maxBody(int)}: every in-flight request and answer may hold this much. */
    public static final int MAX_BODY_LIMIT = 64 * 1024 * 1024;
    /** The most {@link Builder#maxUpstreamConnections(int)} allows. */
    public static final int MAX_UPSTREAM_CONNECTIONS_LIMIT = 10_000;

    private final URI upstream;
    private final String host;
    private final int port;
    private final FaultPlan faultPlan;
    private final String routeMethod;
    private final String routePath;
    private final String operation;
    private final String created;
    private final Duration upstreamTimeout;
    private final int maxBody;
    private final String adminToken;
    private final Duration headerTimeout;
    private final Duration bodyTimeout;
    private final Duration idleTimeout;
    private final int maxConnections;
    private final int journalCapacity;
    private final Clock clock;
    private final Duration defaultHang;
    private final List<String> allowedHosts;
    private final int maxUpstreamConnections;
    private final long maxInFlightBytes;
    private final List<String> volatileFields;
    private final Duration suspectWindow;

    private ProxyConfig(Builder b) {
        this.upstream = b.upstream;
        this.host = b.host;
        this.port = b.port;
        this.faultPlan = b.faultPlan;
        this.routeMethod = b.routeMethod;
        this.routePath = b.routePath;
        this.operation = b.operation;
        this.created = b.created;
        this.upstreamTimeout = b.upstreamTimeout;
        this.maxBody = b.maxBody;
        this.adminToken = b.adminToken;
        this.headerTimeout = b.headerTimeout;
        this.bodyTimeout = b.bodyTimeout;
        this.idleTimeout = b.idleTimeout;
        this.maxConnections = b.maxConnections;
        this.journalCapacity = b.journalCapacity;
        this.clock = b.clock;
        this.defaultHang = b.defaultHang;
        this.allowedHosts = List.copyOf(b.allowedHosts);
        this.maxUpstreamConnections = b.maxUpstreamConnections;
        this.maxInFlightBytes = b.maxInFlightBytes;
        this.volatileFields = List.copyOf(b.volatileFields);
        this.suspectWindow = b.suspectWindow;
    }

    /**
     * A builder for a proxy in front of {@code upstream}: an {@code http://} URL with a host, and optionally a port
     * (80), a path (prefixed to every forwarded path) and userinfo (sent as Basic authorization on requests that
     * carry none). It is fixed for the proxy's life and resolved once, at start.
     *
     * @throws IllegalArgumentException when {@code upstream} is not such a URL (a query or fragment included: a
     *                                  request's own query is what goes upstream); the message never quotes it
     */
    public static Builder builder(URI upstream) {
        Objects.requireNonNull(upstream, "upstream");
        if (upstream.getScheme() == null || !upstream.getScheme().toLowerCase(Locale.ROOT).equals("http")) {
            throw new IllegalArgumentException("the upstream must be an http:// URL");
        }
        if (upstream.getHost() == null || upstream.getHost().isEmpty()) {
            throw new IllegalArgumentException("the upstream URL needs a host (and, if not 80, a port)");
        }
        if (upstream.getRawQuery() != null || upstream.getRawFragment() != null) {
            throw new IllegalArgumentException(
                    "the upstream URL takes no query or fragment: each request's own goes upstream");
        }
        return new Builder(upstream);
    }

    /** A builder holding this configuration's values, to change a few. */
    public Builder toBuilder() {
        Builder b = new Builder(upstream);
        b.host = host;
        b.port = port;
        b.faultPlan = faultPlan;
        b.routeMethod = routeMethod;
        b.routePath = routePath;
        b.operation = operation;
        b.created = created;
        b.upstreamTimeout = upstreamTimeout;
        b.maxBody = maxBody;
        b.adminToken = adminToken;
        b.headerTimeout = headerTimeout;
        b.bodyTimeout = bodyTimeout;
        b.idleTimeout = idleTimeout;
        b.maxConnections = maxConnections;
        b.journalCapacity = journalCapacity;
        b.clock = clock;
        b.defaultHang = defaultHang;
        b.allowedHosts = new ArrayList<>(allowedHosts);
        b.maxUpstreamConnections = maxUpstreamConnections;
        b.maxInFlightBytes = maxInFlightBytes;
        b.volatileFields = new ArrayList<>(volatileFields);
        b.suspectWindow = suspectWindow;
        return b;
    }

    /** The upstream as given, userinfo included: never log it. */
    public URI upstream() {
        return upstream;
    }

    public String host() {
        return host;
    }

    public int port() {
        return port;
    }

    public FaultPlan faultPlan() {
        return faultPlan;
    }

    /** The method of the route shipped scenarios are aimed at ({@link Builder#route}); nullable: none set. */
    public String routeMethod() {
        return routeMethod;
    }

    /** The path of the route shipped scenarios are aimed at; nullable: none set. */
    public String routePath() {
        return routePath;
    }

    /** {@code header:NAME}, {@code json:POINTER} or {@code fingerprint}. */
    public String operation() {
        return operation;
    }

    /** {@code header:NAME} or {@code json:/pointer}. */
    public String created() {
        return created;
    }

    public Duration upstreamTimeout() {
        return upstreamTimeout;
    }

    /** The largest request body read and the largest answer body forwarded, in bytes. */
    public int maxBody() {
        return maxBody;
    }

    /** Nullable: without a token the admin API answers loopback clients only. */
    public String adminToken() {
        return adminToken;
    }

    public Duration headerTimeout() {
        return headerTimeout;
    }

    public Duration bodyTimeout() {
        return bodyTimeout;
    }

    public Duration idleTimeout() {
        return idleTimeout;
    }

    public int maxConnections() {
        return maxConnections;
    }

    public int journalCapacity() {
        return journalCapacity;
    }

    public Clock clock() {
        return clock;
    }

    public Duration defaultHang() {
        return defaultHang;
    }

    /**
     * The names, besides the proxy's own ({@code localhost}, {@code 127.0.0.1}, {@code [::1]} and {@link #host()},
     * each with the port), that a client may reach the admin API by, on any port; empty by default. As
     * {@link ServerConfig#allowedHosts()}.
     */
    public List<String> allowedHosts() {
        return allowedHosts;
    }

    /** Upstream connections open at most; requests beyond them wait for one to be free. */
    public int maxUpstreamConnections() {
        return maxUpstreamConnections;
    }

    /** Request and answer body bytes held at once, across all connections; past it a request gets {@code 503}. */
    public long maxInFlightBytes() {
        return maxInFlightBytes;
    }

    /** The JSON pointers of the body fields that change on every attempt ({@link Builder#volatileField}); may be empty. */
    public List<String> volatileFields() {
        return volatileFields;
    }

    /** How close in time two operations must come to be suspected duplicates ({@link Builder#suspectWindow}). */
    public Duration suspectWindow() {
        return suspectWindow;
    }

    /** The shipped scenario {@code name}, aimed at this proxy's route when it has one. */
    FaultPlan scenario(String name) {
        FaultPlan plan = FaultPlan.scenario(name);
        return routeMethod == null ? plan : plan.onRoute(routeMethod, routePath);
    }

    @Override
    public String toString() {
        return "ProxyConfig[upstream=" + upstream.getHost() + ":" + (upstream.getPort() < 0 ? 80 : upstream.getPort())
                + ", host=" + host + ", port=" + port + ", rules=" + faultPlan.rules().size()
                + ", operation=" + operation + ", created=" + created
                + ", adminToken=" + (adminToken == null ? "none" : "set") + "]";
    }

    /** Collects settings; {@link #build()} copies them, so a built config never changes afterwards. Not thread-safe. */
    public static final class Builder {
        private final URI upstream;
        private String host = "127.0.0.1";
        private int port = 0;
        private FaultPlan faultPlan = FaultPlan.none();
        private String routeMethod;
        private String routePath;
        private String operation = OperationRule.DEFAULT;
        private String created = CreatedRule.DEFAULT;
        private Duration upstreamTimeout = Duration.ofSeconds(30);
        private int maxBody = 1024 * 1024;
        private String adminToken;
        private Duration headerTimeout = Duration.ofSeconds(10);
        private Duration bodyTimeout = Duration.ofSeconds(30);
        private Duration idleTimeout = Duration.ofSeconds(60);
        private int maxConnections = ConfigChecks.defaultMaxConnections();
        private int journalCapacity = 100_000;
        private Clock clock = Clock.systemUTC();
        private Duration defaultHang = Duration.ofSeconds(60);
        private List<String> allowedHosts = new ArrayList<>();
        private int maxUpstreamConnections = 256;
        private long maxInFlightBytes = 64L * 1024 * 1024;
        private List<String> volatileFields = new ArrayList<>();
        private Duration suspectWindow = SuspectRule.DEFAULT_WINDOW;

        private Builder(URI upstream) {
            this.upstream = upstream;
        }

        /** The address to bind; default {@code 127.0.0.1} (loopback only). */
        public Builder host(String host) {
            this.host = Objects.requireNonNull(host, "host");
            return this;
        }

        /** The port; default 0, a free port chosen at start ({@link FakeProxy#port()} tells which). */
        public Builder port(int port) {
            this.port = ConfigChecks.port(port);
            return this;
        }

        /**
         * The fault plan in force at start; default none. Its rules match the proxy's request paths; a shipped
         * scenario is written for {@code POST /v1/seats}, so aim it first:
         * {@code FaultPlan.scenario("incident").onRoute("POST", "/orders")}.
         */
        public Builder faultPlan(FaultPlan faultPlan) {
            this.faultPlan = Objects.requireNonNull(faultPlan, "faultPlan");
            return this;
        }

        /**
         * The route a shipped scenario is aimed at when the admin API (or the page) applies one:
         * {@code {"scenario": "incident"}} then faults {@code method path} instead of {@code POST /v1/seats}.
         * Default none: scenarios stay on {@code POST /v1/seats}.
         *
         * @param path a path, or a prefix ending in {@code *}
         * @throws IllegalArgumentException when {@code method} is not a method name or {@code path} does not start
         *                                  with {@code /}
         */
        public Builder route(String method, String path) {
            try {
                FaultRule checked = FaultRule.of(Fault.RESET).withMethodAndPath(method, path);
                this.routeMethod = checked.method();
                this.routePath = checked.path();
            } catch (InvalidFaultPlanException e) {
                throw new IllegalArgumentException("route: " + e.getMessage());
            }
            return this;
        }

        /**
         * What makes requests attempts of one operation: {@code header:NAME} (default
         * {@code header:Idempotency-Key}) takes that header's value, and a request without it is identified by a
         * fingerprint (SHA-256 of its method, target and body); {@code json:POINTER} takes that field of a JSON body
         * (a string or a number, as {@link #created} reads one), named {@code json:POINTER=VALUE}, ignores the key
         * header, and fingerprints a body without the field; {@code fingerprint} ignores keys.
         *
         * @throws IllegalArgumentException for another form, and for {@code header:Authorization},
         *                                  {@code header:Proxy-Authorization} and {@code header:Cookie}, which would
         *                                  put credentials in the journal
         */
        public Builder operation(String spec) {
            this.operation = OperationRule.parse(Objects.requireNonNull(spec, "operation")).spec();
            return this;
        }

        /**
         * Where a 2xx answer to POST, PUT or PATCH names the resource it created: {@code header:NAME} (default
         * {@code header:Location}) or {@code json:/pointer} into the body ({@code json:/id}). When the answer
         * names none, each 201 counts as one new resource.
         *
         * @throws IllegalArgumentException for another form
         */
        public Builder created(String spec) {
            this.created = CreatedRule.parse(Objects.requireNonNull(spec, "created")).spec();
            return this;
        }

        /**
         * How long the upstream may take, from asking for a connection to the last byte of its answer; then the
         * client gets {@code 504} and the journal {@code upstreamError: timeout}, or, when no connection was free or
         * made by then, {@code 503} and {@code busy} (nothing was sent). Default 30 s. Connecting alone is bounded at
         * 5 s ({@code 502}, {@code refused}).
         */
        public Builder upstreamTimeout(Duration timeout) {
            this.upstreamTimeout = ConfigChecks.positive(timeout, "upstream timeout");
            return this;
        }

        /**
         * The largest body, both ways, in bytes; default 1 MiB. A larger request gets {@code 413}; a larger answer
         * {@code 502} ({@code upstreamError: too-large}).
         *
         * @throws IllegalArgumentException outside 1 to {@link #MAX_BODY_LIMIT}
         */
        public Builder maxBody(int bytes) {
            if (bytes < 1 || bytes > MAX_BODY_LIMIT) {
                throw new IllegalArgumentException("max body must be 1 byte to 64 MiB");
            }
            this.maxBody = bytes;
            return this;
        }

        /** A bearer token for the admin API, which then answers any address that presents it; nullable. */
        public Builder adminToken(String adminToken) {
            this.adminToken = ConfigChecks.adminToken(adminToken);
            return this;
        }

        /** As {@link ServerConfig.Builder#headerTimeout}; default 10 s. */
        public Builder headerTimeout(Duration timeout) {
            this.headerTimeout = ConfigChecks.positive(timeout, "header timeout");
            return this;
        }

        /** As {@link ServerConfig.Builder#bodyTimeout}; default 30 s. */
        public Builder bodyTimeout(Duration timeout) {
            this.bodyTimeout = ConfigChecks.positive(timeout, "body timeout");
            return this;
        }

        /** As {@link ServerConfig.Builder#idleTimeout}; default 60 s. */
        public Builder idleTimeout(Duration timeout) {
            this.idleTimeout = ConfigChecks.positive(timeout, "idle timeout");
            return this;
        }

        /** As {@link ServerConfig.Builder#maxConnections}; default 10,000 or 3/4 of the open-file limit. */
        public Builder maxConnections(int max) {
            this.maxConnections = ConfigChecks.maxConnections(max);
            return this;
        }

        /** How many journal entries are kept, oldest overwritten first; default 100,000. */
        public Builder journalCapacity(int capacity) {
            this.journalCapacity = ConfigChecks.journalCapacity(capacity);
            return this;
        }

        /** The clock the journal's times are read from; default the UTC system clock. */
        public Builder clock(Clock clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        /** How long {@code hang-after-commit} holds a connection when its rule gives no delayMs; default 60 s. */
        public Builder defaultHang(Duration defaultHang) {
            this.defaultHang = ConfigChecks.defaultHang(defaultHang);
            return this;
        }

        /**
         * Lets clients reach the admin API by {@code name} on any port, beside the proxy's own names; as
         * {@link ServerConfig.Builder#allowedHost}. The forwarded API has no such check.
         *
         * @throws IllegalArgumentException when {@code name} is not a host name or address, or carries a port
         */
        public Builder allowedHost(String name) {
            this.allowedHosts.add(AdminAccess.hostName(Objects.requireNonNull(name, "name")));
            return this;
        }

        /**
         * How many connections to the upstream are open at most, shared out over the proxy's event loops; default
         * 256. A request that finds them all busy waits for one, within {@link #upstreamTimeout}; a wait that runs
         * out is {@code 503 upstream-busy} (nothing was sent).
         *
         * @throws IllegalArgumentException outside 1 to {@link #MAX_UPSTREAM_CONNECTIONS_LIMIT}
         */
        public Builder maxUpstreamConnections(int max) {
            if (max < 1 || max > MAX_UPSTREAM_CONNECTIONS_LIMIT) {
                throw new IllegalArgumentException("max upstream connections must be 1 to "
                        + MAX_UPSTREAM_CONNECTIONS_LIMIT);
            }
            this.maxUpstreamConnections = max;
            return this;
        }

        /**
         * A JSON pointer to a body field that changes on every attempt of one intent (a timestamp, a nonce), which
         * the check for suspected duplicates ignores: two operations with the same method and path whose bodies
         * differ only in such fields, each of which created a resource within {@link #suspectWindow}, are reported
         * in {@link ProxyLedger#suspected()}. Repeatable; none by default, and then only byte-identical bodies
         * under different operations are suspected.
         *
         * @throws IllegalArgumentException when {@code pointer} is not a JSON pointer such as {@code /sentAt}
         */
        public Builder volatileField(String pointer) {
            SuspectRule.of(List.of(Objects.requireNonNull(pointer, "pointer")), SuspectRule.DEFAULT_WINDOW);
            this.volatileFields.add(pointer);
            return this;
        }

        /**
         * How many request and answer body bytes the proxy holds at once, across all its connections; default
         * 64 MiB. A request that would take it past this gets {@code 503 in-flight-limit} with
         * {@code Retry-After: 1}, and so does a forwarded request whose answer would (the upstream may have acted).
         * {@link #build()} refuses a limit under {@link #maxBody(int)}: a body that may be read must fit.
         *
         * @throws IllegalArgumentException under 1 byte
         */
        public Builder maxInFlightBytes(long bytes) {
            if (bytes < 1) {
                throw new IllegalArgumentException("max in-flight bytes must be 1 or more");
            }
            this.maxInFlightBytes = bytes;
            return this;
        }

        /**
         * How close in time (by their first bytes) two operations of one shape must come to be suspected
         * duplicates; default 10 s. A group of suspects grows while each comes within the window of the last.
         */
        public Builder suspectWindow(Duration window) {
            this.suspectWindow = ConfigChecks.positive(window, "suspect window");
            return this;
        }

        /** @throws IllegalArgumentException when {@link #maxInFlightBytes(long)} is under {@link #maxBody(int)} */
        public ProxyConfig build() {
            if (maxInFlightBytes < maxBody) {
                throw new IllegalArgumentException(
                        "the in-flight limit (--max-in-flight) must be at least the body limit (--max-body)");
            }
            return new ProxyConfig(this);
        }
    }
}
