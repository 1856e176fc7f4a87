package dev.idempotent.seatgrant.server.internal.http;

import java.util.ArrayList;
import java.util.List;

/**
 * The one key a request's key header lines carry, read the same way by {@code serve} and {@code proxy}. A
 * recipient may join two header lines into one, separated by a comma and a space (RFC 9110 section 5.3), so two
 * lines, and one line listing two values ({@code a, b}), both send two keys: an upstream that reads the first
 * line sees one key, one that joins them another. Each line is split at a comma followed by a space or a tab,
 * outside an sf-string's quotes; a comma inside a key ({@code a,b}) is part of it. Values that name the same key,
 * as they are or decoded from an sf-string ({@code k2} and {@code "k2"}), are one key. Stateless.
 */
public final class KeyHeader {

    /** Two values that name different keys: the request is refused, never given one of them. */
    public static final class Ambiguous extends Exception {
        Ambiguous() {
            super(null, null, false, false);
        }
    }

    private KeyHeader() {
    }

    /**
     * The key value {@code lines} carry, as the first value was sent (undecoded); null for no line.
     *
     * @throws Ambiguous when two values name different keys
     */
    public static String single(List<String> lines) throws Ambiguous {
        String first = null;
        String name = null;
        for (String line : lines) {
            for (String value : values(line)) {
                if (first == null) {
                    first = value;
                    name = named(value);
                } else if (!name.equals(named(value))) {
                    throw new Ambiguous();
                }
            }
        }
        return first;
    }

    /** The values of one line: split at a comma followed by a space or tab, outside quotes, each trimmed. */
    static List<String> values(String line) {
        List<String> values = new ArrayList<>(1);
        int start = 0;
        boolean valueBegins = true;
        boolean quoted = false;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (quoted) {
                if (c == '\\') {
                    i++;
                } else if (c == '"') {
                    quoted = false;
                }
            } else if (valueBegins) {
                if (c != ' ' && c != '\t') {
                    valueBegins = false;
                    // Only a value that starts with a quote is an sf-string; a quote inside a bare key is a character.
                    quoted = c == '"';
                }
            } else if (c == ',' && i + 1 < line.length() && (line.charAt(i + 1) == ' ' || line.charAt(i + 1) == '\t')) {
                values.add(trim(line.substring(start, i)));
                start = i + 1;
                valueBegins = true;
            }
        }
        values.add(trim(line.substring(start)));
        return values;
    }

    /**
     * The key a value names: decoded when it is a valid sf-string, otherwise the value itself; a value that starts
     * with a quote and does not parse is named apart, so it never equals the key a valid sf-string decodes to.
     */
    private static String named(String value) {
        if (SfString.isStructured(value)) {
            try {
                return "=" + SfString.decode(value);
            } catch (SfString.Invalid e) {
                return "!" + value;
            }
        }
        return "=" + value;
    }

    private static String trim(String value) {
        int from = 0;
        int to = value.length();
        while (from < to && (value.charAt(from) == ' ' || value.charAt(from) == '\t')) {
            from++;
        }
        while (to > from && (value.charAt(to - 1) == ' ' || value.charAt(to - 1) == '\t')) {
            to--;
        }
        return value.substring(from, to);
    }
}
