package dev.idempotent.seatgrant.server.internal;

import dev.idempotent.seatgrant.server.FaultPlan;
import dev.idempotent.seatgrant.server.FaultRule;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Applies a {@link FaultPlan} to the stream of requests: counts attempts per key (or body), keeps each rule's
 * {@code every} and {@code times} counters and draws {@code probability} from the plan's seeded random, so the
 * same plan over the same request order faults the same requests.
 *
 * <p>Thread-safe: one lock, held only for counter arithmetic (no I/O).
 */
public final class FaultPlanner {

    /** Past this many distinct keys the attempt counts start over; a bound on memory, far above any demo. */
    private static final int MAX_TRACKED_IDENTITIES = 200_000;

    private FaultPlan plan;
    private Random random;
    private int[] matched;
    private int[] applied;
    private final Map<String, Integer> attempts = new HashMap<>();

    public FaultPlanner(FaultPlan plan) {
        install(plan);
    }

    /** The rule that applies to this request (nullable: none) and which attempt it is for its identity. */
    public record Decision(int attempt, FaultRule rule) { }

    /**
     * Counts this request and picks the first rule that applies.
     *
     * @param identity what makes two requests "the same grant": the Idempotency-Key, else the body hash
     */
    public synchronized Decision decide(String method, String path, String identity) {
        if (attempts.size() >= MAX_TRACKED_IDENTITIES && !attempts.containsKey(identity)) {
            attempts.clear();
        }
        int attempt = attempts.merge(identity, 1, Integer::sum);
        List<FaultRule> rules = plan.rules();
        for (int i = 0; i < rules.size(); i++) {
            FaultRule rule = rules.get(i);
            if (!rule.matches(method, path)) {
                continue;
            }
            matched[i]++;
            if (rule.attempt() != null && rule.attempt() != attempt) {
                continue;
            }
            if (rule.every() != null && matched[i] % rule.every() != 0) {
                continue;
            }
            if (rule.times() != null && applied[i] >= rule.times()) {
                continue;
            }
            if (rule.probability() != null && random.nextDouble() >= rule.probability()) {
                continue;
            }
            applied[i]++;
            return new Decision(attempt, rule);
        }
        return new Decision(attempt, null);
    }

    public synchronized FaultPlan plan() {
        return plan;
    }

    /** Installs a new plan with fresh rule counters and random; attempt counts carry on (they are history). */
    public synchronized void replace(FaultPlan newPlan) {
        install(newPlan);
    }

    /** Clears the plan and every counter. */
    public synchronized void reset() {
        install(FaultPlan.none());
        attempts.clear();
    }

    private void install(FaultPlan newPlan) {
        plan = newPlan;
        random = new Random(newPlan.seed());
        matched = new int[newPlan.rules().size()];
        applied = new int[newPlan.rules().size()];
    }
}
