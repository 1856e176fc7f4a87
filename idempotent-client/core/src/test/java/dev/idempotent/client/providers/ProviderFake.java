package dev.idempotent.client.providers;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One configurable fake of a provider's idempotency, on a loopback socket, written to the behaviour each recipe in
 * docs/providers.md cites: where the key is read, how a replay, an in-progress key and a key reused with another body
 * are answered. It keeps a ledger (resources created) so a test can count them, and can be told to commit the next
 * request and then drop its answer (the connection closes with nothing written).
 */
final class ProviderFake implements AutoCloseable {

    /** How a provider answers a key it has completed. */
    enum Replay {
        /** The first answer's status and body again (Stripe, Square, Checkout.com, PayPal, Adyen, the IETF draft). */
        SAME_ANSWER,
        /** 409 {@code idempotent_creation_conflict} naming the resource (GoCardless). */
        CONFLICT_NAMING_THE_RESOURCE
    }

    /**
     * A provider's documented behaviour.
     *
     * @param name             the provider
     * @param keyHeader        the header the key is read from, or empty
     * @param keyField         the top-level body field the key is read from, or empty
     * @param createdStatus    the status of a created resource
     * @param idPointer        where the created resource's id sits in its answer
     * @param replay           how a completed key is answered
     * @param inProgressStatus the answer to a key still in progress
     * @param reusedStatus     the answer to a key reused with another body
     * @param structuredKey    whether the key header is an RFC 8941 String (the IETF draft), read unquoted; one
     *                         sent bare is a 400, as the draft says
     */
    record Behaviour(String name, Optional<String> keyHeader, Optional<String> keyField, int createdStatus,
            String idPointer, Replay replay, int inProgressStatus, int reusedStatus, boolean structuredKey) {
        @Override
        public String toString() {
            return name;
        }
    }

    private record Stored(String body, int status, String answer) {
    }

    private static final ObjectMapper JSON = new ObjectMapper();

    private final Behaviour behaviour;
    private final HttpServer server;
    private final ExecutorService threads = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "provider-fake");
        t.setDaemon(true);
        return t;
    });
    private final Map<String, Stored> keys = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> inProgress = new ConcurrentHashMap<>();
    private final AtomicInteger resources = new AtomicInteger();
    private final AtomicInteger dropAnswers = new AtomicInteger();
    /** Every request as it arrived: the key header's value (or "-") and the body. */
    final List<String[]> requests = new CopyOnWriteArrayList<>();

    ProviderFake(Behaviour behaviour) throws IOException {
        this.behaviour = behaviour;
        this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setExecutor(threads);
        server.createContext("/", this::handle);
        server.start();
    }

    URI uri() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/v1/payments");
    }

    /** Resources created so far. */
    int resources() {
        return resources.get();
    }

    /** The next request commits, then its answer is lost: the connection closes with nothing written. */
    void dropNextAnswer() {
        dropAnswers.incrementAndGet();
    }

    /** The next {@code n} requests with {@code key} find it in progress (another request holds it). */
    void holdInProgress(String key, int n) {
        inProgress.put(key, new AtomicInteger(n));
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            String headerKey = behaviour.keyHeader().map(h -> exchange.getRequestHeaders().getFirst(h)).orElse(null);
            // Without a key header of its own, what a client sends under the common one is recorded (it should be none).
            String recorded = exchange.getRequestHeaders().getFirst(behaviour.keyHeader().orElse("Idempotency-Key"));
            requests.add(new String[] {recorded == null ? "-" : recorded, body});
            String key = headerKey;
            if (key != null && behaviour.structuredKey()) {
                boolean quoted = key.length() >= 2 && key.startsWith("\"") && key.endsWith("\"");
                key = quoted ? key.substring(1, key.length() - 1).replace("\\\"", "\"").replace("\\\\", "\\")
                        : null;
            }
            String compared = body;
            if (behaviour.keyField().isPresent()) {
                JsonNode tree = JSON.readTree(body);
                key = tree.path(behaviour.keyField().get()).asText(null);
                ((ObjectNode) tree).remove(behaviour.keyField().get());
                compared = JSON.writeValueAsString(tree);
            }
            if (key == null) {
                answer(exchange, 400, "{\"error\":\"missing idempotency key\"}");
                return;
            }
            AtomicInteger held = inProgress.get(key);
            if (held != null && held.getAndDecrement() > 0) {
                answer(exchange, behaviour.inProgressStatus(), "{\"error\":\"request in progress\"}");
                return;
            }
            Stored stored = keys.get(key);
            if (stored != null) {
                if (!stored.body().equals(compared)) {
                    answer(exchange, behaviour.reusedStatus(), "{\"error\":\"key reused with another request\"}");
                } else if (behaviour.replay() == Replay.SAME_ANSWER) {
                    answer(exchange, stored.status(), stored.answer());
                } else {
                    String id = JSON.readTree(stored.answer()).at(behaviour.idPointer()).asText();
                    answer(exchange, 409, "{\"error\":{\"code\":409,\"type\":\"invalid_state\",\"message\":\"A resource"
                            + " has already been created with this idempotency key\",\"errors\":[{\"reason\":"
                            + "\"idempotent_creation_conflict\",\"links\":{\"conflicting_resource_id\":\"" + id
                            + "\"}}]}}");
                }
                return;
            }
            // Commit: one resource, the key completed with its answer, in one step.
            String id = "res_" + resources.incrementAndGet();
            String created = created(id);
            keys.put(key, new Stored(compared, behaviour.createdStatus(), created));
            if (dropAnswers.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
                return;   // closed with nothing written: the answer is lost after the commit
            }
            answer(exchange, behaviour.createdStatus(), created);
        }
    }

    /** The created resource's answer, with its id at the provider's pointer. */
    private String created(String id) {
        ObjectNode root = JSON.createObjectNode();
        ObjectNode at = root;
        String[] path = behaviour.idPointer().substring(1).split("/");
        for (int i = 0; i < path.length - 1; i++) {
            at = at.putObject(path[i]);
        }
        at.put(path[path.length - 1], id);
        return root.toString();
    }

    private static void answer(HttpExchange exchange, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, bytes.length);
        exchange.getResponseBody().write(bytes);
    }

    @Override
    public void close() {
        server.stop(0);
        threads.shutdownNow();
    }
}
