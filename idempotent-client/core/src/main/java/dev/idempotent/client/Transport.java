package dev.idempotent.client;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpHeaders;
import java.time.Duration;
import java.util.Arrays;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;

/**
 * One HTTP attempt on some HTTP stack, and nothing else: the protocol (the key, classification, backoff, deadlines,
 * the body limit, {@code close()}) stays in {@link IdempotentClient}, above it. The JDK's {@code HttpClient} is the
 * default ({@link IdempotentClient.Builder#httpClient}); {@code idempotent-client-okhttp} and
 * {@code idempotent-client-spring} bring OkHttp and Spring's {@code RestClient}, so a service keeps its own stack and
 * its interceptors. Set one with {@link IdempotentClient.Builder#transport(Transport)}.
 *
 * <p>What an implementation must do, or the protocol's promises break:
 * <ul>
 *   <li>Send the attempt once, as given: its method, URI, headers (the key header among them, unless the key is in
 *       the body) and body bytes. Never resend it (no retry on a dropped connection, no redirect followed): a resend
 *       behind the client's back is a second request the classifier, the attempt count and the events never see.</li>
 *   <li>Answer with any status, never an exception for one: a 409 or a 503 is for the client to classify.</li>
 *   <li>Keep at most {@link Attempt#maxBodyBytes()} of the body and stop reading there ({@link Answer#read} does
 *       it); the client cuts a longer body itself, but only a transport can avoid holding it.</li>
 *   <li>Fail the future with an {@link IOException} when no whole answer arrived (refused, reset, timed out).</li>
 *   <li>Abort the exchange, or at least abandon it, when the future is cancelled: the client cancels it when the
 *       attempt's budget ({@link Attempt#timeout()}) runs out, when its caller cancels, and on {@code close()}; a
 *       blocking {@code send} waits on the future and cancels it when interrupted.</li>
 * </ul>
 * Implementations are thread-safe: one serves every call of a client. The client never closes a transport.
 */
@FunctionalInterface
public interface Transport {

    /**
     * Starts one attempt.
     *
     * @param attempt what to send, and its limits
     * @return the answer; or failed with an {@link IOException} (possibly wrapped in a
     *     {@link java.util.concurrent.CompletionException}) when none arrived. Cancelling it ends the exchange
     */
    CompletableFuture<Answer> send(Attempt attempt);

    /**
     * One attempt, as the client built it.
     *
     * @param method       the HTTP method
     * @param uri          the absolute URI; keep it out of logs
     * @param headers      every header to send: the request's, {@code Content-Type} when the request has a body
     *                     type, and the key header unless the key is in the body
     * @param body         the body bytes, empty for none; not copied, never to be changed
     * @param key          the call's key as the caller gave it (already in {@code headers} or {@code body}), for an
     *                     interceptor's use
     * @param number       which attempt of the call this is, from 1
     * @param timeout      the attempt's budget from now; the client cancels the future when it runs out
     * @param maxBodyBytes the most of the answer's body to keep
     */
    record Attempt(String method, URI uri, HttpHeaders headers, byte[] body, String key, int number, Duration timeout,
            int maxBodyBytes) {
        /**
         * Checks for nulls.
         *
         * @param method       the HTTP method
         * @param uri          the URI
         * @param headers      the headers
         * @param body         the body
         * @param key          the key
         * @param number       the attempt number
         * @param timeout      the budget
         * @param maxBodyBytes the body limit
         */
        public Attempt {
            Objects.requireNonNull(method, "method");
            Objects.requireNonNull(uri, "uri");
            Objects.requireNonNull(headers, "headers");
            Objects.requireNonNull(body, "body");
            Objects.requireNonNull(key, "key");
            Objects.requireNonNull(timeout, "timeout");
        }

        /** {@return the method and the sizes only: no URI, no header value, no body, no key} */
        @Override
        public String toString() {
            return "Attempt[method=" + method + ", number=" + number + ", bodyBytes=" + body.length + "]";
        }
    }

    /**
     * One answer: status, headers and the body up to the attempt's limit.
     *
     * @param status    the HTTP status
     * @param headers   the response headers
     * @param body      the body, or its first {@code maxBodyBytes} when truncated; not copied
     * @param truncated whether the server sent more than was kept
     */
    record Answer(int status, HttpHeaders headers, byte[] body, boolean truncated) {
        /**
         * Checks for nulls.
         *
         * @param status    the HTTP status
         * @param headers   the response headers
         * @param body      the body
         * @param truncated whether it was cut
         */
        public Answer {
            Objects.requireNonNull(headers, "headers");
            Objects.requireNonNull(body, "body");
        }

        /**
         * Reads a body stream up to {@code maxBodyBytes}, never holding more than that plus one small buffer: past
         * it, the answer is marked truncated and the rest is left unread (close the stream without draining it, so
         * the connection is not reused).
         *
         * @param status       the HTTP status
         * @param headers      the response headers
         * @param body         the body stream (not closed here)
         * @param maxBodyBytes the most to keep
         * @return the answer
         * @throws IOException when reading fails
         */
        public static Answer read(int status, HttpHeaders headers, InputStream body, int maxBodyBytes)
                throws IOException {
            byte[] kept = new byte[Math.min(maxBodyBytes, 8192)];
            int size = 0;
            while (true) {
                if (size == kept.length) {
                    if (size == maxBodyBytes) {
                        return new Answer(status, headers, kept, body.read() != -1);
                    }
                    kept = Arrays.copyOf(kept, (int) Math.min(maxBodyBytes, 2L * size));
                }
                int n = body.read(kept, size, kept.length - size);
                if (n < 0) {
                    return new Answer(status, headers, Arrays.copyOf(kept, size), false);
                }
                size += n;
            }
        }

        /** {@return the status and the sizes only: no header value, no body} */
        @Override
        public String toString() {
            return "Answer[status=" + status + ", bodyBytes=" + body.length + (truncated ? ", truncated" : "") + "]";
        }
    }
}
