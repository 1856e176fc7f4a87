package dev.idempotent.seatgrant.server.lab;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.idempotent.seatgrant.server.FakeSeatServer;
import dev.idempotent.seatgrant.server.FaultPlan;
import dev.idempotent.seatgrant.server.Ledger;
import dev.idempotent.seatgrant.server.ServerConfig;
import dev.idempotent.seatgrant.worker.SeatRequested;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The fake server one variant runs against, and the two things the lab reads back from it: the ledger and the
 * number of POSTs. Either an embedded server of the lab's own, or a running server driven through its admin API.
 */
interface LabTarget extends AutoCloseable {

    /** Where the worker sends its grants. */
    URI baseUri();

    /** Empties the store and journal, then installs {@code plan}. */
    void prepare(FaultPlan plan) throws IOException, InterruptedException;

    /** The ledger as it stands now. */
    Ledger ledger() throws IOException, InterruptedException;

    /** How many POST /v1/seats the server has received since {@link #prepare}. */
    long posts() throws IOException, InterruptedException;

    /**
     * Checks, before anything is changed or printed, that the server answers and lets the lab use its admin API.
     *
     * @throws IOException saying what is wrong and what to do about it
     */
    default void check() throws IOException, InterruptedException {
    }

    /**
     * Whether the server holds a seat for the event's (workspaceId, userId), asked through the public list
     * endpoint a client would use (the shipped scenarios fault only POSTs).
     */
    default boolean hasSeat(SeatRequested event) throws IOException, InterruptedException {
        String query = "workspaceId=" + URLEncoder.encode(event.workspaceId(), StandardCharsets.UTF_8)
                + "&userId=" + URLEncoder.encode(event.userId(), StandardCharsets.UTF_8);
        HttpResponse<String> res = Reads.HTTP.send(HttpRequest.newBuilder(baseUri().resolve("/v1/seats?" + query))
                .timeout(Reads.TIMEOUT).build(), HttpResponse.BodyHandlers.ofString());
        if (res.statusCode() != 200) {
            throw new IOException("seat list answered " + res.statusCode());
        }
        return !Reads.MAPPER.readTree(res.body()).path("seats").isEmpty();
    }

    @Override
    void close();

    /** A fresh in-memory server on a free loopback port, owned and stopped by the lab. */
    static LabTarget embedded() {
        FakeSeatServer server = FakeSeatServer.start(ServerConfig.builder().host("127.0.0.1").port(0).db("mem").build());
        return new LabTarget() {
            @Override
            public URI baseUri() {
                return server.baseUri();
            }

            @Override
            public void prepare(FaultPlan plan) {
                server.reset();
                server.faultPlan(plan);
            }

            @Override
            public Ledger ledger() {
                return server.ledger();
            }

            @Override
            public long posts() {
                return server.journal().stream().filter(LabTarget::isGrant).count();
            }

            @Override
            public void close() {
                server.close();
            }
        };
    }

    /**
     * A server someone else runs (on PostgreSQL, say), driven through {@code /__admin/}. Its store, journal and
     * plan are reset before each variant, so point the lab only at a server whose data may be thrown away.
     *
     * @param adminToken the server's admin bearer token; nullable when the admin API is open on loopback
     */
    static LabTarget remote(URI baseUri, String adminToken) {
        return new RemoteTarget(baseUri, adminToken);
    }

    /** One client for the lab's reads, shared by every target. */
    final class Reads {
        static final ObjectMapper MAPPER = new ObjectMapper();
        static final Duration TIMEOUT = Duration.ofSeconds(10);
        static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();

        private Reads() {
        }
    }

    private static boolean isGrant(dev.idempotent.seatgrant.server.JournalEntry entry) {
        return entry.method().equals("POST") && entry.path().equals("/v1/seats");
    }

    /**
     * The admin API as the lab uses it. Errors name the admin resource, the status and what to do, and of the URL
     * only its host and port (never its path, query or user-info).
     */
    final class RemoteTarget implements LabTarget {

        /** Entries per page of the journal: the server's most. */
        private static final int PAGE = 10_000;
        /** How long a page may keep stopping before an entry still being written (the server settles it in 1 s). */
        private static final Duration PAGE_PATIENCE = Duration.ofSeconds(10);
        private static final Duration PAGE_RETRY = Duration.ofMillis(50);

        private final URI baseUri;
        private final String adminToken;

        RemoteTarget(URI baseUri, String adminToken) {
            this.baseUri = baseUri;
            this.adminToken = adminToken;
        }

        @Override
        public URI baseUri() {
            return baseUri;
        }

        @Override
        public void prepare(FaultPlan plan) throws IOException, InterruptedException {
            send("reset", HttpRequest.BodyPublishers.noBody(), "POST");
            send("faults", HttpRequest.BodyPublishers.ofString(plan.toJson()), "POST");
        }

        @Override
        public Ledger ledger() throws IOException, InterruptedException {
            JsonNode root = Reads.MAPPER.readTree(send("ledger", HttpRequest.BodyPublishers.noBody(), "GET"));
            List<Ledger.Duplicate> duplicates = new ArrayList<>();
            for (JsonNode d : root.path("duplicates")) {
                duplicates.add(new Ledger.Duplicate(d.path("workspaceId").asText(), d.path("userId").asText(),
                        strings(d.path("seatIds")), strings(d.path("idempotencyKeys"))));
            }
            return new Ledger(root.path("seats").asLong(), root.path("keys").asLong(), duplicates);
        }

        /**
         * Follows the journal page by page ({@code ?after=SEQ&limit=N}, then each page's {@code next}), so that
         * neither side ever holds the whole journal. A page that stops before an answer still being written comes
         * back empty with a {@code next}; the server settles such an entry within a second, so it is asked again
         * shortly, within a bound.
         */
        @Override
        public long posts() throws IOException, InterruptedException {
            long posts = 0;
            long after = 0;
            long deadline = System.nanoTime() + PAGE_PATIENCE.toNanos();
            while (true) {
                JsonNode page = Reads.MAPPER.readTree(send("requests?after=" + after + "&limit=" + PAGE,
                        HttpRequest.BodyPublishers.noBody(), "GET"));
                for (JsonNode r : page.path("requests")) {
                    if (r.path("method").asText().equals("POST") && r.path("path").asText().equals("/v1/seats")) {
                        posts++;
                    }
                }
                JsonNode next = page.path("next");
                if (!next.isNumber()) {
                    return posts;
                }
                if (page.path("requests").isEmpty()) {
                    if (System.nanoTime() - deadline > 0) {
                        throw new IOException("admin requests kept an entry unsettled for "
                                + PAGE_PATIENCE.toSeconds() + " s");
                    }
                    Thread.sleep(PAGE_RETRY.toMillis());
                }
                after = next.asLong();
            }
        }

        @Override
        public void check() throws IOException, InterruptedException {
            // A read that changes nothing, through the same door the lab then uses: connection, token and all.
            String plan = send("faults", HttpRequest.BodyPublishers.noBody(), "GET");
            try {
                if (!Reads.MAPPER.readTree(plan).path("rules").isArray()) {
                    throw new IOException(notAFakeServer());
                }
            } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
                throw new IOException(notAFakeServer());
            }
        }

        @Override
        public void close() {
            // Nothing to stop: the server belongs to whoever started it.
        }

        private String send(String resource, HttpRequest.BodyPublisher body, String method)
                throws IOException, InterruptedException {
            HttpRequest.Builder request = HttpRequest.newBuilder(baseUri.resolve("/__admin/" + resource))
                    .timeout(Reads.TIMEOUT)
                    .header("Content-Type", "application/json")
                    .method(method, body);
            if (adminToken != null) {
                request.header("Authorization", "Bearer " + adminToken);
            }
            HttpResponse<String> response;
            try {
                response = Reads.HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
            } catch (java.net.ConnectException e) {
                throw new IOException("nothing answers at " + address() + " (connection refused): start the server "
                        + "first (fake-server serve), or point --server at the one that runs", e);
            } catch (java.net.http.HttpTimeoutException e) {
                throw new IOException("the server at " + address() + " did not answer the admin " + resource
                        + " request within " + Reads.TIMEOUT.toSeconds() + " s", e);
            }
            int status = response.statusCode();
            if (status == 401) {
                throw new IOException("the server's admin API answered 401: " + (adminToken == null
                        ? "it was started with an admin token; set FAKE_SERVER_ADMIN_TOKEN to that token"
                        : "FAKE_SERVER_ADMIN_TOKEN is not the token the server was started with"));
            }
            if (status == 403 && response.body().contains("problem:admin-host-not-allowed")) {
                throw new IOException("the server's admin API answered 403: it answers only under its own names; "
                        + "start it with --allowed-host and the host name given to --server");
            }
            if (status == 403) {
                throw new IOException("the server's admin API answered 403: it answers only loopback clients "
                        + "unless it was started with an admin token (--admin-token, or FAKE_SERVER_ADMIN_TOKEN); "
                        + "start it with one and set FAKE_SERVER_ADMIN_TOKEN here too");
            }
            if (status == 404) {
                throw new IOException(notAFakeServer());
            }
            if (status / 100 != 2) {
                String name = resource.contains("?") ? resource.substring(0, resource.indexOf('?')) : resource;
                throw new IOException("admin " + name + " answered " + status);
            }
            return response.body();
        }

        private String notAFakeServer() {
            return "the server at " + address() + " has no fake-server admin API (is --server a fake-server?)";
        }

        /** Host and port only: a URL's path or user-info may carry a secret. */
        private String address() {
            int port = baseUri.getPort() != -1 ? baseUri.getPort() : 80;
            return baseUri.getHost() + ":" + port;
        }

        private static List<String> strings(JsonNode array) {
            List<String> out = new ArrayList<>();
            array.forEach(n -> out.add(n.asText()));
            return out;
        }
    }
}
