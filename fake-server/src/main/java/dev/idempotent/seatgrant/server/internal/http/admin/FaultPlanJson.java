package dev.idempotent.seatgrant.server.internal.http.admin;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.idempotent.seatgrant.server.FaultPlan;
import dev.idempotent.seatgrant.server.InvalidFaultPlanException;
import dev.idempotent.seatgrant.server.internal.http.Reply;
import io.netty.handler.codec.http.FullHttpRequest;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/** Fault plans as the admin API reads and writes them: a plan or a shipped scenario's name in, a named plan out. */
final class FaultPlanJson {

    private static final ObjectMapper JSON = new ObjectMapper();

    private FaultPlanJson() {
    }

    /**
     * The plan a {@code POST /__admin/faults} body asks for: a whole plan, or {@code {"scenario": "NAME"}} for a
     * shipped one.
     *
     * @throws InvalidFaultPlanException with the reason the body is not a plan
     */
    static FaultPlan planFrom(FullHttpRequest request) {
        String text;
        try {
            text = strictUtf8(request.content().nioBuffer());
        } catch (CharacterCodingException e) {
            throw new InvalidFaultPlanException("fault plan is not valid UTF-8");
        }
        JsonNode root;
        try {
            root = JSON.readTree(text);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            root = null;
        }
        if (root != null && root.isObject() && root.has("scenario")) {
            JsonNode name = root.get("scenario");
            if (root.size() != 1 || !name.isTextual()) {
                throw new InvalidFaultPlanException("a scenario request is {\"scenario\": \"NAME\"} and nothing else");
            }
            if (!FaultPlan.SCENARIOS.contains(name.textValue())) {
                throw new InvalidFaultPlanException("unknown scenario; known: "
                        + String.join(", ", FaultPlan.SCENARIOS));
            }
            return FaultPlan.scenario(name.textValue());
        }
        return FaultPlan.parse(text);
    }

    /** The plan in its JSON form plus {@code "scenario"}: the shipped scenario it equals, or null. */
    static Reply planReply(FaultPlan plan) {
        try {
            ObjectNode node = (ObjectNode) JSON.readTree(plan.toJson());
            node.put("scenario", Shipped.nameOf(plan));
            return Reply.json(200, node);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException("a plan always serialises", e);
        }
    }

    private static String strictUtf8(ByteBuffer bytes) throws CharacterCodingException {
        return StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT)
                .decode(bytes).toString();
    }

    /** The shipped scenarios' plans, loaded once, to name the one a plan in force came from. */
    private static final class Shipped {
        static final Map<String, FaultPlan> PLANS;

        static {
            Map<String, FaultPlan> plans = new LinkedHashMap<>();
            FaultPlan.SCENARIOS.forEach(name -> plans.put(name, FaultPlan.scenario(name)));
            PLANS = Map.copyOf(plans);
        }

        static String nameOf(FaultPlan plan) {
            for (String name : FaultPlan.SCENARIOS) {
                if (PLANS.get(name).equals(plan)) {
                    return name;
                }
            }
            return null;
        }
    }
}
