package dev.idempotent.seatgrant.server.internal.store;

import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.sql.SQLException;
import java.util.Locale;

/**
 * Why a database could not be reached, in one line an operator can act on ("connection refused to
 * 127.0.0.1:5432"), where the pool would say only {@code PoolInitializationException}. The line is built from
 * the cause's type and the host, port and database parsed out of the URL, never from a message: a driver's message
 * may quote the URL, and the URL may carry a password.
 */
final class UnreachableDatabase {

    private static final int POSTGRESQL_PORT = 5432;

    private UnreachableDatabase() {
    }

    static String why(DbSpec spec, Throwable failure) {
        Target target = target(spec);
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof ConnectException) {
                return "connection refused to " + target.address();
            }
            if (cause instanceof UnknownHostException) {
                return "unknown host " + target.host();
            }
            if (cause instanceof NoRouteToHostException) {
                return "no route to " + target.address();
            }
            if (cause instanceof SocketTimeoutException) {
                return "timed out connecting to " + target.address();
            }
            if (cause instanceof SQLException sql && sql.getSQLState() != null) {
                String known = bySqlState(sql.getSQLState(), target);
                if (known != null) {
                    return known;
                }
            }
        }
        // Nothing we recognise: the innermost cause's class, and its SQLSTATE when it has one.
        Throwable root = failure;
        while (root.getCause() != null) {
            root = root.getCause();
        }
        return root.getClass().getSimpleName() + (root instanceof SQLException sql && sql.getSQLState() != null
                ? " (SQLSTATE " + sql.getSQLState() + ")" : "");
    }

    private static String bySqlState(String state, Target target) {
        return switch (state) {
            // PostgreSQL's codes: invalid_password, invalid_authorization_specification, invalid_catalog_name.
            case "28P01", "28000" -> "the server at " + target.address() + " refused the user or password in the URL";
            case "3D000" -> "the server at " + target.address() + " has no database " + target.database();
            default -> null;
        };
    }

    /** Where the URL points; the parts that are safe to show, with {@code ?} standing in for what it lacks. */
    private record Target(String host, int port, String database) {
        String address() {
            return (host.contains(":") ? "[" + host + "]" : host) + (port > 0 ? ":" + port : "");
        }
    }

    private static Target target(DbSpec spec) {
        String url = spec.jdbcUrl();
        if (spec.kind() != DbSpec.Kind.POSTGRESQL || url == null) {
            return new Target("?", -1, "?");
        }
        try {
            URI uri = new URI(url.substring("jdbc:".length()));
            if (uri.getHost() == null && uri.getAuthority() != null) {
                throw new URISyntaxException(url, "several hosts"); // jdbc:postgresql://a:1,b:2/db
            }
            String host = uri.getHost() == null ? "localhost" : uri.getHost();
            if (host.startsWith("[") && host.endsWith("]")) {
                host = host.substring(1, host.length() - 1); // an IPv6 literal; address() brackets it again
            }
            String path = uri.getPath() == null ? "" : uri.getPath();
            String database = path.length() > 1 ? path.substring(1) : "?";
            return new Target(host.toLowerCase(Locale.ROOT), uri.getPort() > 0 ? uri.getPort() : POSTGRESQL_PORT,
                    database);
        } catch (URISyntaxException | RuntimeException e) {
            // Several hosts, or a URL the JDK cannot parse: name nothing rather than guess.
            return new Target("the server in the URL", -1, "?");
        }
    }
}
