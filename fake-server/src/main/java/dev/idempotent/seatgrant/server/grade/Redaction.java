package dev.idempotent.seatgrant.server.grade;

import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetEncoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Hides where a check's API lives in anything the report repeats from the worker: the base URL (with or without its
 * scheme), its host and port (also as {@code localhost:PORT}), its path, and the path's last segment (the {@code no-url-in-logs} check's
 * token). A report is pasted into tickets and hiring notes; a base URL may carry a secret.
 */
final class Redaction {

    static final String MARK = "[SEATS_BASE_URL]";

    /** Longest first, so the base URL is replaced whole before its host and port are. */
    private final List<String> secrets;

    Redaction(URI base) {
        Set<String> found = new LinkedHashSet<>();
        found.add(base.toString());
        found.add(base.getRawAuthority() + base.getRawPath());
        found.add(base.getRawAuthority());
        if (base.getPort() > 0) {
            found.add("localhost:" + base.getPort());
        }
        String path = base.getRawPath();
        if (path != null && path.length() > 1) {
            found.add(path);
            String last = path.substring(path.lastIndexOf('/') + 1);
            if (last.length() > 3) {
                found.add(last);
            }
        }
        this.secrets = found.stream().filter(s -> s != null && s.length() > 1)
                .sorted(Comparator.comparingInt(String::length).reversed()).toList();
    }

    String apply(String text) {
        String out = text;
        for (String secret : secrets) {
            out = out.replace(secret, MARK);
        }
        return out;
    }

    /** The longest prefix of {@code text} that is at most {@code maxBytes} of UTF-8, never half a character. */
    static String cut(String text, int maxBytes) {
        CharsetEncoder encoder = StandardCharsets.UTF_8.newEncoder()
                .onMalformedInput(CodingErrorAction.REPLACE)
                .onUnmappableCharacter(CodingErrorAction.REPLACE);
        CharBuffer in = CharBuffer.wrap(text);
        encoder.encode(in, ByteBuffer.allocate(maxBytes), true);
        return text.substring(0, in.position());
    }
}
