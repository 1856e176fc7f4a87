package dev.idempotent.client.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The body up to its limit, played on one thread against the JDK's own {@code fromSubscriber} wrapper: a body
 * within the limit is whole; one past it keeps exactly the limit, is marked truncated, cancels the read and ignores
 * whatever the JDK still delivers; an abandoned body keeps nothing more.
 */
class LimitedBodyTest {

    private final Subscription subscription = new Subscription();

    private static final class Subscription implements Flow.Subscription {
        final CountDownLatch cancelled = new CountDownLatch(1);
        volatile long requested;

        @Override
        public void request(long n) {
            requested += n;
        }

        @Override
        public void cancel() {
            cancelled.countDown();
        }

        boolean isCancelled() {
            return cancelled.getCount() == 0;
        }
    }

    private static List<ByteBuffer> chunk(String text) {
        return List.of(ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8)));
    }

    private static JdkTransport.LimitedBody.Read read(HttpResponse.BodySubscriber<JdkTransport.LimitedBody.Read> s)
            throws Exception {
        return s.getBody().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    @Test
    void aBodyWithinTheLimitIsWhole() throws Exception {
        HttpResponse.BodySubscriber<JdkTransport.LimitedBody.Read> body = new JdkTransport.LimitedBody(12).apply(null);
        body.onSubscribe(subscription);
        body.onNext(chunk("{\"id\":"));
        body.onNext(chunk("\"o_1\"}"));
        body.onComplete();
        JdkTransport.LimitedBody.Read r = read(body);
        assertArrayEquals("{\"id\":\"o_1\"}".getBytes(StandardCharsets.UTF_8), r.bytes());
        assertFalse(r.truncated(), "exactly the limit is not truncated");
        assertFalse(subscription.isCancelled());
        assertEquals(Long.MAX_VALUE, subscription.requested);
    }

    @Test
    void aBodyPastTheLimitKeepsTheLimitAndCancelsTheRead() throws Exception {
        HttpResponse.BodySubscriber<JdkTransport.LimitedBody.Read> body = new JdkTransport.LimitedBody(8).apply(null);
        body.onSubscribe(subscription);
        body.onNext(List.of(ByteBuffer.wrap("{\"id\"".getBytes(StandardCharsets.UTF_8)),
                ByteBuffer.wrap(":\"o_1\"}".getBytes(StandardCharsets.UTF_8))));
        JdkTransport.LimitedBody.Read r = read(body);
        assertArrayEquals("{\"id\":\"o".getBytes(StandardCharsets.UTF_8), r.bytes());
        assertTrue(r.truncated());
        assertTrue(subscription.cancelled.await(10, TimeUnit.SECONDS), "the rest is not read");
        // What the JDK had in hand may still arrive, and the read then fails: the answer stands.
        body.onNext(chunk("more"));
        body.onError(new java.io.IOException("cancelled"));
        assertArrayEquals("{\"id\":\"o".getBytes(StandardCharsets.UTF_8), read(body).bytes());
    }

    @Test
    void anAbandonedBodyCancelsTheReadEvenBeforeItStarts() {
        JdkTransport.LimitedBody limited = new JdkTransport.LimitedBody(8);
        HttpResponse.BodySubscriber<JdkTransport.LimitedBody.Read> body = limited.apply(null);
        limited.abandon();
        body.onSubscribe(subscription);
        assertTrue(subscription.isCancelled(), "a body given up before it started is cancelled on arrival");
        assertEquals(0, subscription.requested);
    }

    @Test
    void anAbandonedBodyMidReadCancelsItAndKeepsNothingMore() throws Exception {
        JdkTransport.LimitedBody limited = new JdkTransport.LimitedBody(100);
        HttpResponse.BodySubscriber<JdkTransport.LimitedBody.Read> body = limited.apply(null);
        body.onSubscribe(subscription);
        body.onNext(chunk("{\"id\":"));
        limited.abandon();
        assertTrue(subscription.isCancelled());
        body.onNext(chunk("\"o_1\"}"));
        body.onComplete();
        assertArrayEquals("{\"id\":".getBytes(StandardCharsets.UTF_8), read(body).bytes());
    }
}
