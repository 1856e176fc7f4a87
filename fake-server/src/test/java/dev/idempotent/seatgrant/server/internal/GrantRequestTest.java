package dev.idempotent.seatgrant.server.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.idempotent.seatgrant.server.Seat;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The body parser and the canonical hash. Both were rewritten for speed (a token stream instead of a JSON tree,
 * a canonical form written directly instead of through one), so each is checked against the implementation it
 * replaced, kept here as the oracle: every body gets the same answer, word for word, and every grant the same
 * hash, which is stored with its key and must not change between versions.
 */
class GrantRequestTest {

    /** A number longer than Jackson's limit (1,000 digits): refused wherever it stands. */
    private static final String LONG_NUMBER = "1".repeat(1200);

    @Test
    void aValidBodyIsReadWhateverTheOrderWhitespaceAndExtraFields() throws Exception {
        GrantRequest grant = GrantRequest.parse(bytes(
                " {\"role\" : \"admin\", \"extra\": [1, {\"a\": null}], \"userId\":\"u\\u00e9\",\n\"workspaceId\":\"w\"} "));

        assertEquals(new GrantRequest("w", "u\u00e9", "admin"), grant);
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "", "  ", "[]", "\"text\"", "{\"workspaceId\":\"w\",\"userId\":\"u\",\"role\":\"member\"} x",
        "{\"workspaceId\":\"w\",\"userId\":\"u\",\"role\":\"member\"}{}", "{\"workspaceId\":\"w\",\"workspaceId\":\"w\"}",
        "{\"workspaceId\":1,\"userId\":\"u\",\"role\":\"member\"}", "{\"userId\":\"u\",\"role\":\"member\"}",
        "{\"workspaceId\":null,\"userId\":\"u\",\"role\":\"member\"}", "{\"workspaceId\":\"w\",\"userId\":\" u\",\"role\":\"member\"}",
        "{\"workspaceId\":\"w\",\"userId\":\"u\",\"role\":\"owner\"}", "{\"workspaceId\":\"w\",\"userId\":\"u\",\"role\":\" \"}",
        "{\"a\":[1,2}", "{\"a\":\"\\q\"}", "{\"a\":[\"\\q\"]}", "[{\"a\":\"\\q\"}]", "{\"a\":[\"\u0001\"]}",
    })
    void everyRefusalMatchesTheTreeParserWordForWord(String body) {
        GrantRequest.Invalid refused = assertThrows(GrantRequest.Invalid.class, () -> GrantRequest.parse(bytes(body)));
        assertEquals(TreeOracle.outcome(bytes(body)), refused.slug() + ": " + refused.getMessage());
    }

    @Test
    void aNumberBeyondTheParsersLimitRefusesTheBodyEvenInAFieldNobodyReads() {
        byte[] body = bytes("{\"workspaceId\":\"w\",\"userId\":\"u\",\"role\":\"member\",\"n\":[" + LONG_NUMBER + "]}");

        GrantRequest.Invalid refused = assertThrows(GrantRequest.Invalid.class, () -> GrantRequest.parse(body));

        assertEquals("malformed-json: the body is not valid JSON", refused.slug() + ": " + refused.getMessage());
        assertEquals(TreeOracle.outcome(body), refused.slug() + ": " + refused.getMessage());
    }

    /**
     * Thousands of bodies, valid and broken in every way a generator can think of (fields in any order, wrong
     * types, nulls, duplicates, nesting, escapes, lone surrogates, huge numbers, truncation, trailing tokens, flipped
     * bytes): the stream parser and the tree parser it replaced give the same grant or the same refusal.
     */
    @Test
    void theStreamParserAnswersEveryGeneratedBodyAsTheTreeParserDid() {
        Random random = new Random(20261129L);
        int refused = 0;
        for (int i = 0; i < 6000; i++) {
            byte[] body = BodyGenerator.body(random);
            String expected = TreeOracle.outcome(body);
            String actual;
            try {
                actual = "ok: " + GrantRequest.parse(body);
            } catch (GrantRequest.Invalid e) {
                actual = e.slug() + ": " + e.getMessage();
                refused++;
            }
            assertEquals(expected, actual, () -> "body: " + new String(body, StandardCharsets.UTF_8));
        }
        // The generator must exercise both sides, or the comparison proves little.
        assertNotEquals(0, refused);
        assertNotEquals(6000, refused);
    }

    @Test
    void theCanonicalHashIsTheOneEarlierVersionsStored() throws Exception {
        String[] ids = {"w", "ws_1", "quote\"d", "back\\slash", "sl/ash", "caf\u00e9", "\u6f22\u5b57", "emoji \ud83d\ude00",
            "<tag>&amp;", "x".repeat(255), "tab\tinside", "\u2028"};
        for (String workspace : ids) {
            for (String user : ids) {
                for (String role : Seat.ROLES) {
                    GrantRequest grant = new GrantRequest(workspace, user, role);
                    assertEquals(TreeOracle.hash(grant), grant.canonicalHash(), grant::toString);
                }
            }
        }
    }

    /**
     * Pinned values, computed outside Java too ({@code printf '["w","u","member"]' | sha256sum}): the oracle above
     * is today's Jackson, and a change in how Jackson writes JSON would move both sides of that comparison at once.
     */
    @Test
    void theCanonicalHashOfKnownGrantsIsPinned() {
        assertEquals("0dfd2c8d816a926b6c0c48e01cf9cb6606994e419bc2070b7a5d516df147d673",
                new GrantRequest("w", "u", "member").canonicalHash());
        assertEquals("0bf81f6fc127a5574f8a208eb9caa366631a28b1bcaf59bd2071094a02ec1a60",
                new GrantRequest("quote\"d", "back\\slash", "admin").canonicalHash());
        assertEquals("19c453c2b4f8229e706635171bf2113bfe7fd7e8c7498ffd5f40ffc487b6a3e4",
                new GrantRequest("caf\u00e9", "\ud83d\ude00", "viewer").canonicalHash());
    }

    @Test
    void theHashTellsFieldsApartAndIgnoresFormatting() throws Exception {
        GrantRequest a = GrantRequest.parse(bytes("{\"workspaceId\":\"w\",\"userId\":\"u\",\"role\":\"member\"}"));
        GrantRequest sameReordered = GrantRequest.parse(bytes("{ \"role\":\"member\", \"userId\":\"u\", \"workspaceId\":\"w\" }"));

        assertEquals(a.canonicalHash(), sameReordered.canonicalHash());
        assertNotEquals(a.canonicalHash(), new GrantRequest("u", "w", "member").canonicalHash());
        assertNotEquals(new GrantRequest("a,b", "c", "member").canonicalHash(),
                new GrantRequest("a", "b,c", "member").canonicalHash());
        assertEquals(64, a.canonicalHash().length());
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    /** The parser and hash this server used before the stream parser: a JSON tree, then the three fields. */
    private static final class TreeOracle {
        private static final ObjectMapper STRICT = new ObjectMapper()
                .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
                .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

        static String outcome(byte[] body) {
            String text;
            try {
                text = StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(body)).toString();
            } catch (CharacterCodingException e) {
                return "malformed-json: the body is not valid UTF-8";
            }
            JsonNode root;
            try {
                root = STRICT.readTree(text);
            } catch (JsonProcessingException e) {
                return "malformed-json: the body is not valid JSON";
            }
            if (root == null || root.isMissingNode()) {
                return "malformed-json: the body is empty; expected a JSON object";
            }
            if (!root.isObject()) {
                return "malformed-json: the body must be a JSON object";
            }
            List<String> values = new ArrayList<>();
            for (String name : List.of("workspaceId", "userId", "role")) {
                JsonNode value = root.get(name);
                if (value == null || value.isNull()) {
                    return "invalid-field: " + name + " is required";
                }
                if (!value.isTextual()) {
                    return "invalid-field: " + name + " must be a string";
                }
                String why = name.equals("role") ? (value.textValue().isBlank() ? "must not be blank" : null)
                        : GrantRequest.idProblem(value.textValue());
                if (why != null) {
                    return "invalid-field: " + name + " " + why;
                }
                values.add(value.textValue());
            }
            if (!Seat.ROLES.contains(values.get(2))) {
                return "invalid-field: role must be one of admin, member, viewer";
            }
            return "ok: " + new GrantRequest(values.get(0), values.get(1), values.get(2));
        }

        static String hash(GrantRequest grant) throws Exception {
            String canonical = STRICT.valueToTree(List.of(grant.workspaceId(), grant.userId(), grant.role())).toString();
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(canonical.getBytes(StandardCharsets.UTF_8)));
        }
    }

    /** Bodies for the comparison: mostly near-valid grants, damaged in one or more ways. */
    private static final class BodyGenerator {
        private static final String[] IDS = {"w", "u_1", "caf\u00e9", " padded", "padded ", "", "  ", "x".repeat(256),
            "ctl\\u0001", "lone\\ud800", "pair\\ud83d\\ude00", "quote\\\"", "back\\\\", "tab\\t", "\\u00e9"};
        private static final String[] ROLES = {"member", "admin", "viewer", "owner", "", " ", "MEMBER"};
        private static final String[] OTHER_VALUES = {"1", "-0.5", "1e400", "123456789012345678901234567890", "true",
            "false", "null", "[]", "{}", "[1,[2,[3]]]", "{\"a\":{\"b\":[null]}}", "\"s\"", "\"\\u0000\"", "\"\\x\"",
            "01", "NaN", "[1,]", "{\"k\":1,\"k\":2}", LONG_NUMBER, "1e99999"};

        static byte[] body(Random random) {
            String text;
            switch (random.nextInt(12)) {
                case 0 -> text = "[" + value(random) + "]";
                case 1 -> text = value(random);
                case 2 -> text = "[".repeat(1500) + "]".repeat(1500);
                case 3 -> text = " ".repeat(random.nextInt(3));
                default -> text = object(random);
            }
            int damage = random.nextInt(10);
            if (damage == 0 && !text.isEmpty()) {
                text = text.substring(0, random.nextInt(text.length()));
            } else if (damage == 1) {
                text = text + (random.nextBoolean() ? " {}" : " x");
            }
            byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
            if (damage == 2 && bytes.length > 0) {
                bytes[random.nextInt(bytes.length)] = (byte) random.nextInt(256);
            }
            return bytes;
        }

        private static String object(Random random) {
            List<String> members = new ArrayList<>();
            String[][] fields = {{"workspaceId", pick(random, IDS)}, {"userId", pick(random, IDS)},
                {"role", pick(random, ROLES)}};
            for (String[] field : fields) {
                int form = random.nextInt(12);
                if (form == 0) {
                    continue; // missing
                }
                String value = form == 1 ? pick(random, OTHER_VALUES) : "\"" + field[1] + "\"";
                members.add("\"" + field[0] + "\"" + space(random) + ":" + space(random) + value);
                if (form == 2) {
                    members.add("\"" + field[0] + "\":\"again\"");
                }
            }
            for (int extra = random.nextInt(3); extra > 0; extra--) {
                members.add("\"extra" + random.nextInt(3) + "\":" + pick(random, OTHER_VALUES));
            }
            Collections.shuffle(members, random);
            return "{" + space(random) + String.join("," + space(random), members) + space(random) + "}";
        }

        private static String value(Random random) {
            return random.nextBoolean() ? pick(random, OTHER_VALUES) : object(random);
        }

        private static String space(Random random) {
            return random.nextInt(4) == 0 ? " \n\t".substring(0, 1 + random.nextInt(3)) : "";
        }

        private static String pick(Random random, String[] options) {
            return options[random.nextInt(options.length)];
        }
    }
}
