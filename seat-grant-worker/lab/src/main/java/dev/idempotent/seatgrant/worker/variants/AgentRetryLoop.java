package dev.idempotent.seatgrant.worker.variants;

import dev.idempotent.seatgrant.worker.Sleeper;
import java.time.Duration;

/**
 * The fixture's retry loop, kept identical for the variants that inherit it: every exception goes into one
 * sleep of 100 ms x 2^attempt, five attempts, then {@code exhausted_retries:<requestId>}. Not a classifier.
 */
final class AgentRetryLoop {

    /** One try of whatever the variant does per attempt. */
    @FunctionalInterface
    interface Attempt {
        GrantHandler.Handled run() throws Exception;
    }

    private static final int MAX_ATTEMPTS = 5;

    private final Sleeper sleeper;

    AgentRetryLoop(Sleeper sleeper) {
        this.sleeper = sleeper;
    }

    GrantHandler.Handled run(String requestId, Attempt attempt) throws Exception {
        int tries = 0;
        while (tries < MAX_ATTEMPTS) {
            try {
                return attempt.run();
            } catch (Exception err) {
                tries += 1;
                sleeper.sleep(Duration.ofMillis(100L * (1L << tries)));
            }
        }
        throw new IllegalStateException("exhausted_retries:" + requestId);
    }
}
