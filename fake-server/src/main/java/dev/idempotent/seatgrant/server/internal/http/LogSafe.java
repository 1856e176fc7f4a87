package dev.idempotent.seatgrant.server.internal.http;

import java.util.regex.Pattern;

/**
 * What a log line may say about a request and a failure: never a query string, a header value, a body or an
 * exception's message, any of which may quote what a client sent.
 */
public final class LogSafe {

    /** The logger of per-request lines and request failures, shared by the connection layer and every route. */
    public static final String REQUEST_LOG = "dev.idempotent.seatgrant.server.requests";

    /**
     * The logger of one INFO line per fault the plan strikes: what a test's own log shows of the faults behind its
     * client's failures (per-request lines stay at DEBUG on {@link #REQUEST_LOG}).
     */
    public static final String FAULT_LOG = "dev.idempotent.seatgrant.server.faults";

    private LogSafe() {
    }

    /**
     * A path as a log line may show it: longer than a screen line, it is cut, and control characters (a decoded
     * {@code %0A} would start a forged log line) become {@code ?}. The caller decides whether the path may be
     * logged at all (a base path may hold a secret-looking token).
     */
    public static String path(String path) {
        String cut = path.length() > 80 ? path.substring(0, 80) + "..." : path;
        return CONTROL.matcher(cut).replaceAll("?");
    }

    private static final Pattern CONTROL = Pattern.compile("\\p{Cntrl}");

    /** The simple class name of a failure's root cause. */
    public static String rootCause(Throwable t) {
        Throwable root = t;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root.getClass().getSimpleName();
    }

    /** A failure as a log line may show it: the classes in its cause chain and where it was thrown, no message. */
    public static String describe(Throwable t) {
        StringBuilder out = new StringBuilder();
        for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
            if (out.length() > 0) {
                out.append(" <- ");
            }
            out.append(c.getClass().getName());
            if (c.getStackTrace().length > 0) {
                out.append(" at ").append(c.getStackTrace()[0]);
            }
        }
        return out.toString();
    }
}
