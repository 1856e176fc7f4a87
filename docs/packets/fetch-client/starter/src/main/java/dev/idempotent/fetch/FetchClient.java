package dev.idempotent.fetch;

import java.time.Duration;
import java.util.Map;

/**
 * Fetches a URL with GET and returns its JSON object body; the one entry point of this module.
 *
 * <p>Each call makes one attempt; any failure is thrown as a {@link FetchException}.
 *
 * <p>Both methods are thread-safe. They share one {@link java.net.http.HttpClient}, so connections to
 * the same host are pooled across calls.
 */
public final class FetchClient {

    private static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(5);

    private FetchClient() {
    }

    /**
     * Same as {@link #fetchJson(String, Duration)} with a five second timeout.
     *
     * @param url an absolute {@code http} or {@code https} URL
     * @return the JSON object at the root of the response body, as a mutable map the caller owns
     * @throws FetchException when no JSON object could be fetched; see {@link FetchException#status()}
     * @throws IllegalArgumentException when {@code url} is not an absolute http(s) URL
     */
    public static Map<String, Object> fetchJson(String url) throws FetchException {
        return fetchJson(url, DEFAULT_TIMEOUT);
    }

    /**
     * Fetches {@code url} with GET, giving the request {@code timeout} to deliver the response headers.
     *
     * @param url an absolute {@code http} or {@code https} URL
     * @param timeout how long one attempt may take to get its response; positive
     * @return the JSON object at the root of the response body, as a mutable map the caller owns
     * @throws FetchException when no JSON object could be fetched; see {@link FetchException#status()}
     * @throws IllegalArgumentException when {@code url} is not an absolute http(s) URL or the timeout
     *     is not positive
     */
    public static Map<String, Object> fetchJson(String url, Duration timeout) throws FetchException {
        return JsonFetcher.shared().fetchJson(url, timeout);
    }
}
