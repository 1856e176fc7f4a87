package dev.idempotent.seatgrant.server.internal.http.proxy;

import com.fasterxml.jackson.core.JsonPointer;
import com.fasterxml.jackson.databind.JsonNode;
import dev.idempotent.seatgrant.server.internal.http.KeyHeader;
import dev.idempotent.seatgrant.server.internal.http.SfString;
import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.http.FullHttpRequest;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Set;

/**
 * What makes requests attempts of one operation, for a proxy in front of an API it knows nothing about:
 * {@code header:NAME} takes that header's value when a request carries it and otherwise a fingerprint of what the
 * request sent (so a keyless retry of the same body is attempt 2 of the same operation); {@code json:POINTER} takes
 * that field of a JSON body (a string or a number), for a client whose body changes on every attempt (a timestamp,
 * a nonce) but carries its own intent id, and otherwise a fingerprint; {@code fingerprint} always fingerprints.
 * A number in the body is named exactly, in one canonical form, and never as a string that reads the same
 * ({@link BodyJson}). Immutable.
 *
 * <p>A key is named as it was meant: a value that starts with {@code "} is read as an RFC 8941 sf-string
 * ({@link SfString}), so {@code "k2"} and {@code k2} are one operation; one that does not parse is named by its raw
 * value (the proxy forwards it as it came and lets the upstream judge it). A byte outside 0x21 to 0x7E, and
 * {@code %} itself, is written {@code %XX}, so a name never reinterprets bytes and no two keys share one.
 *
 * @param header  the header read, as given (header names are case-insensitive); null for {@code fingerprint} and
 *                {@code json:POINTER}
 * @param pointer the body field read; null unless {@code json:POINTER}
 */
public record OperationRule(String header, JsonPointer pointer) {

    /** The default: the header a client that follows the IETF draft (and Stripe) sends. */
    public static final String DEFAULT = "header:Idempotency-Key";

    /** Headers that carry credentials: the journal would keep them. */
    private static final Set<String> CREDENTIALS = Set.of("authorization", "proxy-authorization", "cookie");

    /** A key longer than this is named by its hash, so an attempt count never holds a 16 KiB header. */
    private static final int MAX_KEY_IN_NAME = 255;

    private static final String HEX_DIGITS = "0123456789ABCDEF";

    /**
     * An operation: its name (what the plan counts attempts of and the ledger groups by) and the key it carried.
     *
     * @param name {@code key:VALUE}, {@code key-sha256:HEX} for a key over 255 characters, {@code json:POINTER=VALUE},
     *             {@code json-sha256:HEX} for a value over 255 characters, or {@code fingerprint:HEX}
     * @param key  the key as named (decoded, {@code %XX}-escaped); null for a request named otherwise
     */
    public record Operation(String name, String key) { }

    /**
     * Reads {@code header:NAME}, {@code json:POINTER} or {@code fingerprint}.
     *
     * @throws IllegalArgumentException naming what is wrong; never quoting more than the header name
     */
    public static OperationRule parse(String spec) {
        if (spec.equals("fingerprint")) {
            return new OperationRule(null, null);
        }
        if (spec.startsWith("json:")) {
            return new OperationRule(null, BodyJson.pointer(spec.substring("json:".length()), "json:POINTER"));
        }
        if (!spec.startsWith("header:")) {
            throw new IllegalArgumentException("an operation is header:NAME, json:POINTER or fingerprint");
        }
        String name = spec.substring("header:".length());
        if (!HeaderNames.isToken(name)) {
            throw new IllegalArgumentException("header:NAME needs a header name (letters, digits and !#$%&'*+-.^_`|~)");
        }
        if (CREDENTIALS.contains(name.toLowerCase(Locale.ROOT))) {
            throw new IllegalArgumentException("header:" + name + " is refused: the journal would keep a credential");
        }
        return new OperationRule(name, null);
    }

    /** True when this rule reads the body's JSON: {@code json:POINTER}. */
    public boolean readsBody() {
        return pointer != null;
    }

    /**
     * The value of this rule's key header, as {@link KeyHeader} reads it: null for a rule without a header or a
     * request without one.
     *
     * @throws KeyHeader.Ambiguous when the request carries two different keys (two lines, or a list in one)
     */
    public String keyValue(FullHttpRequest request) throws KeyHeader.Ambiguous {
        return header == null ? null : KeyHeader.single(request.headers().getAll(header));
    }

    /**
     * True when {@code keyValue} is empty ({@code Idempotency-Key:}, or {@code ""}): such a request names no
     * operation, and naming it {@code key:} would make every such request one operation.
     */
    public static boolean emptyKey(String keyValue) {
        if (keyValue == null) {
            return false;
        }
        if (keyValue.isEmpty()) {
            return true;
        }
        try {
            return SfString.isStructured(keyValue) && SfString.decode(keyValue).isEmpty();
        } catch (SfString.Invalid e) {
            return false;
        }
    }

    /**
     * The operation {@code request}, sent to {@code target} (its path and query), belongs to.
     *
     * @param keyValue its key header's value, {@link #keyValue}; null for none
     * @param json     the body as JSON, read when {@link #readsBody()}; null when it is not JSON or was not read
     */
    public Operation of(String keyValue, FullHttpRequest request, String target, JsonNode json) {
        if (header != null) {
            if (keyValue != null) {
                String key = keyName(keyValue);
                String name = key.length() <= MAX_KEY_IN_NAME ? "key:" + key
                        : "key-sha256:" + hex(digest(key.getBytes(StandardCharsets.US_ASCII)), 32);
                return new Operation(name, key);
            }
        }
        if (pointer != null && json != null) {
            String value = BodyJson.scalar(json, pointer);
            if (value != null) {
                String named = pointer + "=" + value;
                return new Operation(value.length() <= MAX_KEY_IN_NAME ? "json:" + named
                        : "json-sha256:" + hex(digest(named.getBytes(StandardCharsets.UTF_8)), 32), null);
            }
        }
        return new Operation("fingerprint:" + fingerprint(request.method().name(), target, request.content()), null);
    }

    /**
     * The key a header value carries, as a name shows it: decoded when it is an sf-string, escaped so that each byte
     * outside 0x21 to 0x7E (and {@code %}) reads {@code %XX}, and a decoded key that starts with {@code "} reads
     * {@code %22}, so it never looks like a raw value that failed to parse.
     */
    static String keyName(String value) {
        if (SfString.isStructured(value)) {
            try {
                String decoded = SfString.decode(value);
                String escaped = escape(decoded);
                return decoded.startsWith("\"") ? "%22" + escaped.substring(1) : escaped;
            } catch (SfString.Invalid e) {
                // Not ours to refuse: the upstream answers it; its attempts still share its raw value.
                return escape(value);
            }
        }
        return escape(value);
    }

    /**
     * {@code value}'s characters as bytes (Netty reads each header byte as one character from 0 to 255), those
     * outside 0x21 to 0x7E and {@code %} as {@code %XX}.
     */
    private static String escape(String value) {
        StringBuilder out = null;
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c >= 0x21 && c <= 0x7e && c != '%') {
                if (out != null) {
                    out.append(c);
                }
                continue;
            }
            if (out == null) {
                out = new StringBuilder(value.length() + 16).append(value, 0, i);
            }
            byte[] bytes = c <= 0xff ? new byte[] {(byte) c} : String.valueOf(c).getBytes(StandardCharsets.UTF_8);
            for (byte b : bytes) {
                out.append('%').append(HEX_DIGITS.charAt((b >> 4) & 0xf)).append(HEX_DIGITS.charAt(b & 0xf));
            }
        }
        return out == null ? value : out.toString();
    }

    /** {@code header:NAME}, {@code json:POINTER} or {@code fingerprint}, as the flag takes it. */
    public String spec() {
        if (pointer != null) {
            return "json:" + pointer;
        }
        return header == null ? "fingerprint" : "header:" + header;
    }

    /**
     * The first 128 bits of a SHA-256 over the method, the target and the body, each length-prefixed so that no two
     * different requests feed it the same bytes.
     */
    static String fingerprint(String method, String target, ByteBuf body) {
        MessageDigest sha = sha256();
        for (byte[] part : new byte[][] {method.getBytes(StandardCharsets.UTF_8),
                target.getBytes(StandardCharsets.UTF_8)}) {
            sha.update(length(part.length));
            sha.update(part);
        }
        sha.update(length(body.readableBytes()));
        sha.update(body.nioBuffer());
        return hex(sha.digest(), 32);
    }

    private static byte[] digest(byte[] bytes) {
        return sha256().digest(bytes);
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }

    private static byte[] length(int n) {
        return new byte[] {(byte) (n >>> 24), (byte) (n >>> 16), (byte) (n >>> 8), (byte) n};
    }

    private static String hex(byte[] bytes, int digits) {
        return HexFormat.of().formatHex(bytes).substring(0, digits);
    }
}
