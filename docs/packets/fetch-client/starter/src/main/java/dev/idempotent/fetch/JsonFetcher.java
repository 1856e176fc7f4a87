package dev.idempotent.fetch;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;

/**
 * The client behind {@link FetchClient}, as an instance that owns its HTTP client and its sleeper, so
 * tests can watch the waits between attempts without a public seam or a mutable static.
 *
 * <p>Thread-safe when its {@link HttpClient} and {@link Sleeper} are (the defaults are).
 */
final class JsonFetcher {

    private static final ObjectMapper JSON = JsonMapper.builder()
            // "{} trailing" is not a JSON object; Jackson accepts it unless told otherwise.
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();
    private static final TypeReference<Map<String, Object>> JSON_OBJECT = new TypeReference<>() { };

    private final HttpClient http;
    private final Sleeper sleeper;

    /** A fetcher with its own default HTTP client (HTTP/1.1, follows redirects except https to http). */
    JsonFetcher(Sleeper sleeper) {
        this(defaultHttpClient(), sleeper);
    }

    JsonFetcher(HttpClient http, Sleeper sleeper) {
        this.http = Objects.requireNonNull(http, "http");
        this.sleeper = Objects.requireNonNull(sleeper, "sleeper");
    }

    /** The process-wide instance the public static methods use; it really sleeps. */
    static JsonFetcher shared() {
        return Shared.INSTANCE;
    }

    /** See {@link FetchClient#fetchJson(String, Duration)}. */
    Map<String, Object> fetchJson(String url, Duration timeout) throws FetchException {
        return fetchOnce(get(url, timeout));
    }

    private Map<String, Object> fetchOnce(HttpRequest request) throws FetchException {
        HttpResponse<byte[]> response = send(request);
        int status = response.statusCode();
        if (status < 200 || status > 299) {
            throw new FetchException("http " + status, status);
        }
        return parseObject(response.body());
    }

    private HttpResponse<byte[]> send(HttpRequest request) throws FetchException {
        // None of these JDK exceptions is chained: their messages may name the host or the request URI.
        try {
            return http.send(request, HttpResponse.BodyHandlers.ofByteArray());
        } catch (HttpTimeoutException e) {
            throw new FetchException("timed out");
        } catch (ConnectException e) {
            throw new FetchException("connection failed");
        } catch (IOException e) {
            throw new FetchException("i/o error: " + e.getClass().getSimpleName());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new FetchException("interrupted");
        }
    }

    private static Map<String, Object> parseObject(byte[] body) throws FetchException {
        JsonNode root;
        try {
            String text = StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(body))
                    .toString();
            root = JSON.readTree(text);
        } catch (CharacterCodingException | JsonProcessingException e) {
            // Not chained either: a parser message quotes the body, and a body may echo the URL.
            throw new FetchException("response was not json");
        }
        if (root == null || root.isMissingNode()) {
            throw new FetchException("response was not json");
        }
        if (!root.isObject()) {
            throw new FetchException("json root was not an object");
        }
        return JSON.convertValue(root, JSON_OBJECT);
    }

    private static HttpRequest get(String url, Duration timeout) {
        Objects.requireNonNull(url, "url");
        Objects.requireNonNull(timeout, "timeout");
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("timeout must be positive");
        }
        URI uri;
        try {
            uri = new URI(url);
        } catch (URISyntaxException e) {
            // The parser's message quotes its input, which may carry a secret: say what is wrong, not where.
            throw new IllegalArgumentException("url is not a valid URI");
        }
        try {
            return HttpRequest.newBuilder(uri).GET().timeout(timeout).build();
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("url must be an absolute http or https URL");
        }
    }

    private static HttpClient defaultHttpClient() {
        return HttpClient.newBuilder()
                // HTTP/1.1 keeps the JDK from an h2c upgrade dance with plain-http partners.
                .version(HttpClient.Version.HTTP_1_1)
                // Callers have always had redirects followed; NORMAL does, except from https down to http.
                .followRedirects(HttpClient.Redirect.NORMAL)
                .build();
    }

    /** Holder idiom: the shared HTTP client and its selector thread start on first use, not class load. */
    private static final class Shared {
        static final JsonFetcher INSTANCE = new JsonFetcher(Sleeper.THREAD);
    }
}
