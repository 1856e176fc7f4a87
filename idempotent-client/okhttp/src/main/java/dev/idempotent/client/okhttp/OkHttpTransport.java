package dev.idempotent.client.okhttp;

import dev.idempotent.client.Transport;
import java.io.IOException;
import java.net.http.HttpHeaders;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import okhttp3.Call;
import okhttp3.Callback;
import okhttp3.Headers;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;
import okhttp3.ResponseBody;

/**
 * Sends each attempt of an {@code IdempotentClient} through the service's own {@link OkHttpClient}: its connection
 * pool, TLS, proxy, dispatcher, and its interceptors, which run on every attempt and see the key header like any
 * other. Each attempt is one {@link Call}, enqueued: its timeout is the attempt's budget, cancelling it (the
 * client's deadline, its caller, {@code close()}) cancels the call, and the body is read up to the client's limit
 * and no further. Thread-safe; the client is never closed here.
 *
 * <p>{@link #of(OkHttpClient)} refuses a client that would resend a request behind the protocol's back: OkHttp's
 * defaults retry on a connection failure and follow redirects, so build the client for it with
 * {@code client.newBuilder().retryOnConnectionFailure(false).followRedirects(false).build()} (which shares the
 * pool and the dispatcher).
 */
public final class OkHttpTransport implements Transport {

    private final OkHttpClient client;

    private OkHttpTransport(OkHttpClient client) {
        this.client = client;
    }

    /**
     * A transport on {@code client}.
     *
     * @param client the service's client
     * @return the transport
     * @throws IllegalArgumentException naming {@code retryOnConnectionFailure} or {@code followRedirects} when the
     *     client would resend a request by itself
     */
    public static OkHttpTransport of(OkHttpClient client) {
        Objects.requireNonNull(client, "client");
        if (client.retryOnConnectionFailure()) {
            throw new IllegalArgumentException("the OkHttpClient must not retry on its own: set"
                    + " retryOnConnectionFailure(false), or it resends a POST the protocol never sees");
        }
        if (client.followRedirects()) {
            throw new IllegalArgumentException("the OkHttpClient must not follow redirects: set followRedirects(false),"
                    + " or a redirected POST goes where its key was not made for");
        }
        return new OkHttpTransport(client);
    }

    @Override
    public CompletableFuture<Answer> send(Attempt attempt) {
        Call call = client.newCall(request(attempt));
        call.timeout().timeout(attempt.timeout().toNanos(), TimeUnit.NANOSECONDS);
        CompletableFuture<Answer> answer = new CompletableFuture<>() {
            @Override
            public boolean cancel(boolean mayInterruptIfRunning) {
                call.cancel();
                return super.cancel(mayInterruptIfRunning);
            }
        };
        call.enqueue(new Callback() {
            @Override
            public void onFailure(Call failed, IOException failure) {
                answer.completeExceptionally(failure);
            }

            @Override
            public void onResponse(Call answered, Response response) {
                // Closed without draining what was not read: past the limit the connection is not reused.
                try (response; ResponseBody body = response.body()) {
                    answer.complete(Answer.read(response.code(), headers(response.headers()), body.byteStream(),
                            attempt.maxBodyBytes()));
                } catch (IOException failure) {
                    answer.completeExceptionally(failure);
                } catch (RuntimeException failure) {
                    answer.completeExceptionally(new IOException("the answer could not be read", failure));
                }
            }
        });
        return answer;
    }

    /** The attempt as OkHttp's request: its headers as given, its body with the attempt's Content-Type. */
    static Request request(Attempt attempt) {
        Headers.Builder headers = new Headers.Builder();
        for (Map.Entry<String, List<String>> header : attempt.headers().map().entrySet()) {
            for (String value : header.getValue()) {
                headers.add(header.getKey(), value);
            }
        }
        MediaType type = attempt.headers().firstValue("Content-Type").map(MediaType::parse).orElse(null);
        byte[] bytes = attempt.body();
        // OkHttp requires a body for POST, PUT and PATCH; a DELETE without one is sent without one.
        RequestBody body = bytes.length == 0 && type == null && attempt.method().equals("DELETE")
                ? null : RequestBody.create(bytes, type);
        return new Request.Builder()
                .url(attempt.uri().toString())
                .headers(headers.build())
                .method(attempt.method(), body)
                .build();
    }

    private static HttpHeaders headers(Headers headers) {
        return HttpHeaders.of(headers.toMultimap(), (name, value) -> true);
    }
}
