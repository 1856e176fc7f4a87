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

/** One GET on the wire and its JSON object (the second shape's helper): one attempt per call, no waiting. */
final class JsonExchange {

    private static final TypeReference<Map<String, Object>> JSON_OBJECT = new TypeReference<>() { };
    private static final ObjectMapper JSON = JsonMapper.builder()
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

    private final HttpClient http;

    JsonExchange(HttpClient http) {
        this.http = http;
    }

    static HttpClient defaultHttpClient() {
        return HttpClient.newBuilder()
                .followRedirects(HttpClient.Redirect.NORMAL)
                .version(HttpClient.Version.HTTP_1_1)
                .build();
    }

    static HttpRequest get(String url, Duration timeout) {
        Objects.requireNonNull(url, "url");
        Objects.requireNonNull(timeout, "timeout");
        if (timeout.isZero() || timeout.isNegative()) {
            throw new IllegalArgumentException("timeout must be positive");
        }
        final URI uri;
        try {
            uri = new URI(url);
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("url is not a valid URI");
        }
        try {
            return HttpRequest.newBuilder(uri).timeout(timeout).GET().build();
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("url must be an absolute http or https URL");
        }
    }

    Map<String, Object> fetchOnce(HttpRequest request) throws FetchException {
        HttpResponse<byte[]> response = send(request);
        int status = response.statusCode();
        if (status >= 200 && status <= 299) {
            return parseObject(response.body());
        }
        throw new FetchException("http " + status, status);
    }

    private HttpResponse<byte[]> send(HttpRequest request) throws FetchException {
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
            root = JSON.readTree(StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(body))
                    .toString());
        } catch (CharacterCodingException | JsonProcessingException e) {
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
}
