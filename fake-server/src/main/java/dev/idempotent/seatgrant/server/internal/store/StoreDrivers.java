package dev.idempotent.seatgrant.server.internal.store;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * The libraries a database store needs, which the fake-server artifact declares optional (the runnable jar bundles
 * them; a service's test classpath has them only if its build adds them): the JDBC driver of its engine and the
 * HikariCP pool. The in-memory store and the proxy need none of them, and nothing on their path loads one. A store
 * asked for without its libraries fails with one line naming the dependencies to add, instead of a
 * {@link NoClassDefFoundError} from deep inside the pool.
 */
final class StoreDrivers {

    private static final String POOL_CLASS = "com.zaxxer.hikari.HikariDataSource";
    private static final String POOL_ARTIFACT = "com.zaxxer:HikariCP";

    private StoreDrivers() {
    }

    /**
     * @throws StoreException when a library {@code kind} needs is not on the classpath, naming each missing one as
     *                        {@code groupId:artifactId}
     */
    static void require(DbSpec.Kind kind) {
        require(kind, StoreDrivers::present);
    }

    /** {@link #require(DbSpec.Kind)} with {@code present} saying which classes there are, for a test. */
    static void require(DbSpec.Kind kind, Predicate<String> present) {
        List<String> missing = new ArrayList<>();
        if (!present.test(driverClass(kind))) {
            missing.add(driverArtifact(kind));
        }
        if (!present.test(POOL_CLASS)) {
            missing.add(POOL_ARTIFACT);
        }
        if (!missing.isEmpty()) {
            throw new StoreException("the " + engine(kind) + " store needs " + String.join(" and ", missing)
                    + " on the classpath, which fake-server declares optional: add "
                    + (missing.size() == 1 ? "it" : "them") + " to your build (the runnable fake-server.jar has "
                    + "them), or use the in-memory store (--db mem)", null);
        }
    }

    private static String engine(DbSpec.Kind kind) {
        return switch (kind) {
            case H2 -> "H2";
            case SQLITE -> "SQLite";
            case POSTGRESQL -> "PostgreSQL";
            case MEMORY -> throw new IllegalArgumentException("the in-memory store needs no driver");
        };
    }

    private static String driverClass(DbSpec.Kind kind) {
        return switch (kind) {
            case H2 -> "org.h2.Driver";
            case SQLITE -> "org.sqlite.JDBC";
            case POSTGRESQL -> "org.postgresql.Driver";
            case MEMORY -> throw new IllegalArgumentException("the in-memory store needs no driver");
        };
    }

    private static String driverArtifact(DbSpec.Kind kind) {
        return switch (kind) {
            case H2 -> "com.h2database:h2";
            case SQLITE -> "org.xerial:sqlite-jdbc";
            case POSTGRESQL -> "org.postgresql:postgresql";
            case MEMORY -> throw new IllegalArgumentException("the in-memory store needs no driver");
        };
    }

    private static boolean present(String className) {
        try {
            Class.forName(className, false, StoreDrivers.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }
}
