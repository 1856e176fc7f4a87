package dev.idempotent.seatgrant.server.internal.http.proxy;

import com.fasterxml.jackson.core.JsonPointer;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What makes two operations look like one intent sent twice: the same method and path, and bodies that differ only
 * in the volatile fields (a timestamp, a nonce, a fresh key in the body), within a window of each other. The
 * {@link ResourceLedger} reports such operations, when each created a resource, as suspected duplicates: unlike a
 * duplicate, a guess, which the journal and the upstream's own data confirm or clear. Immutable.
 *
 * <p>Without volatile fields, two bodies agree when their bytes do. With them, a body is read as JSON, the fields
 * are removed, and what is left is compared with object members in name order and numbers in their canonical
 * form ({@link BodyJson}: {@code 1.0} is {@code 1}, {@code 1e400} is not {@code 1e401}); a body that is not JSON is
 * compared by its bytes. Only then is a body parsed, since parsing is work on the event loop.
 *
 * @param volatileFields the JSON pointers of fields that change on every attempt; may be empty
 * @param window         how close in time two operations must come to be suspected
 */
public record SuspectRule(List<JsonPointer> volatileFields, Duration window) {

    /** The default window: a retry after a lost answer comes within seconds. */
    public static final Duration DEFAULT_WINDOW = Duration.ofSeconds(10);

    public SuspectRule {
        volatileFields = List.copyOf(volatileFields);
    }

    /**
     * A rule from the flags' forms.
     *
     * @param fields JSON pointers such as {@code /sentAt}
     * @throws IllegalArgumentException for a field that is not a JSON pointer, or a window that is not positive
     */
    public static SuspectRule of(List<String> fields, Duration window) {
        List<JsonPointer> pointers = new ArrayList<>(fields.size());
        for (String field : fields) {
            pointers.add(BodyJson.pointer(field, "a volatile field"));
        }
        if (window.isNegative() || window.isZero()) {
            throw new IllegalArgumentException("the suspect window must be more than 0");
        }
        return new SuspectRule(pointers, window);
    }

    /** True when a body must be read as JSON to compare it. */
    boolean readsBody() {
        return !volatileFields.isEmpty();
    }

    /**
     * The shape of a write: a digest of its method, path and body without the volatile fields. Two operations of
     * one shape are suspected when both created a resource within the window.
     *
     * @param json the body as JSON, read when {@link #readsBody()}; null when it is not JSON
     */
    String shape(String method, String path, ByteBuf body, JsonNode json) {
        MessageDigest sha = sha256();
        for (String part : new String[] {method, path}) {
            byte[] bytes = part.getBytes(StandardCharsets.UTF_8);
            sha.update(length(bytes.length));
            sha.update(bytes);
        }
        if (json != null && readsBody()) {
            JsonNode rest = json.deepCopy();
            for (JsonPointer field : volatileFields) {
                remove(rest, field);
            }
            sha.update((byte) 'j');
            sha.update(canonical(rest).getBytes(StandardCharsets.UTF_8));
        } else {
            sha.update((byte) 'b');
            sha.update(body.nioBuffer());
        }
        return HexFormat.of().formatHex(sha.digest(), 0, 16);
    }

    private static void remove(JsonNode root, JsonPointer field) {
        JsonNode parent = root.at(field.head());
        String last = field.last().getMatchingProperty();
        if (parent instanceof ObjectNode object) {
            object.remove(last);
        } else if (parent instanceof ArrayNode array && field.last().mayMatchElement()) {
            int index = field.last().getMatchingIndex();
            if (index < array.size()) {
                // Kept as a null, so the elements after it stay where they were.
                array.set(index, array.nullNode());
            }
        }
    }

    /** JSON text with every object's members in name order, so member order never makes two bodies differ. */
    private static String canonical(JsonNode node) {
        if (node instanceof ObjectNode object) {
            Map<String, JsonNode> sorted = new TreeMap<>();
            object.properties().forEach(e -> sorted.put(e.getKey(), e.getValue()));
            StringBuilder out = new StringBuilder("{");
            sorted.forEach((name, value) -> {
                if (out.length() > 1) {
                    out.append(',');
                }
                out.append(BodyJson.JSON.getNodeFactory().textNode(name)).append(':').append(canonical(value));
            });
            return out.append('}').toString();
        }
        if (node instanceof ArrayNode array) {
            StringBuilder out = new StringBuilder("[");
            for (JsonNode element : array) {
                if (out.length() > 1) {
                    out.append(',');
                }
                out.append(canonical(element));
            }
            return out.append(']').toString();
        }
        return node.isNumber() ? BodyJson.number(node) : node.toString();
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }

    private static byte[] length(int n) {
        return new byte[] {(byte) (n >>> 24), (byte) (n >>> 16), (byte) (n >>> 8), (byte) n};
    }
}
