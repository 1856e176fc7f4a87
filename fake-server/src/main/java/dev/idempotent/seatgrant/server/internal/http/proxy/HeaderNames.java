package dev.idempotent.seatgrant.server.internal.http.proxy;

/** The header-name grammar of RFC 9110 (a token). */
final class HeaderNames {

    private static final String TOKEN_SYMBOLS = "!#$%&'*+-.^_`|~";

    private HeaderNames() {
    }

    static boolean isToken(String name) {
        if (name.isEmpty()) {
            return false;
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            boolean ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                    || TOKEN_SYMBOLS.indexOf(c) >= 0;
            if (!ok) {
                return false;
            }
        }
        return true;
    }
}
