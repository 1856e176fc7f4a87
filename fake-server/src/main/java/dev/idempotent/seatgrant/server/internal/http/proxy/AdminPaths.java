package dev.idempotent.seatgrant.server.internal.http.proxy;

import dev.idempotent.seatgrant.server.internal.http.admin.AdminRoutes;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Locale;

/**
 * Which request paths the proxy keeps for its own admin API, and which it must never forward because an upstream
 * may read them as its own {@code /__admin}: servers and frameworks differ in what they normalise (case, empty
 * segments, {@code ;} parameters, backslashes, a second round of percent-decoding, dot segments), and a proxy that
 * forwarded {@code //__admin} or {@code /%255F_admin} would hand the upstream's admin API to any client. Stateless.
 */
final class AdminPaths {

    private AdminPaths() {
    }

    /**
     * True for the proxy's own admin API: a path of {@code /__admin} or under {@code /__admin/}, written exactly
     * so: lower case, no percent-encoding, backslash, {@code ;} or empty segment.
     *
     * @param rawPath the request target's path as sent (origin form, no query)
     */
    static boolean own(String rawPath) {
        return AdminRoutes.owns(rawPath) && rawPath.equals(canonical(rawPath));
    }

    /**
     * True when an upstream may read {@code rawPath} as a path under {@code /__admin}: its {@link #canonical} form
     * starts with {@code /__admin}. Such a request is refused unless it is the proxy's {@link #own}.
     */
    static boolean readAsAdmin(String rawPath) {
        return canonical(rawPath).startsWith(AdminRoutes.PREFIX);
    }

    /**
     * {@code rawPath} as the most forgiving upstream would read it: percent-decoded twice, backslashes read as
     * slashes, lower-cased, each segment cut at its {@code ;}, empty segments dropped and dot segments resolved.
     */
    static String canonical(String rawPath) {
        String decoded = percentDecoded(percentDecoded(rawPath)).replace('\\', '/').toLowerCase(Locale.ROOT);
        Deque<String> segments = new ArrayDeque<>();
        for (String segment : decoded.split("/", -1)) {
            int parameters = segment.indexOf(';');
            String name = parameters < 0 ? segment : segment.substring(0, parameters);
            if (name.isEmpty() || name.equals(".")) {
                continue;
            }
            if (name.equals("..")) {
                segments.pollLast();
            } else {
                segments.addLast(name);
            }
        }
        StringBuilder out = new StringBuilder();
        for (String segment : segments) {
            out.append('/').append(segment);
        }
        boolean trailingSlash = rawPath.endsWith("/") && !segments.isEmpty();
        return out.length() == 0 ? "/" : trailingSlash ? out.append('/').toString() : out.toString();
    }

    /** Each {@code %XX} as its byte, anything else as it is; bytes read one per character (ISO-8859-1). */
    private static String percentDecoded(String text) {
        if (text.indexOf('%') < 0) {
            return text;
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(text.length());
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            int hi = i + 2 < text.length() && c == '%' ? Character.digit(text.charAt(i + 1), 16) : -1;
            int lo = hi < 0 ? -1 : Character.digit(text.charAt(i + 2), 16);
            if (hi >= 0 && lo >= 0) {
                bytes.write(hi * 16 + lo);
                i += 2;
            } else {
                bytes.write(c & 0xFF);
            }
        }
        return bytes.toString(StandardCharsets.ISO_8859_1);
    }
}
