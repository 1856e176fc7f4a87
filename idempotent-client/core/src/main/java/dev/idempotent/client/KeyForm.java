package dev.idempotent.client;

/**
 * How the key is written into its header. Providers differ: Stripe and PayPal take the key as it is; a server that
 * follows the IETF draft {@code draft-ietf-httpapi-idempotency-key-header} reads the header as an RFC 8941
 * Structured Field string, quoted. A key the chosen form cannot carry is refused before any attempt.
 */
public enum KeyForm {

    /**
     * The key sent raw, as Stripe and PayPal take it. Not RFC 8941's sf-token: any printable ASCII goes, spaces
     * inside included. Refused: an empty key, a control character, anything outside ASCII, a leading or trailing
     * space (HTTP would strip it).
     */
    TOKEN,

    /**
     * The key as an RFC 8941 sf-string: in double quotes, with {@code \} and {@code "} escaped by a backslash.
     * Refused: an empty key, and any character outside 0x20 to 0x7E, which an sf-string cannot carry.
     */
    STRUCTURED;

    /**
     * The header value for {@code key} in this form.
     *
     * @param key the caller's key
     * @return what goes into the key header
     * @throws IllegalArgumentException naming the rule (never the key) when this form cannot carry the key
     */
    public String encode(String key) {
        check(key);
        if (this == TOKEN) {
            return key;
        }
        StringBuilder out = new StringBuilder(key.length() + 2).append('"');
        for (int i = 0; i < key.length(); i++) {
            char c = key.charAt(i);
            if (c == '"' || c == '\\') {
                out.append('\\');
            }
            out.append(c);
        }
        return out.append('"').toString();
    }

    /**
     * Checks that this form can carry {@code key}.
     *
     * @param key the caller's key
     * @throws IllegalArgumentException naming the rule, never the value
     */
    public void check(String key) {
        if (key.isEmpty()) {
            throw new IllegalArgumentException("the idempotency key must not be empty");
        }
        for (int i = 0; i < key.length(); i++) {
            char c = key.charAt(i);
            if (c < 0x20 || c == 0x7F) {
                throw new IllegalArgumentException(
                        "the idempotency key must not contain a control character (position " + i + ")");
            }
            if (c > 0x7E) {
                throw new IllegalArgumentException(this == STRUCTURED
                        ? "a STRUCTURED key must be printable ASCII (0x20-0x7E), as an RFC 8941 sf-string requires"
                                + " (position " + i + ")"
                        : "a TOKEN key must be ASCII: an HTTP header carries nothing else safely (position " + i + ")");
            }
        }
        if (this == TOKEN && (key.charAt(0) == ' ' || key.charAt(key.length() - 1) == ' ')) {
            throw new IllegalArgumentException(
                    "a TOKEN key must not start or end with a space: HTTP strips it, so the server would see another key");
        }
    }
}
