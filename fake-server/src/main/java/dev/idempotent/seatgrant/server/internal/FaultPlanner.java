package dev.idempotent.seatgrant.server.internal;

import dev.idempotent.seatgrant.server.FaultPlan;
import dev.idempotent.seatgrant.server.FaultRule;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Applies a {@link FaultPlan} to the stream of requests: counts attempts per key (or body), keeps each rule's
 * {@code every} and {@code times} counters and draws {@code probability} from the plan's seeded random, so the
 * same plan over the same request order faults the same requests.
 *
 * <p>Thread-safe: one lock, held only for counter arithmetic (no I/O). Bounded: at most
 * {@link #MAX_TRACKED_IDENTITIES} attempt counts, the least recently seen forgotten first.
 */
public final class FaultPlanner {

    /**
     * The most identities (keys, or body hashes) whose attempts are counted at once. Past it, the one seen least
     * recently is forgotten, and its next request counts as attempt 1 again: a retry arrives within seconds of
     * its first attempt, long before a hundred thousand other identities push it out. About 15 MB at the bound
     * with typical keys (an identity of up to 259 characters is at most about 0.6 KB), so a million grants cost
     * no more than a hundred thousand.
     */
    static final int MAX_TRACKED_IDENTITIES = 100_000;

    private FaultPlan plan;
    private Random random;
    private int[] matched;
    private int[] applied;
    /** Access-ordered, so the eldest entry is the identity seen least recently. */
    private final Map<String, Integer> attempts = new LinkedHashMap<>(1024, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Integer> eldest) {
            return size() > MAX_TRACKED_IDENTITIES;
        }
    };

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
