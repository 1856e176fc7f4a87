package dev.idempotent.seatgrant.server;

import java.util.Locale;
import java.util.Objects;

/**
 * One rule of a {@link FaultPlan}: which requests it matches, which of those it picks, and the fault to apply.
 *
 * <p>Selectors combine with AND: a rule with {@code attempt: 1} and {@code times: 3} strikes the first attempt
 * of at most three grants. A rule with no selector always applies. Every component but {@code fault} is
 * nullable, meaning "not set".
 *
 * @param method      HTTP method to match (upper case); nullable: any
 * @param path        path to match exactly, or a prefix when it ends in {@code *}; nullable: any
 * @param attempt     apply only to the Nth request with the same Idempotency-Key (keyless: the same body)
 * @param every       apply to every Nth request this rule matches
 * @param probability apply with this probability, drawn from the plan's seeded random
 * @param times       apply at most this many times
 * @param fault       the fault
 * @param status      the status (200 to 599) for {@code status} and {@code status-after-commit}
 * @param retryAfter  a Retry-After value in seconds to send with a status fault
 * @param delayMs     wait this long before the fault; for {@code hang-after-commit}, how long to hold
 */
public record FaultRule(
        String method,
        String path,
        Integer attempt,
        Integer every,
        Double probability,
        Integer times,
        Fault fault,
        Integer status,
        Integer retryAfter,
        Long delayMs) {

    /** The longest delay or hang a rule may ask for; a bound so a plan can never wedge a test. */
    public static final long MAX_DELAY_MS = 600_000;

    /**
     * Checks the rule.
     *
     * @throws InvalidFaultPlanException naming the first thing wrong
     */
    public FaultRule {
        if (fault == null) {
            throw new InvalidFaultPlanException("fault is required");
        }
        if (method != null) {
            if (!method.matches("[A-Za-z]{1,16}")) {
                throw new InvalidFaultPlanException("method must be an HTTP method name");
            }
            method = method.toUpperCase(Locale.ROOT);
        }
        if (path != null && !path.startsWith("/")) {
            throw new InvalidFaultPlanException("path must start with /");
        }
        positive("attempt", attempt);
        positive("every", every);
        positive("times", times);
        if (probability != null && !(probability >= 0.0 && probability <= 1.0)) {
            throw new InvalidFaultPlanException("probability must be between 0 and 1");
        }
        if (fault.needsStatus()) {
            // A 1xx is never a final answer: a client would wait for the real one, so it would be a hang in disguise.
            if (status == null || status < 200 || status > 599) {
                throw new InvalidFaultPlanException("fault " + fault.wireName() + " needs a status between 200 and 599");
            }
        } else if (status != null) {
            throw new InvalidFaultPlanException("status only goes with status or status-after-commit");
        }
        if (retryAfter != null) {
            if (!fault.needsStatus()) {
                throw new InvalidFaultPlanException("retryAfter only goes with status or status-after-commit");
            }
            if (retryAfter < 0) {
                throw new InvalidFaultPlanException("retryAfter must be 0 or more seconds");
            }
        }
        if (delayMs != null && (delayMs < 0 || delayMs > MAX_DELAY_MS)) {
            throw new InvalidFaultPlanException("delayMs must be between 0 and " + MAX_DELAY_MS);
        }
    }

    /**
     * A rule that always applies {@code fault} to any request; add selectors with the {@code with...} methods.
     *
     * @throws InvalidFaultPlanException for {@code status} and {@code status-after-commit}; use {@link #of(Fault, int)}
     */
    public static FaultRule of(Fault fault) {
        return new FaultRule(null, null, null, null, null, null, fault, null, null, null);
    }

    /** A rule that always answers with {@code status} ({@code fault} is {@code STATUS} or {@code STATUS_AFTER_COMMIT}). */
    public static FaultRule of(Fault fault, int status) {
        return new FaultRule(null, null, null, null, null, null, fault, status, null, null);
    }

    public FaultRule withMethodAndPath(String method, String path) {
        return new FaultRule(method, path, attempt, every, probability, times, fault, status, retryAfter, delayMs);
    }

    public FaultRule withAttempt(int attempt) {
        return new FaultRule(method, path, attempt, every, probability, times, fault, status, retryAfter, delayMs);
    }

    public FaultRule withEvery(int every) {
        return new FaultRule(method, path, attempt, every, probability, times, fault, status, retryAfter, delayMs);
    }

    public FaultRule withProbability(double probability) {
        return new FaultRule(method, path, attempt, every, probability, times, fault, status, retryAfter, delayMs);
    }

    public FaultRule withTimes(int times) {
        return new FaultRule(method, path, attempt, every, probability, times, fault, status, retryAfter, delayMs);
    }

    public FaultRule withStatus(int status) {
        return new FaultRule(method, path, attempt, every, probability, times, fault, status, retryAfter, delayMs);
    }

    public FaultRule withRetryAfter(int retryAfter) {
        return new FaultRule(method, path, attempt, every, probability, times, fault, status, retryAfter, delayMs);
    }

    public FaultRule withDelayMs(long delayMs) {
        return new FaultRule(method, path, attempt, every, probability, times, fault, status, retryAfter, delayMs);
    }

    /** True when the method and path selectors accept this request. */
    public boolean matches(String requestMethod, String requestPath) {
        Objects.requireNonNull(requestMethod, "requestMethod");
        Objects.requireNonNull(requestPath, "requestPath");
        if (method != null && !method.equals(requestMethod)) {
            return false;
        }
        if (path == null) {
            return true;
        }
        return path.endsWith("*")
                ? requestPath.startsWith(path.substring(0, path.length() - 1))
                : path.equals(requestPath);
    }

    private static void positive(String name, Integer value) {
        if (value != null && value < 1) {
            throw new InvalidFaultPlanException(name + " must be 1 or more");
        }
    }
}
