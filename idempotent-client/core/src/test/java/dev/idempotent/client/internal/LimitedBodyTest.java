package dev.idempotent.client.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idempotent.client.Transport;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Flow;
import org.junit.jupiter.api.Test;

/**
 * The body up to its limit, played on one thread against the JDK's own {@code ofByteArrayConsumer} subscriber: a
 * body within the limit is whole, in one or many chunks; one past it keeps exactly the limit, is marked truncated
 * and stops the read by throwing into it (the JDK then fails the exchange and closes the connection), and so does
 * whatever the JDK still delivers; an abandoned body keeps nothing more.
 */
class LimitedBodyTest {

    private final Subscription subscription = new Subscription();

    private static final class Subscription implements Flow.Subscription {
        volatile long requested;
        volatile boolean cancelled;

        @Override
        public void request(long n) {
            requested += n;
        }

        @Override
        public void cancel() {
            cancelled = true;
        }
    }

    private static final HttpHeaders HEADERS =
            HttpHeaders.of(Map.of("content-type", List.of("application/json")), (n, v) -> true);

    private static final HttpResponse.ResponseInfo INFO = new HttpResponse.ResponseInfo() {
        @Override
        public int statusCode() {
            return 201;
        }

        @Override
        public HttpHeaders headers() {
            return HEADERS;
        }

        @Override
        public HttpClient.Version version() {
            return HttpClient.Version.HTTP_1_1;
        }
    };

    private static List<ByteBuffer> chunk(String text) {
        return List.of(ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8)));
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void aBodyWithinTheLimitIsWholeAndFinishedInPlace() throws Exception {
        JdkTransport.LimitedBody limited = new JdkTransport.LimitedBody(12);
        HttpResponse.BodySubscriber<Void> body = limited.apply(INFO);
        body.onSubscribe(subscription);
        body.onNext(chunk("{\"id\":"));
        body.onNext(chunk("\"o_1\""));
        body.onNext(chunk("}"));
        body.onComplete();
        assertTrue(body.getBody().toCompletableFuture().isDone(), "finished on the thread that read, no hop");
        assertArrayEquals(bytes("{\"id\":\"o_1\"}"), limited.bytes());
        assertFalse(limited.cut(), "exactly the limit is not truncated");
        Transport.Answer answer = limited.answer();
        assertEquals(201, answer.status());
        assertSame(HEADERS, answer.headers());
        assertFalse(answer.truncated());
        assertFalse(subscription.cancelled);
    }

    @Test
    void aBodyInOneChunkIsKeptAsItCame() {
        JdkTransport.LimitedBody limited = new JdkTransport.LimitedBody(100);
        HttpResponse.BodySubscriber<Void> body = limited.apply(INFO);
        body.onSubscribe(subscription);
        body.onNext(chunk("{\"id\":\"o_1\"}"));
        body.onComplete();
        assertArrayEquals(bytes("{\"id\":\"o_1\"}"), limited.bytes());
        assertSame(limited.bytes(), limited.bytes(), "no copy of a body that came in one chunk");
    }

    @Test
    void anEmptyBodyIsEmpty() {
        JdkTransport.LimitedBody limited = new JdkTransport.LimitedBody(1);
        HttpResponse.BodySubscriber<Void> body = limited.apply(INFO);
        body.onSubscribe(subscription);
        body.onComplete();
        assertArrayEquals(new byte[0], limited.bytes());
        assertFalse(limited.cut());
    }

    @Test
    void aBodyPastTheLimitKeepsTheLimitAndStopsTheRead() throws Exception {
        JdkTransport.LimitedBody limited = new JdkTransport.LimitedBody(8);
        HttpResponse.BodySubscriber<Void> body = limited.apply(INFO);
        body.onSubscribe(subscription);
        body.onNext(chunk("{\"id\""));
        assertFalse(limited.cut());
        assertThrows(JdkTransport.LimitedBody.Stop.class, () -> body.onNext(chunk(":\"o_1\"}")),
                "the read is stopped at the limit");
        assertTrue(limited.cut());
        // What the JDK had in hand may still arrive: it is refused, and the read fails; the answer stands.
        assertThrows(JdkTransport.LimitedBody.Stop.class, () -> body.onNext(chunk("more")));
        body.onError(new java.io.IOException("closed"));
        assertTrue(body.getBody().toCompletableFuture().isCompletedExceptionally());
        Transport.Answer answer = limited.answer();
        assertArrayEquals(bytes("{\"id\":\"o"), answer.body());
        assertTrue(answer.truncated());
        assertEquals(201, answer.status());
        assertSame(HEADERS, answer.headers());
    }

    @Test
    void aFirstChunkPastTheLimitKeepsTheLimit() {
        JdkTransport.LimitedBody limited = new JdkTransport.LimitedBody(3);
        HttpResponse.BodySubscriber<Void> body = limited.apply(INFO);
        body.onSubscribe(subscription);
        assertThrows(JdkTransport.LimitedBody.Stop.class, () -> body.onNext(chunk("{\"id\":1}")));
        assertArrayEquals(bytes("{\"i"), limited.bytes());
        assertTrue(limited.cut());
    }

    @Test
    void aFailedReadIsNotACut() {
        JdkTransport.LimitedBody limited = new JdkTransport.LimitedBody(100);
        HttpResponse.BodySubscriber<Void> body = limited.apply(INFO);
        body.onSubscribe(subscription);
        body.onNext(chunk("{\"id\":"));
        body.onError(new java.io.IOException("reset"));
        assertFalse(limited.cut(), "a reset mid-body is the transport's failure, not an answer");
    }

    @Test
    void anAbandonedBodyMidReadStopsItAndKeepsNothingMore() throws Exception {
        JdkTransport.LimitedBody limited = new JdkTransport.LimitedBody(100);
        HttpResponse.BodySubscriber<Void> body = limited.apply(INFO);
        body.onSubscribe(subscription);
        body.onNext(chunk("{\"id\":"));
        limited.abandon();
        assertThrows(JdkTransport.LimitedBody.Stop.class, () -> body.onNext(chunk("\"o_1\"}")));
        assertArrayEquals(bytes("{\"id\":"), limited.bytes());
        assertFalse(limited.cut(), "an abandoned body is no answer");
        assertFalse(body.getBody().toCompletableFuture().isDone(), "the JDK's failure ends it");
    }
}
