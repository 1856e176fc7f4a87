package dev.idempotent.seatgrant.server;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * An ordered list of {@link FaultRule}s: for each request the first rule that applies wins. Immutable; the
 * server keeps the counters (attempts, every, times) and the seeded random that the rules consult.
 *
 * <p>The JSON form ({@code --fault-plan FILE}, {@code POST /__admin/faults}) is a contract:
 * <pre>{@code
 * {"seed": 7, "rules": [
 *   {"method": "POST", "path": "/v1/seats", "attempt": 1, "fault": "reset-after-commit"},
 *   {"fault": "status-after-commit", "status": 504, "delayMs": 1500}
 * ]}
 * }</pre>
 *
 * @param seed  seeds the random that {@code probability} rules draw from, so a run is reproducible
 * @param rules the rules, first match wins
 */
public record FaultPlan(long seed, List<FaultRule> rules) {

    /** The scenarios shipped with the server; {@link #scenario(String)} loads them. */
    public static final List<String> SCENARIOS = List.of("incident", "incident-fast", "reset", "flaky");

    // Strict for the same reason unknown fields are refused: a repeated "fault" or a second object pasted after
    // the first must not silently pick one of them.
    private static final ObjectMapper MAPPER = new ObjectMapper()
            .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
    private static final Set<String> PLAN_FIELDS = Set.of("seed", "rules", "description");
    private static final Set<String> RULE_FIELDS = Set.of(
            "method", "path", "attempt", "every", "probability", "times",
            "fault", "status", "retryAfter", "delayMs", "comment");

    public FaultPlan {
        rules = List.copyOf(rules);
    }

    /** The plan with no rules: every request is served normally. */
    public static FaultPlan none() {
        return new FaultPlan(0, List.of());
    }

    /** A plan of these rules with seed 0. */
    public static FaultPlan of(FaultRule... rules) {
        return new FaultPlan(0, List.of(rules));
    }

    /**
     * Reads a plan from its JSON form. Unknown fields are refused so a typo ({@code "attempts"}) cannot
     * silently turn a rule into "always"; so are repeated fields and anything after the plan's object.
     *
     * @throws InvalidFaultPlanException naming the first problem
     */
    public static FaultPlan parse(String json) {
        JsonNode root;
        try {
            root = MAPPER.readTree(json);
        } catch (JsonProcessingException e) {
            throw new InvalidFaultPlanException("fault plan is not valid JSON");
        }
        if (root == null || !root.isObject()) {
            throw new InvalidFaultPlanException("fault plan must be a JSON object");
        }
        unknownFields(root, PLAN_FIELDS, "fault plan");
        long seed = 0;
        JsonNode seedNode = root.get("seed");
        if (seedNode != null && !seedNode.isNull()) {
            if (!seedNode.isIntegralNumber() || !seedNode.canConvertToLong()) {
                throw new InvalidFaultPlanException("seed must be an integer");
            }
            seed = seedNode.longValue();
        }
        JsonNode rulesNode = root.get("rules");
        if (rulesNode == null || !rulesNode.isArray()) {
            throw new InvalidFaultPlanException("rules must be an array");
        }
        List<FaultRule> rules = new ArrayList<>();
        for (int i = 0; i < rulesNode.size(); i++) {
            try {
                rules.add(parseRule(rulesNode.get(i)));
            } catch (InvalidFaultPlanException e) {
                throw new InvalidFaultPlanException("rules[" + i + "]: " + e.getMessage());
            }
        }
        return new FaultPlan(seed, rules);
    }

    /**
     * Loads a shipped scenario by name.
     *
     * @throws IllegalArgumentException if there is no such scenario
     */
    public static FaultPlan scenario(String name) {
        if (!SCENARIOS.contains(name)) {
            throw new IllegalArgumentException("unknown scenario; known: " + String.join(", ", SCENARIOS));
        }
        String resource = "scenarios/" + name + ".json";
        try (InputStream in = FaultPlan.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("scenario resource missing from the jar: " + resource);
            }
            return parse(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new IllegalStateException("cannot read scenario resource " + resource, e);
        }
    }

    /**
     * This plan aimed at another route: every rule that names a method or a path matches {@code method} and
     * {@code path} instead, and rules that match any request stay as they are. The shipped scenarios are written
     * for {@code POST /v1/seats}; {@code FaultPlan.scenario("incident").onRoute("POST", "/orders")} is the
     * incident in front of an orders API, which is what {@code proxy --scenario incident --route 'POST /orders'}
     * runs.
     *
     * @param path a path, or a prefix ending in {@code *}, as a rule's {@code path}
     * @throws InvalidFaultPlanException when {@code method} is not a method name or {@code path} does not start
     *                                   with {@code /}
     */
    public FaultPlan onRoute(String method, String path) {
        List<FaultRule> moved = new ArrayList<>(rules.size());
        for (FaultRule rule : rules) {
            moved.add(rule.method() == null && rule.path() == null ? rule : rule.withMethodAndPath(method, path));
        }
        return new FaultPlan(seed, moved);
    }

    /**
     * The shipped scenario this plan is, on its own route or on another ({@link #onRoute}); empty for any other
     * plan. A plan is named by what it is, not by how it was installed.
     */
    public Optional<String> scenarioName() {
        for (String name : SCENARIOS) {
            FaultPlan shipped = Shipped.PLANS.get(name);
            if (shipped.equals(this)) {
                return Optional.of(name);
            }
            FaultRule first = rules.isEmpty() ? null : rules.get(0);
            if (first != null && (first.method() != null || first.path() != null)
                    && shipped.onRoute(first.method(), first.path()).equals(this)) {
                return Optional.of(name);
            }
        }
        return Optional.empty();
    }

    /** The shipped scenarios' plans, loaded once. */
    private static final class Shipped {
        static final Map<String, FaultPlan> PLANS;

        static {
            Map<String, FaultPlan> plans = new LinkedHashMap<>();
            SCENARIOS.forEach(name -> plans.put(name, scenario(name)));
            PLANS = Map.copyOf(plans);
        }
    }

    /** The JSON form, the same shape {@link #parse(String)} reads; unset rule fields are left out. */
    public String toJson() {
        ObjectNode root = MAPPER.createObjectNode();
        root.put("seed", seed);
        ArrayNode array = root.putArray("rules");
        for (FaultRule rule : rules) {
            ObjectNode node = array.addObject();
            putIfSet(node, "method", rule.method());
            putIfSet(node, "path", rule.path());
            putIfSet(node, "attempt", rule.attempt());
            putIfSet(node, "every", rule.every());
            putIfSet(node, "probability", rule.probability());
            putIfSet(node, "times", rule.times());
            node.put("fault", rule.fault().wireName());
            putIfSet(node, "status", rule.status());
            putIfSet(node, "retryAfter", rule.retryAfter());
            putIfSet(node, "delayMs", rule.delayMs());
        }
        return root.toString();
    }

    private static void putIfSet(ObjectNode node, String field, Object value) {
        if (value != null) {
            node.set(field, MAPPER.valueToTree(value));
        }
    }

    private static FaultRule parseRule(JsonNode node) {
        if (node == null || !node.isObject()) {
            throw new InvalidFaultPlanException("a rule must be a JSON object");
        }
        unknownFields(node, RULE_FIELDS, "rule");
        String faultName = text(node, "fault");
        if (faultName == null) {
            throw new InvalidFaultPlanException("fault is required");
        }
        Fault fault = Fault.fromWireName(faultName).orElseThrow(() -> new InvalidFaultPlanException(
                "unknown fault; known: reset, close, status, delay, reset-after-commit, close-after-commit, "
                        + "hang-after-commit, status-after-commit"));
        Long delay = longValue(node, "delayMs");
        JsonNode probability = node.get("probability");
        Double p = null;
        if (probability != null && !probability.isNull()) {
            if (!probability.isNumber()) {
                throw new InvalidFaultPlanException("probability must be a number");
            }
            p = probability.doubleValue();
        }
        return new FaultRule(
                text(node, "method"), text(node, "path"),
                intValue(node, "attempt"), intValue(node, "every"), p, intValue(node, "times"),
                fault, intValue(node, "status"), intValue(node, "retryAfter"), delay);
    }

    private static void unknownFields(JsonNode node, Set<String> known, String what) {
        for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
            String name = it.next().getKey();
            if (!known.contains(name)) {
                throw new InvalidFaultPlanException(what + " has an unknown field; allowed: " + String.join(", ", known.stream().sorted().toList()));
            }
        }
    }

    private static String text(JsonNode node, String field) {
        JsonNode value = node.get(field);
        if (value == null || value.isNull()) {
            return null;
        }
        if (!value.isTextual()) {
            throw new InvalidFaultPlanException(field + " must be a string");
        }
        return value.textValue();
    }

    private static Integer intValue(JsonNode node, String field) {
        JsonNode value = node.get(field);
        if (value == null || value.isNull()) {
            return null;
        }
        if (!value.isIntegralNumber() || !value.canConvertToInt()) {
            throw new InvalidFaultPlanException(field + " must be an integer");
        }
        return value.intValue();
    }

    private static Long longValue(JsonNode node, String field) {
        JsonNode value = node.get(field);
        if (value == null || value.isNull()) {
            return null;
        }
        if (!value.isIntegralNumber() || !value.canConvertToLong()) {
            throw new InvalidFaultPlanException(field + " must be an integer");
        }
        return value.longValue();
    }
}
