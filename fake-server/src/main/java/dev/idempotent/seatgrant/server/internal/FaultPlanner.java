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
 * <p>Thread-safe: one lock, held only for counter arithmetic (no I/O). Bounded twice: at most
 * {@link #MAX_TRACKED_IDENTITIES} attempt counts and {@link #MAX_TRACKED_BYTES} of heap for them, the least
 * recently seen forgotten first. Identities are short whatever a client sends: a key is at most 255 characters,
 * a keyless POST is named by its body's hash, and a GET by a hash of its target ({@link #targetIdentity}).
 */
public final class FaultPlanner {

    /**
     * The most identities (keys, or body hashes) whose attempts are counted at once. Past it, the one seen least
     * recently is forgotten, and its next request counts as attempt 1 again: a retry arrives within seconds of
     * its first attempt, long before a hundred thousand other identities push it out. About 18 MB at the bound
     * with typical keys (36 characters), so a million grants cost no more than a hundred thousand.
     */
    static final int MAX_TRACKED_IDENTITIES = 100_000;

    /**
     * The most heap the attempt counts hold, estimated ({@link #trackedBytes}): 24 MiB, which typical keys never
     * reach before {@link #MAX_TRACKED_IDENTITIES}, and keys of the longest kind (255 characters) reach at about
     * 40,000.
     */
    static final long MAX_TRACKED_BYTES = 24L * 1024 * 1024;

    /** A map entry, its boxed count and the string's header, beside the string's characters. */
    private static final int IDENTITY_OVERHEAD_BYTES = 100;

    private FaultPlan plan;
    private Random random;
    private int[] matched;
    private int[] applied;
    /** Access-ordered, so the eldest entry is the identity seen least recently. */
    private final Map<String, Integer> attempts = new LinkedHashMap<>(1024, 0.75f, true);
    private long bytes;

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
        int attempt = count(identity);
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
        bytes = 0;
    }

    /** How many identities have their attempts counted now. */
    synchronized int trackedIdentities() {
        return attempts.size();
    }

    /** The heap the attempt counts hold now, as estimated for {@link #MAX_TRACKED_BYTES}. */
    synchronized long trackedBytes() {
        return bytes;
    }

    /**
     * The identity of a request that carries neither a key nor a body: its method and a SHA-256 of its target
     * (path and query, as sent), so that an 8 KB query costs the planner no more than a short one.
     */
    public static String targetIdentity(String method, String target) {
        try {
            byte[] hash = java.security.MessageDigest.getInstance("SHA-256")
                    .digest(target.getBytes(java.nio.charset.StandardCharsets.UTF_8));
            return method + " sha256:" + java.util.HexFormat.of().formatHex(hash);
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }

    /** Counts one more attempt of {@code identity}, forgetting the least recently seen past either bound. */
    private int count(String identity) {
        Integer before = attempts.get(identity);
        int attempt = before == null ? 1 : before + 1;
        attempts.put(identity, attempt);
        if (before == null) {
            bytes += cost(identity);
            java.util.Iterator<Map.Entry<String, Integer>> eldest = attempts.entrySet().iterator();
            while (attempts.size() > MAX_TRACKED_IDENTITIES || bytes > MAX_TRACKED_BYTES) {
                bytes -= cost(eldest.next().getKey());
                eldest.remove();
            }
        }
        return attempt;
    }

    private static long cost(String identity) {
        return IDENTITY_OVERHEAD_BYTES + 2L * identity.length();
    }

    private void install(FaultPlan newPlan) {
        plan = newPlan;
        random = new Random(newPlan.seed());
        matched = new int[newPlan.rules().size()];
        applied = new int[newPlan.rules().size()];
    }
}
