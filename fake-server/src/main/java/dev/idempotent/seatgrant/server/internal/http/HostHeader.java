package dev.idempotent.seatgrant.server.internal.http;

import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A {@code Host} header value as RFC 9112 section 3.2 and RFC 3986 section 3.2.2 spell it: a host (a name of
 * unreserved characters, percent-escapes and sub-delimiters, an IPv4 address, or an IPv6 or future IP literal in
 * brackets) and
 * an optional port, and nothing else: no space, no {@code /}, no {@code @} (a {@code Host: x/y@z} names no host a
 * server could be). An empty value is allowed, as RFC 9112 allows it for a target with no authority.
 *
 * @param host the host, lower-cased (names are case-insensitive), brackets kept for an IP literal
 * @param port the port; -1 when none was given
 */
public record HostHeader(String host, int port) {

    private static final Pattern SHAPE = Pattern.compile("(\\[(?:[0-9A-Fa-f:.]+|[vV][0-9A-Fa-f]+\\.[0-9A-Za-z._~!$&'()*+,;=:-]+)]"
            + "|[0-9A-Za-z._~%!$&'()*+,;=-]*)(?::([0-9]{0,5}))?");

    /** True when {@code value} is a host and an optional port, or empty. */
    public static boolean wellFormed(String value) {
        return parse(value).isPresent() || value.isEmpty();
    }

    /** The host and port {@code value} names; empty when it is not a well-formed, non-empty {@code Host}. */
    public static Optional<HostHeader> parse(String value) {
        if (value == null || value.isEmpty()) {
            return Optional.empty();
        }
        Matcher m = SHAPE.matcher(value);
        if (!m.matches() || m.group(1).isEmpty()) {
            return Optional.empty();
        }
        String digits = m.group(2);
        int port = digits == null || digits.isEmpty() ? -1 : Integer.parseInt(digits);
        if (port > 65535) {
            return Optional.empty();
        }
        return Optional.of(new HostHeader(m.group(1).toLowerCase(Locale.ROOT), port));
    }
}
