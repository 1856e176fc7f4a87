package dev.idempotent.client.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.core.JsonPointer;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** What {@code IdempotentResponse.field} reads: scalars as written, nothing from containers, null or a broken body. */
class JsonFieldTest {

    static Stream<Arguments> cases() {
        return Stream.of(
                Arguments.of("/code", "{\"code\":\"idempotent_creation_conflict\"}", "idempotent_creation_conflict"),
                Arguments.of("/code", "{\"code\":\"\"}", ""),
                Arguments.of("/n", "{\"n\":1.50}", "1.50"),
                Arguments.of("/n", "{\"n\":1e2}", "1e2"),
                Arguments.of("/n", "{\"n\":-0}", "-0"),
                Arguments.of("/n", "{\"n\":123456789012345678901234567890}", "123456789012345678901234567890"),
                Arguments.of("/b", "{\"b\":false}", "false"),
                Arguments.of("/b", "{\"b\":true}", "true"),
                Arguments.of("/b", "{\"b\":null}", null),
                Arguments.of("/b", "{\"b\":{\"c\":1}}", null),
                Arguments.of("/b", "{\"b\":[1]}", null),
                Arguments.of("/b", "{\"c\":1}", null),
                Arguments.of("/error/links/conflicting_resource_id",
                        "{\"error\":{\"code\":409,\"links\":{\"conflicting_resource_id\":\"PM123\"}}}", "PM123"),
                Arguments.of("/errors/0/code", "{\"errors\":[{\"code\":\"a\"},{\"code\":\"b\"}]}", "a"),
                Arguments.of("/errors/1/code", "{\"errors\":[{\"code\":\"a\"},{\"code\":\"b\"}]}", "b"),
                Arguments.of("/id", "{\"id\":\"first\",\"id\":\"second\"}", "second"),
                Arguments.of("/id", "{\"id\":\"x\",\"amount\":}", null),
                Arguments.of("/id", "{\"id\":\"x\"} {\"id\":\"y\"}", null),
                Arguments.of("/id", "", null),
                Arguments.of("/id", "not json", null));
    }

    @ParameterizedTest
    @MethodSource("cases")
    void findsTheScalarAtThePointerAsWritten(String pointer, String body, String expected) {
        assertEquals(Optional.ofNullable(expected),
                JsonField.find(body.getBytes(StandardCharsets.UTF_8), JsonPointer.compile(pointer)));
    }
}
