package dev.idempotent.fetch;

import java.net.http.HttpClient;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;

/**
 * The client behind {@link FetchClient} (the second shape: the request, the send and the parse live in
 * {@link JsonExchange}; this class only owns the pieces and makes the call).
 */
final class JsonFetcher {

    /** Holder idiom: the shared HTTP client starts on first use, not at class load. */
    private static final class Shared {
        static final JsonFetcher INSTANCE = new JsonFetcher(Sleeper.THREAD);
    }

    private final JsonExchange wire;
    private final Sleeper sleeper;

    JsonFetcher(HttpClient http, Sleeper sleeper) {
        this.wire = new JsonExchange(Objects.requireNonNull(http, "http"));
        this.sleeper = Objects.requireNonNull(sleeper, "sleeper");
    }

    JsonFetcher(Sleeper sleeper) {
        this(JsonExchange.defaultHttpClient(), sleeper);
    }

    static JsonFetcher shared() {
        return Shared.INSTANCE;
    }

    Map<String, Object> fetchJson(String url, Duration timeout) throws FetchException {
        var request = JsonExchange.get(url, timeout);
        return wire.fetchOnce(request);
    }
}
