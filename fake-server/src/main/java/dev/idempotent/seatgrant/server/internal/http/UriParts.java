package dev.idempotent.seatgrant.server.internal.http;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A request target split into its decoded path and query parameters, strictly: a {@code %} not followed by two
 * hex digits, or escapes that decode to bytes that are not UTF-8 (overlong forms, lone surrogates), are refused
 * rather than guessed at. Raw bytes over 0x7F must be UTF-8 too. Netty's {@code QueryStringDecoder} throws for
 * the first and replaces the second. A path with a {@code .} or {@code ..} segment, written out or escaped
 * ({@code %2E}, either case), is refused too: after dot-segment removal (RFC 3986 section 5.2.4) it names another
 * path than the one every route and fault rule reads ({@code /x/../__admin/x} is the admin API's).
 * A target in absolute form ({@code http://host/v1/seats}) names the same resource as its path and query.
 *
 * @param path  the decoded path ({@code +} stays a plus)
 * @param query the decoded query parameters in order ({@code +} is a space); empty for none
 */
public record UriParts(String path, Map<String, List<String>> query) {

    /** Why a request target was refused; the message names the part, never the bytes. */
    public static final class Invalid extends Exception {
        private final boolean inPath;

        Invalid(boolean inPath) {
            this(inPath, inPath ? "the path is not validly percent-encoded UTF-8"
                    : "the query string is not validly percent-encoded UTF-8");
        }

        private Invalid(boolean inPath, String message) {
            super(message, null, false, false);
            this.inPath = inPath;
        }

        public boolean inPath() {
            return inPath;
        }
    }

    /**
     * The decoded path and query of a request target in origin or absolute form.
     *
     * @throws Invalid for a bad escape, or for an absolute form of a scheme other than http and https (its
     *                 authority, credentials included, must never be taken for a path, journaled or logged)
     */
    public static UriParts parse(String uri) throws Invalid {
        String origin = originForm(uri);
        if (!origin.startsWith("/") && origin.contains("://")) {
            throw new Invalid(true, "the request target is neither a path nor an http or https URL");
        }
        int hash = origin.indexOf('#');
        String target = hash < 0 ? origin : origin.substring(0, hash);
        int q = target.indexOf('?');
        String rawPath = q < 0 ? target : target.substring(0, q);
        String path = decode(rawPath, false, true);
        if (hasDotSegment(path)) {
            throw new Invalid(true, "the path has a . or .. segment");
        }
        Map<String, List<String>> query = new LinkedHashMap<>();
        if (q >= 0) {
            for (String pair : target.substring(q + 1).split("&")) {
                if (pair.isEmpty()) {
                    continue;
                }
                int eq = pair.indexOf('=');
                String name = decode(eq < 0 ? pair : pair.substring(0, eq), true, false);
                String value = eq < 0 ? "" : decode(pair.substring(eq + 1), true, false);
                query.computeIfAbsent(name, n -> new ArrayList<>()).add(value);
            }
        }
        return new UriParts(path, query);
    }

    /**
     * The origin form ({@code /path?query}) of a request target. RFC 9112 section 3.2.2 says a server must accept
     * the absolute form ({@code http://host:port/path?query}) too, though clients send it mostly to proxies: its
     * scheme and authority are dropped, and an empty path is {@code /}. Any other target is returned unchanged.
     */
    public static String originForm(String target) {
        if (target.startsWith("/")) {
            return target;
        }
        int separator = target.indexOf("://");
        String scheme = separator < 0 ? "" : target.substring(0, separator);
        if (!scheme.equalsIgnoreCase("http") && !scheme.equalsIgnoreCase("https")) {
            return target;
        }
        int end = separator + 3;
        while (end < target.length() && "/?#".indexOf(target.charAt(end)) < 0) {
            end++;
        }
        String rest = target.substring(end);
        return rest.startsWith("/") ? rest : "/" + rest;
    }

    /** True when a segment of the decoded {@code path} is {@code .} or {@code ..}. */
    private static boolean hasDotSegment(String path) {
        int start = 0;
        while (start <= path.length()) {
            int end = path.indexOf('/', start);
            if (end < 0) {
                end = path.length();
            }
            int length = end - start;
            if ((length == 1 || length == 2) && path.startsWith(length == 1 ? "." : "..", start)) {
                return true;
            }
            start = end + 1;
        }
        return false;
    }

    /** The first value of a query parameter; null when absent. */
    public String first(String name) {
        List<String> values = query.get(name);
        return values == null || values.isEmpty() ? null : values.get(0);
    }

    private static String decode(String raw, boolean plusIsSpace, boolean inPath) throws Invalid {
        if (raw.chars().allMatch(c -> c < 0x80 && c != '%' && !(plusIsSpace && c == '+'))) {
            return raw;
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(raw.length());
        for (int i = 0; i < raw.length(); i++) {
            char c = raw.charAt(i);
            if (c == '%') {
                if (i + 2 >= raw.length()) {
                    throw new Invalid(inPath);
                }
                int hi = Character.digit(raw.charAt(i + 1), 16);
                int lo = Character.digit(raw.charAt(i + 2), 16);
                if (hi < 0 || lo < 0) {
                    throw new Invalid(inPath);
                }
                bytes.write(hi * 16 + lo);
                i += 2;
            } else if (c == '+' && plusIsSpace) {
                bytes.write(' ');
            } else {
                // Netty reads the request line one byte per char, so a raw byte over 0x7F is a char up to 0xFF.
                bytes.write(c & 0xFF);
            }
        }
        try {
            return StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes.toByteArray())).toString();
        } catch (CharacterCodingException e) {
            throw new Invalid(inPath);
        }
    }
}
