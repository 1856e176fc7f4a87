package dev.idempotent.client.internal;

import static dev.idempotent.client.internal.Answers.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import com.fasterxml.jackson.core.JsonPointer;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The resource id is read from the body as a stream, not a tree, yet finds what Jackson's tree finds at the same
 * pointer: each case states the id expected and checks the tree agrees, so the streamed read cannot drift from the
 * rule the docs give (a non-blank string or an integer at the pointer; nothing from a body that does not parse).
 */
class ResourceIdTest {

    static Stream<Arguments> cases() {
        return Stream.of(
                Arguments.of("/id", "{\"id\":\"ord_1\"}", "ord_1"),
                Arguments.of("/id", "{\"amount\":5,\"id\":\"ord_1\",\"lines\":[{\"id\":\"x\"}]}", "ord_1"),
                Arguments.of("/id", "{\"id\":\"  \"}", null),
                Arguments.of("/id", "{\"id\":42}", "42"),
                Arguments.of("/id", "{\"id\":-0}", "0"),
                Arguments.of("/id", "{\"id\":123456789012345678901234567890}", "123456789012345678901234567890"),
                Arguments.of("/id", "{\"id\":1.5}", null),
                Arguments.of("/id", "{\"id\":1e2}", null),
                Arguments.of("/id", "{\"id\":10.0}", null),
                Arguments.of("/id", "{\"id\":-9223372036854775808}", "-9223372036854775808"),
                Arguments.of("/id", "{\"id\":true}", null),
                Arguments.of("/id", "{\"id\":null}", null),
                Arguments.of("/id", "{\"id\":{\"id\":\"inner\"}}", null),
                Arguments.of("/id", "{\"id\":[\"ord_1\"]}", null),
                Arguments.of("/id", "{\"data\":{\"id\":\"inner\"}}", null),
                Arguments.of("/id", "{\"data\":{\"id\":\"inner\"},\"id\":\"outer\"}", "outer"),
                // A name given twice: the last value, as the tree keeps it.
                Arguments.of("/id", "{\"id\":\"first\",\"id\":\"second\"}", "second"),
                Arguments.of("/id", "{\"id\":\"first\",\"id\":{}}", null),
                // Broken after the id: the body does not parse, so it names nothing.
                Arguments.of("/id", "{\"id\":\"ord_1\",\"amount\":}", null),
                Arguments.of("/id", "{\"id\":\"ord_1\"", null),
                Arguments.of("/id", "{\"id\":\"ord_1\",\"lines\":[1,2", null),
                // What follows the first value is not read, as the tree does not read it.
                Arguments.of("/id", "{\"id\":\"ord_1\"} {\"id\":\"ord_2\"}", "ord_1"),
                Arguments.of("/id", "{\"id\":\"ord_1\"}}", "ord_1"),
                Arguments.of("/id", "[\"ord_1\"]", null),
                Arguments.of("/id", "\"ord_1\"", null),
                Arguments.of("/id", "null", null),
                Arguments.of("/id", "   ", null),
                Arguments.of("/o/id", "{\"o\":{\"status\":\"new\",\"id\":\"o_7\"},\"id\":\"req\"}", "o_7"),
                Arguments.of("/o/id", "{\"o\":[\"o_7\"]}", null),
                Arguments.of("/o/id", "{\"o\":{\"id\":\"o_7\"},\"o\":{}}", null),
                Arguments.of("/items/1/id", "{\"items\":[{\"id\":\"a\"},{\"id\":\"b\"},{\"id\":\"c\"}]}", "b"),
                Arguments.of("/items/1/id", "{\"items\":[{\"id\":\"a\"}]}", null),
                Arguments.of("/items/1/id", "{\"items\":{\"1\":{\"id\":\"named\"}}}", "named"),
                Arguments.of("/0", "[\"first\",\"second\"]", "first"),
                Arguments.of("/01", "[\"first\",\"second\"]", null),
                Arguments.of("/-", "[\"first\",\"second\"]", null),
                Arguments.of("/1", "[[\"nested\"],\"second\"]", "second"),
                Arguments.of("", "\"whole\"", "whole"),
                Arguments.of("", "{\"id\":\"ord_1\"}", null),
                Arguments.of("", "42", "42"),
                Arguments.of("", "true", null),
                Arguments.of("/a~1b", "{\"a/b\":\"slashed\"}", "slashed"),
                Arguments.of("/", "{\"\":\"empty name\"}", "empty name"));
    }

    @ParameterizedTest(name = "{0} in {1}")
    @MethodSource("cases")
    void theStreamedReadFindsWhatTheTreeFinds(String pointer, String body, String expected) {
        Optional<String> want = Optional.ofNullable(expected);
        assertEquals(want, tree(pointer, body), "the tree, the rule the stream must follow");
        Classifier classifier = new Classifier(List.of(), Optional.of(JsonPointer.compile(pointer)));
        Decision.Done created = assertInstanceOf(Decision.Done.class, classifier.classify(json(201, body), 1));
        assertEquals(want, created.answer().resourceId());
    }

    /** The id as a tree finds it: a non-blank string or an integer at the pointer. */
    private static Optional<String> tree(String pointer, String body) {
        try {
            JsonNode root = new ObjectMapper().readTree(body.getBytes(StandardCharsets.UTF_8));
            JsonNode id = root == null ? null : root.at(pointer);
            if (id != null && (id.isTextual() && !id.asText().isBlank() || id.isIntegralNumber())) {
                return Optional.of(id.asText());
            }
            return Optional.empty();
        } catch (IOException unreadable) {
            return Optional.empty();
        }
    }
}
