package dev.idempotent.seatgrant.server.internal.http;

/**
 * Reads an {@code Idempotency-Key} sent in its structured form, an RFC 8941 item whose bare item is an sf-string
 * ({@code "k2"}, {@code "k2";a=1}), as the IETF Idempotency-Key draft writes it: {@code serve} takes the decoded
 * string as the key, {@code proxy} names the operation by it. A value is read this way when, and only when, it
 * starts with {@code "}; any other value is a key as it is. Parameters after the string are checked for syntax
 * and then ignored. Stateless.
 */
public final class SfString {

    private SfString() {
    }

    /** Thrown for a value that starts with {@code "} and is not one sf-string item; the message names the rule. */
    public static final class Invalid extends Exception {
        private Invalid(String message) {
            super(message, null, false, false);
        }
    }

    /** True when {@code value} is to be read as an sf-string: it starts with {@code "}. */
    public static boolean isStructured(String value) {
        return !value.isEmpty() && value.charAt(0) == '"';
    }

    /**
     * The string an sf-string item carries: {@code "k\"2";a=1} is {@code k"2}.
     *
     * @throws Invalid when {@code value} is not a string item with well-formed parameters (RFC 8941 sections 3.3.3
     *                 and 4.2.5: printable ASCII only, {@code \} escaping only {@code "} and {@code \})
     */
    public static String decode(String value) throws Invalid {
        if (!isStructured(value)) {
            throw new Invalid("a structured key starts with a double quote");
        }
        StringBuilder out = new StringBuilder(value.length());
        int i = 1;
        while (true) {
            if (i >= value.length()) {
                throw new Invalid("a structured key needs its closing double quote");
            }
            char c = value.charAt(i++);
            if (c == '\\') {
                char next = i < value.length() ? value.charAt(i++) : 0;
                if (next != '"' && next != '\\') {
                    throw new Invalid("in a structured key, a backslash escapes only a double quote or a backslash");
                }
                out.append(next);
            } else if (c == '"') {
                break;
            } else if (c < 0x20 || c > 0x7e) {
                throw new Invalid("a structured key holds printable ASCII only (0x20 to 0x7E)");
            } else {
                out.append(c);
            }
        }
        parameters(value, i);
        return out.toString();
    }

    /** Checks {@code *( ";" *SP key [ "=" bare-item ] )} from {@code i} to the end (trailing spaces allowed). */
    private static void parameters(String value, int i) throws Invalid {
        int end = value.length();
        while (end > i && value.charAt(end - 1) == ' ') {
            end--;
        }
        while (i < end) {
            if (value.charAt(i++) != ';') {
                throw new Invalid("a structured key is one string, optionally followed by ;parameters");
            }
            while (i < end && value.charAt(i) == ' ') {
                i++;
            }
            if (i >= end || !(isLcAlpha(value.charAt(i)) || value.charAt(i) == '*')) {
                throw new Invalid("a parameter's name starts with a lower-case letter or *");
            }
            while (i < end && isKeyChar(value.charAt(i))) {
                i++;
            }
            if (i < end && value.charAt(i) == '=') {
                i = bareItem(value, i + 1, end);
            }
        }
    }

    /** Skips one bare item (integer, decimal, string, token, byte sequence, boolean); returns where it ends. */
    private static int bareItem(String value, int i, int end) throws Invalid {
        if (i >= end) {
            throw new Invalid("a parameter's value is missing after =");
        }
        char c = value.charAt(i);
        if (c == '-' || isDigit(c)) {
            int j = c == '-' ? i + 1 : i;
            int digits = 0;
            int dot = -1;
            while (j < end && (isDigit(value.charAt(j)) || (value.charAt(j) == '.' && dot < 0))) {
                if (value.charAt(j) == '.') {
                    dot = digits;
                } else {
                    digits++;
                }
                j++;
            }
            boolean ok = dot < 0 ? digits >= 1 && digits <= 15
                    : dot >= 1 && dot <= 12 && digits - dot >= 1 && digits - dot <= 3;
            if (!ok) {
                throw new Invalid("a parameter's number is not an sf-integer or sf-decimal");
            }
            return j;
        }
        if (c == '"') {
            int j = i + 1;
            while (j < end && value.charAt(j) != '"') {
                char s = value.charAt(j);
                if (s < 0x20 || s > 0x7e || (s == '\\' && (j + 1 >= end
                        || (value.charAt(j + 1) != '"' && value.charAt(j + 1) != '\\')))) {
                    throw new Invalid("a parameter's string is not an sf-string");
                }
                j += s == '\\' ? 2 : 1;
            }
            if (j >= end) {
                throw new Invalid("a parameter's string needs its closing double quote");
            }
            return j + 1;
        }
        if (c == ':') {
            int j = i + 1;
            while (j < end && isBase64(value.charAt(j))) {
                j++;
            }
            if (j >= end || value.charAt(j) != ':') {
                throw new Invalid("a parameter's byte sequence needs its closing colon");
            }
            return j + 1;
        }
        if (c == '?') {
            if (i + 1 < end && (value.charAt(i + 1) == '0' || value.charAt(i + 1) == '1')) {
                return i + 2;
            }
            throw new Invalid("a parameter's boolean is ?0 or ?1");
        }
        if (isAlpha(c) || c == '*') {
            int j = i + 1;
            while (j < end && isTokenChar(value.charAt(j))) {
                j++;
            }
            return j;
        }
        throw new Invalid("a parameter's value is not an sf bare item");
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    private static boolean isLcAlpha(char c) {
        return c >= 'a' && c <= 'z';
    }

    private static boolean isAlpha(char c) {
        return isLcAlpha(c) || (c >= 'A' && c <= 'Z');
    }

    private static boolean isKeyChar(char c) {
        return isLcAlpha(c) || isDigit(c) || c == '_' || c == '-' || c == '.' || c == '*';
    }

    /** RFC 9110 tchar, plus {@code :} and {@code /}, as RFC 8941's sf-token allows. */
    private static boolean isTokenChar(char c) {
        return isAlpha(c) || isDigit(c) || "!#$%&'*+-.^_`|~:/".indexOf(c) >= 0;
    }

    private static boolean isBase64(char c) {
        return isAlpha(c) || isDigit(c) || c == '+' || c == '/' || c == '=';
    }
}
