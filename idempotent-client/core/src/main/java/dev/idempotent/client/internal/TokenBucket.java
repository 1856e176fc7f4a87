package dev.idempotent.client.internal;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * The retry budget's tokens: a resend takes {@code retryCost}, a call that succeeds gives back {@code successRefund},
 * never above {@code capacity}. Lock-free (one compare-and-set per take or refund) and thread-safe.
 */
public final class TokenBucket {

    private final int capacity;
    private final int retryCost;
    private final int successRefund;
    private final AtomicInteger tokens;

    /**
     * A full bucket.
     *
     * @param capacity      the most tokens it holds, and how many it starts with
     * @param retryCost     what one resend takes
     * @param successRefund what one successful call gives back
     */
    public TokenBucket(int capacity, int retryCost, int successRefund) {
        this.capacity = capacity;
        this.retryCost = retryCost;
        this.successRefund = successRefund;
        this.tokens = new AtomicInteger(capacity);
    }

    /** {@return whether a resend was paid for; when false, nothing was taken} */
    public boolean payForRetry() {
        return tokens.getAndUpdate(t -> t >= retryCost ? t - retryCost : t) >= retryCost;
    }

    /** Gives back what a successful call earns, up to the capacity. */
    public void refundSuccess() {
        tokens.getAndUpdate(t -> Math.min(capacity, t + successRefund));
    }

    /** {@return the tokens left} */
    public int available() {
        return tokens.get();
    }

    @Override
    public String toString() {
        return "TokenBucket[" + available() + " of " + capacity + ", retryCost=" + retryCost + ", successRefund="
                + successRefund + "]";
    }
}
