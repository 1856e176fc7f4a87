package dev.idempotent.client.testing;

import dev.idempotent.client.IdempotentClient;
import dev.idempotent.client.IdempotentRequest;
import dev.idempotent.client.IdempotentResponse;
import java.net.URI;
import java.time.Duration;

/**
 * Run in a child JVM with a small heap by {@code BodyLimitTest}: one call to a server that answers with a GiB, then
 * a normal call, with the client's defaults. Prints what it saw on one line and exits 0; any failure, an
 * {@link OutOfMemoryError} included, exits non-zero.
 */
public final class LowHeapCall {

    private LowHeapCall() {
    }

    public static void main(String[] args) {
        try (IdempotentClient client = IdempotentClient.builder().maxAttempts(1)
                .attemptTimeout(Duration.ofSeconds(20)).build()) {
            long start = System.nanoTime();
            IdempotentResponse huge = client.send(IdempotentRequest.post(URI.create(args[0]), "k_huge").json("{}")
                    .build());
            long tookMs = (System.nanoTime() - start) / 1_000_000;
            IdempotentResponse normal = client.send(IdempotentRequest.post(URI.create(args[1]), "k_normal")
                    .json("{}").build());
            System.out.println("status=" + huge.status() + " truncated=" + huge.bodyTruncated() + " bytes="
                    + huge.body().length + " tookMs=" + tookMs + " normal=" + normal.status());
        }
        System.exit(0);
    }
}
