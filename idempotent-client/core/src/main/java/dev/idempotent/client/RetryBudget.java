package dev.idempotent.client;

import dev.idempotent.client.internal.TokenBucket;

/**
 * A budget of retries shared across calls, and across clients if they share it, against a retry storm:
 * {@code maxAttempts} bounds one call, only a shared budget bounds what all calls together resend while a provider
 * is failing (the AWS SDK v2's standard retry strategy and gRPC's retry throttling work the same way). Set it with
 * {@link IdempotentClient.Builder#retryBudget(RetryBudget)}; a client has none by default.
 *
 * <p>A token bucket: every attempt after a call's first (the resend after an in-progress 409 too) takes
 * {@code retryCost} tokens; a call that ends created or replayed gives back {@code successRefund}, never above
 * {@code capacity}. When a resend cannot be paid for, the call ends at once with
 * {@link RetriesExhaustedException} whose {@link RetriesExhaustedException#limit()} is
 * {@link RetriesExhaustedException.Limit#BUDGET}, carrying the last answer. The first attempt of a call is never
 * refused. The AWS SDK v2's standard mode is {@code tokenBucket(500, 5, 1)}: 100 resends from full, and then one
 * for every five calls that succeed.
 *
 * <p>Thread-safe and lock-free: a resend or a refund is one compare-and-set.
 */
public final class RetryBudget {

    private final TokenBucket bucket;

    private RetryBudget(TokenBucket bucket) {
        this.bucket = bucket;
    }

    /**
     * A full token bucket.
     *
     * @param capacity      the most tokens it holds, and how many it starts with; at least 1
     * @param retryCost     the tokens one resend takes; at least 1
     * @param successRefund the tokens a call that ends created or replayed gives back; at least 0
     * @return the budget, to share between the clients it should bound together
     * @throws IllegalArgumentException when a number is out of its range
     */
    public static RetryBudget tokenBucket(int capacity, int retryCost, int successRefund) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be at least 1");
        }
        if (retryCost < 1) {
            throw new IllegalArgumentException("retryCost must be at least 1");
        }
        if (successRefund < 0) {
            throw new IllegalArgumentException("successRefund must not be negative");
        }
        return new RetryBudget(new TokenBucket(capacity, retryCost, successRefund));
    }

    /** {@return the tokens left, never more than the capacity} */
    public int available() {
        return bucket.available();
    }

    TokenBucket bucket() {
        return bucket;
    }

    @Override
    public String toString() {
        return "RetryBudget[" + bucket + "]";
    }
}
