package dev.idempotent.client;

import java.util.Optional;

/**
 * A caller's classification rule, asked before the client's defaults, for a provider that marks replays or
 * in-progress answers its own way. The first rule with a verdict wins; a rule with none passes the answer on.
 * Rules see answers only (a transport failure is always retried with the same key). A rule must be thread-safe
 * and fast; one that throws ends the call with its exception (the outcome {@code failed}).
 */
@FunctionalInterface
public interface ResponseRule {

    /**
     * Reads one answer.
     *
     * @param answer  the answer ({@link IdempotentResponse#attempts()} is the attempt that got it;
     *                {@link IdempotentResponse#replayed()} is whether it carried {@code Idempotent-Replayed: true})
     * @param attempt which attempt of the call got it, from 1
     * @return a verdict, or empty to leave the answer to the next rule
     */
    Optional<Verdict> classify(IdempotentResponse answer, int attempt);
}
