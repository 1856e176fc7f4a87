package dev.idempotent.seatgrant.server.orders;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A small, real orders API, "your own service" for the proxy's tests and its walkthrough
 * (docs/bring-your-own-api.md): the JDK's HTTP server over an H2 table, nothing faked. Test material, not a
 * pattern to copy beyond the one thing it shows: where an {@code Idempotency-Key} is honoured, the key is stored
 * with the order under a unique constraint, in the same transaction, so a retry gets the order that exists.
 *
 * <ul>
 *   <li>{@code POST /orders} with {@code {"item": "...", "quantity": n}}: the order is inserted, then {@code 201}
 *       with {@code {"id", "item", "quantity"}} and {@code Location: /orders/{id}}. Honouring keys, a key seen
 *       before with the same payload gets that order back ({@code 200}, {@code Idempotent-Replayed: true}), with a
 *       different payload a {@code 422}; ignoring keys, every POST inserts.</li>
 *   <li>{@code GET /orders}: {@code {"orders": [...]}}, oldest first; {@code GET /orders/{id}}: one order.</li>
 * </ul>
 *
 * <p>Run it: {@code java -cp fake-server/target/fake-server.jar:fake-server/target/test-classes
 * dev.idempotent.seatgrant.server.orders.OrdersService --port 9000 [--ignore-key]}.
 */
public final class OrdersService implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final AtomicInteger DATABASES = new AtomicInteger();

    /** One row of the table. */
    public record Order(long id, String item, int quantity, String idempotencyKey) {
        public String location() {
            return "/orders/" + id;
        }
    }

    private final HttpServer server;
    private final ExecutorService threads;
    private final Connection keepAlive;
    private final String jdbcUrl;
    private final boolean honourKeys;

    private OrdersService(HttpServer server, ExecutorService threads, Connection keepAlive, String jdbcUrl,
                          boolean honourKeys) {
        this.server = server;
        this.threads = threads;
        this.keepAlive = keepAlive;
        this.jdbcUrl = jdbcUrl;
        this.honourKeys = honourKeys;
    }

    /**
     * Starts on loopback with a fresh in-memory table.
     *
     * @param port       0 for a free one
     * @param honourKeys whether an {@code Idempotency-Key} dedupes
     */
    public static OrdersService start(int port, boolean honourKeys) throws IOException, SQLException {
        String url = "jdbc:h2:mem:orders-" + DATABASES.incrementAndGet() + ";DB_CLOSE_DELAY=-1";
        Connection keepAlive = DriverManager.getConnection(url);
        try (Statement s = keepAlive.createStatement()) {
            s.execute("CREATE TABLE orders (id BIGINT AUTO_INCREMENT PRIMARY KEY, item VARCHAR(255) NOT NULL,"
                    + " quantity INT NOT NULL, idempotency_key VARCHAR(255) UNIQUE)");
        }
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 64);
        ExecutorService threads = Executors.newFixedThreadPool(4);
        OrdersService service = new OrdersService(server, threads, keepAlive, url, honourKeys);
        server.createContext("/orders", service::handle);
        server.setExecutor(threads);
        server.start();
        return service;
    }

    public URI baseUri() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    /** Every order in the table, oldest first. */
    public List<Order> orders() throws SQLException {
        try (Connection c = DriverManager.getConnection(jdbcUrl);
             PreparedStatement select = c.prepareStatement(
                     "SELECT id, item, quantity, idempotency_key FROM orders ORDER BY id");
             ResultSet rows = select.executeQuery()) {
            List<Order> orders = new ArrayList<>();
            while (rows.next()) {
                orders.add(new Order(rows.getLong(1), rows.getString(2), rows.getInt(3), rows.getString(4)));
            }
            return orders;
        }
    }

    private void handle(HttpExchange exchange) throws IOException {
        try {
            String path = exchange.getRequestURI().getPath();
            String method = exchange.getRequestMethod();
            if (path.equals("/orders") && method.equals("POST")) {
                post(exchange);
            } else if (path.equals("/orders") && method.equals("GET")) {
                ObjectNode body = JSON.createObjectNode();
                ArrayNode list = body.putArray("orders");
                for (Order order : orders()) {
                    list.add(json(order));
                }
                send(exchange, 200, body);
            } else if (path.matches("/orders/[0-9]{1,18}") && method.equals("GET")) {
                long id = Long.parseLong(path.substring("/orders/".length()));
                Order found = orders().stream().filter(o -> o.id() == id).findFirst().orElse(null);
                if (found == null) {
                    send(exchange, 404, error("no such order"));
                } else {
                    send(exchange, 200, json(found));
                }
            } else {
                send(exchange, 404, error("no such resource"));
            }
        } catch (SQLException e) {
            send(exchange, 503, error("the database failed"));
        } finally {
            exchange.close();
        }
    }

    private void post(HttpExchange exchange) throws IOException, SQLException {
        JsonNode body;
        try {
            body = JSON.readTree(exchange.getRequestBody().readAllBytes());
        } catch (IOException e) {
            send(exchange, 400, error("the body is not JSON"));
            return;
        }
        if (body == null || !body.path("item").isTextual() || !body.path("quantity").isInt()) {
            send(exchange, 400, error("an order is {\"item\": string, \"quantity\": integer}"));
            return;
        }
        String item = body.get("item").textValue();
        int quantity = body.get("quantity").intValue();
        String key = honourKeys ? exchange.getRequestHeaders().getFirst("Idempotency-Key") : null;
        try (Connection c = DriverManager.getConnection(jdbcUrl)) {
            c.setAutoCommit(false);
            if (key != null) {
                Order existing = byKey(c, key);
                if (existing != null) {
                    c.rollback();
                    replay(exchange, existing, item, quantity);
                    return;
                }
            }
            Order created;
            try {
                created = insert(c, item, quantity, key);
                c.commit();
            } catch (SQLException e) {
                // Two requests with one key at once: the unique constraint let one in, and this one replays it.
                c.rollback();
                Order winner = key == null ? null : byKey(c, key);
                if (winner == null) {
                    throw e;
                }
                replay(exchange, winner, item, quantity);
                return;
            }
            exchange.getResponseHeaders().set("Location", created.location());
            send(exchange, 201, json(created));
        }
    }

    private static void replay(HttpExchange exchange, Order existing, String item, int quantity) throws IOException {
        if (!existing.item().equals(item) || existing.quantity() != quantity) {
            send(exchange, 422, error("this Idempotency-Key was used for another order"));
            return;
        }
        exchange.getResponseHeaders().set("Location", existing.location());
        exchange.getResponseHeaders().set("Idempotent-Replayed", "true");
        send(exchange, 200, json(existing));
    }

    private static Order byKey(Connection c, String key) throws SQLException {
        try (PreparedStatement select = c.prepareStatement(
                "SELECT id, item, quantity, idempotency_key FROM orders WHERE idempotency_key = ?")) {
            select.setString(1, key);
            try (ResultSet rows = select.executeQuery()) {
                return rows.next() ? new Order(rows.getLong(1), rows.getString(2), rows.getInt(3), rows.getString(4))
                        : null;
            }
        }
    }

    private static Order insert(Connection c, String item, int quantity, String key) throws SQLException {
        try (PreparedStatement insert = c.prepareStatement(
                "INSERT INTO orders (item, quantity, idempotency_key) VALUES (?, ?, ?)",
                Statement.RETURN_GENERATED_KEYS)) {
            insert.setString(1, item);
            insert.setInt(2, quantity);
            insert.setString(3, key);
            insert.executeUpdate();
            try (ResultSet ids = insert.getGeneratedKeys()) {
                ids.next();
                return new Order(ids.getLong(1), item, quantity, key);
            }
        }
    }

    private static ObjectNode json(Order row) {
        ObjectNode node = JSON.createObjectNode();
        node.put("id", row.id());
        node.put("item", row.item());
        node.put("quantity", row.quantity());
        return node;
    }

    private static ObjectNode error(String detail) {
        return JSON.createObjectNode().put("error", detail);
    }

    private static void send(HttpExchange exchange, int status, JsonNode body) throws IOException {
        byte[] bytes = body.toString().getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    @Override
    public void close() throws SQLException {
        server.stop(0);
        threads.shutdownNow();
        keepAlive.close();
    }

    /** {@code OrdersService [--port N] [--ignore-key]}: runs until killed, after one line with its URL. */
    public static void main(String[] args) throws Exception {
        int port = 9000;
        boolean honour = true;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--port" -> port = Integer.parseInt(args[++i]);
                case "--ignore-key" -> honour = false;
                case "--honour-key" -> honour = true;
                default -> throw new IllegalArgumentException("usage: OrdersService [--port N] [--ignore-key]");
            }
        }
        OrdersService service = start(port, honour);
        System.out.println("orders service listening on " + service.baseUri() + " ("
                + (honour ? "honours Idempotency-Key" : "ignores Idempotency-Key") + ")");
        new CountDownLatch(1).await();
    }
}
