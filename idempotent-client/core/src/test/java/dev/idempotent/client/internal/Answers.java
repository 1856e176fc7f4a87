package dev.idempotent.client.internal;

import java.net.http.HttpHeaders;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Builds the answers the classifier and policy tests read, without a socket. */
final class Answers {

    private Answers() {
    }

    /** An answer; {@code headers} alternate name, value. */
    static Exchange answer(int status, String body, String... headers) {
        Map<String, List<String>> map = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        for (int i = 0; i < headers.length; i += 2) {
            map.computeIfAbsent(headers[i], k -> new ArrayList<>()).add(headers[i + 1]);
        }
        return new Exchange(status, HttpHeaders.of(map, (name, value) -> true), body.getBytes(StandardCharsets.UTF_8));
    }

    static Exchange json(int status, String body, String... headers) {
        String[] all = new String[headers.length + 2];
        all[0] = "Content-Type";
        all[1] = "application/json";
        System.arraycopy(headers, 0, all, 2, headers.length);
        return answer(status, body, all);
    }
}
