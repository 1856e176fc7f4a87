package dev.idempotent.seatgrant.server.internal.store;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.sql.SQLException;
import org.junit.jupiter.api.Test;

/**
 * The one line an unreachable database gets: the cause's kind and the address parsed out of the URL, never a
 * message (which may quote the URL) and never the URL's password. The causes are built here as the pool and the
 * driver nest them; {@code DbFlagTest} reaches a real closed port and a real missing database.
 */
class UnreachableDatabaseTest {

    private static final DbSpec PG = DbSpec.parse("jdbc:postgresql://DB.example:6543/seats?user=u&password=S3CRET");

    /** As Hikari reports it: its own exception around the driver's, around the socket's. */
    private static RuntimeException pool(Throwable socket) {
        return new RuntimeException("Failed to initialize pool: S3CRET", new SQLException("S3CRET", "08001", socket));
    }

    @Test
    void socketFailuresNameTheAddress() {
        assertEquals("connection refused to db.example:6543", UnreachableDatabase.why(PG, pool(new ConnectException())));
        assertEquals("unknown host db.example", UnreachableDatabase.why(PG, pool(new UnknownHostException("x"))));
        assertEquals("no route to db.example:6543", UnreachableDatabase.why(PG, pool(new NoRouteToHostException())));
        assertEquals("timed out connecting to db.example:6543",
                UnreachableDatabase.why(PG, pool(new SocketTimeoutException())));
    }

    @Test
    void theServersAnswersAreNamed() {
        assertEquals("the server at db.example:6543 refused the user or password in the URL",
                UnreachableDatabase.why(PG, new RuntimeException(new SQLException("S3CRET", "28P01"))));
        assertEquals("the server at db.example:6543 has no database seats",
                UnreachableDatabase.why(PG, new RuntimeException(new SQLException("S3CRET", "3D000"))));
    }

    @Test
    void theDefaultPortAndAnythingElse() {
        DbSpec noPort = DbSpec.parse("jdbc:postgresql://[::1]/seats");
        assertEquals("connection refused to [::1]:5432", UnreachableDatabase.why(noPort, pool(new ConnectException())));
        assertEquals("SQLException (SQLSTATE 53300)",
                UnreachableDatabase.why(PG, new RuntimeException(new SQLException("S3CRET", "53300"))));
        assertEquals("IllegalStateException", UnreachableDatabase.why(PG, new IllegalStateException("S3CRET")));
        assertEquals("connection refused to the server in the URL", UnreachableDatabase.why(
                DbSpec.parse("jdbc:postgresql://a:1,b:2/seats"), pool(new ConnectException())));
    }
}
