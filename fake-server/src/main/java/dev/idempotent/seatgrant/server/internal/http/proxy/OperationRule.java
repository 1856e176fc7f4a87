package dev.idempotent.seatgrant.server.internal.http.proxy;

import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.http.FullHttpRequest;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * What makes requests attempts of one operation, for a proxy in front of an API it knows nothing about:
 * {@code header:NAME} takes that header's value when a request carries it and otherwise a fingerprint of what the
 * request sent (so a keyless retry of the same body is attempt 2 of the same operation); {@code fingerprint}
 * always fingerprints. Immutable.
 *
 * @param header the header read, as given (header names are case-insensitive); null for {@code fingerprint}
 */
public record OperationRule(String header) {

    /** The default: the header a client that follows the IETF draft (and Stripe) sends. */
    public static final String DEFAULT = "header:Idempotency-Key";

    /** Headers that carry credentials: the journal would keep them. */
    private static final Set<String> CREDENTIALS = Set.of("authorization", "proxy-authorization", "cookie");

    /** A key longer than this is named by its hash, so an attempt count never holds a 16 KiB header. */
    private static final int MAX_KEY_IN_NAME = 255;

    /**
     * An operation: its name (what the plan counts attempts of and the ledger groups by) and the key it carried.
     *
     * @param name {@code key:VALUE}, {@code key-sha256:HEX} for a key over 255 characters, or {@code fingerprint:HEX}
     * @param key  the header's value; null for a fingerprinted request
     */
    public record Operation(String name, String key) { }

    /**
     * Reads {@code header:NAME} or {@code fingerprint}.
     *
     * @throws IllegalArgumentException naming what is wrong; never quoting more than the header name
     */
    public static OperationRule parse(String spec) {
        if (spec.equals("fingerprint")) {
            return new OperationRule(null);
        }
        if (!spec.startsWith("header:")) {
            throw new IllegalArgumentException("an operation is header:NAME or fingerprint");
        }
        String name = spec.substring("header:".length());
        if (!HeaderNames.isToken(name)) {
            throw new IllegalArgumentException("header:NAME needs a header name (letters, digits and !#$%&'*+-.^_`|~)");
        }
        if (CREDENTIALS.contains(name.toLowerCase(Locale.ROOT))) {
            throw new IllegalArgumentException("header:" + name + " is refused: the journal would keep a credential");
        }
        return new OperationRule(name);
    }

    /** The operation {@code request}, sent to {@code target} (its path and query), belongs to. */
    public Operation of(FullHttpRequest request, String target) {
        if (header != null) {
            List<String> values = request.headers().getAll(header);
            if (!values.isEmpty()) {
                String key = String.join(", ", values);
                String name = key.length() <= MAX_KEY_IN_NAME ? "key:" + key
                        : "key-sha256:" + hex(digest(key.getBytes(StandardCharsets.UTF_8)), 32);
                return new Operation(name, key);
            }
        }
        return new Operation("fingerprint:" + fingerprint(request.method().name(), target, request.content()), null);
    }

    /** {@code header:NAME} or {@code fingerprint}, as the flag takes it. */
    public String spec() {
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
