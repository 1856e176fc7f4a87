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
import java.util.function.Function;

/** Fault plans as the admin API reads and writes them: a plan or a shipped scenario's name in, a named plan out. */
final class FaultPlanJson {

    private static final ObjectMapper JSON = new ObjectMapper();

    private FaultPlanJson() {
    }

    /**
     * The plan a {@code POST /__admin/faults} body asks for: a whole plan, or {@code {"scenario": "NAME"}} for a
     * shipped one, as {@code scenarios} loads it (a proxy aims it at its route).
     *
     * @throws InvalidFaultPlanException with the reason the body is not a plan
     */
    static FaultPlan planFrom(FullHttpRequest request, Function<String, FaultPlan> scenarios) {
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
            return scenarios.apply(name.textValue());
        }
        return FaultPlan.parse(text);
    }

    /** The plan in its JSON form plus {@code "scenario"}: the shipped scenario it is, on any route, or null. */
    static Reply planReply(FaultPlan plan) {
        try {
            ObjectNode node = (ObjectNode) JSON.readTree(plan.toJson());
            node.put("scenario", plan.scenarioName().orElse(null));
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
}
