package dev.idempotent.client.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The body's end and its deadline, in each order the JDK's thread and the sweeping thread can reach them, played
 * on one thread against the JDK's own {@code fromSubscriber} wrapper: whichever comes first decides the body, and
 * nothing delivered after a timeout turns it back into an answer. {@link Transport.Deadlines#close()} stands in
 * for the sweeper (it expires every body being read).
 */
class TimedBodyTest {

    private final Transport.Deadlines deadlines = new Transport.Deadlines("timed-body-test");
    private final HttpResponse.BodySubscriber<byte[]> body = deadlines.handler(Duration.ofSeconds(30)).apply(null);
    private final Subscription subscription = new Subscription();

    @AfterEach
    void stopSweeper() {
        deadlines.close();
    }

    private static final class Subscription implements Flow.Subscription {
        volatile boolean cancelled;

        @Override
        public void request(long n) {
        }

        @Override
        public void cancel() {
            cancelled = true;
        }
    }

    private static List<ByteBuffer> chunk(String text) {
        return List.of(ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8)));
    }

    private byte[] answer() throws Exception {
        return body.getBody().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    private void assertTimedOut() {
        ExecutionException e = assertThrows(ExecutionException.class, this::answer);
        HttpTimeoutException timeout = assertInstanceOf(HttpTimeoutException.class, e.getCause());
        assertEquals(Transport.TimedBody.TIMED_OUT, timeout.getMessage());
    }

    @Test
    void aBodyThatEndsInTimeIsTheAnswer() throws Exception {
        body.onSubscribe(subscription);
        body.onNext(chunk("{\"id\":"));
        body.onNext(chunk("\"o_1\"}"));
        body.onComplete();
        assertArrayEquals("{\"id\":\"o_1\"}".getBytes(StandardCharsets.UTF_8), answer());
        assertFalse(subscription.cancelled);
    }

    @Test
    void theDeadlineMidBodyCancelsTheReadAndWhatFollowsIsIgnored() throws Exception {
        body.onSubscribe(subscription);
        body.onNext(chunk("{\"id\":"));
        deadlines.close();
        assertTrue(subscription.cancelled, "the read was cancelled");
        assertTimedOut();
        // The JDK's thread may still deliver what it had in hand, and end the body: the timeout stands.
        body.onNext(chunk("\"o_1\"}"));
        body.onComplete();
        assertTimedOut();
    }

    @Test
    void theDeadlineBeforeTheBodyStartsCancelsItOnArrival() {
        deadlines.close();
        assertTimedOut();
        body.onSubscribe(subscription);
        assertTrue(subscription.cancelled, "a body that starts after its deadline is cancelled at once");
    }

    @Test
    void theDeadlineAfterTheEndChangesNothing() throws Exception {
        body.onSubscribe(subscription);
        body.onNext(chunk("{}"));
        body.onComplete();
        deadlines.close();
        assertArrayEquals("{}".getBytes(StandardCharsets.UTF_8), answer());
        assertFalse(subscription.cancelled, "a finished read is not cancelled");
    }

    @Test
    void theJdksFailureBeforeTheDeadlineIsTheFailure() {
        body.onSubscribe(subscription);
        body.onError(new java.io.EOFException("reset"));
        deadlines.close();
        ExecutionException e = assertThrows(ExecutionException.class, this::answer);
        assertInstanceOf(java.io.EOFException.class, e.getCause());
        assertFalse(subscription.cancelled);
    }
}
