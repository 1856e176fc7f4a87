package dev.idempotent.seatgrant.server.grade;

import dev.idempotent.seatgrant.server.ApiNames;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The names a generated handout uses in place of the packet's, read from its {@code interviewer/mapping.tsv}, so
 * that a report read back to a candidate (its evidence, its gates) speaks the handout's vocabulary and never teaches
 * the packet's: {@code requestId} becomes the handout's name for it, and "seat" its noun. Check ids and JSON keys
 * are left as they are; they are the report's interface, not its prose.
 *
 * <p>Immutable and thread-safe.
 */
public final class HandoutNames {

    /** The most of a mapping file read: a handout's mapping is a few kilobytes. */
    private static final long MAX_BYTES = 1 << 20;
    private static final Pattern HEADER = Pattern.compile("^# \\S+ handout, domain \\S+\\.");
    private static final HandoutNames NONE = new HandoutNames(Map.of());

    /** Packet name to handout name, longest packet name first, so a name is replaced before a part of it. */
    private final Map<String, String> renames;
    private final Pattern pattern;

    private HandoutNames(Map<String, String> renames) {
        List<String> from = new ArrayList<>(renames.keySet());
        from.sort(Comparator.comparingInt(String::length).reversed());
        Map<String, String> ordered = new LinkedHashMap<>();
        from.forEach(name -> ordered.put(name, renames.get(name)));
        this.renames = ordered;
        this.pattern = from.isEmpty() ? null : Pattern.compile("(?<![A-Za-z0-9_$])(?:" + String.join("|",
                from.stream().map(Pattern::quote).toList()) + ")(?![A-Za-z0-9_$])");
    }

    /** The packet's own names: nothing is renamed. */
    public static HandoutNames none() {
        return NONE;
    }

    /**
     * Reads a handout's {@code mapping.tsv}: a header line, then {@code kind<TAB>packet<TAB>handout} lines; the
     * {@code token} and {@code local} kinds are names, the rest (literals, build elements) are not prose a report
     * repeats. The packet's seat noun ({@code seat}, {@code seats}) becomes the lower-case start of the handout's
     * name for {@code seatId} (the letters before its first capital).
     *
     * @throws IOException              if the file cannot be read
     * @throws IllegalArgumentException if it is not a handout's mapping, or larger than 1 MiB
     */
    public static HandoutNames read(Path file) throws IOException {
        if (Files.size(file) > MAX_BYTES) {
            throw new IllegalArgumentException("not a handout mapping (larger than 1 MiB)");
        }
        return parse(Files.readString(file, StandardCharsets.UTF_8));
    }

    static HandoutNames parse(String text) {
        if (!HEADER.matcher(text).find()) {
            throw new IllegalArgumentException("not a handout mapping (no header line)");
        }
        Map<String, String> renames = new LinkedHashMap<>();
        for (String line : text.split("\n", -1)) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            String[] f = line.split("\t", -1);
            if (f.length != 3 || f[1].isEmpty() || f[2].isEmpty()) {
                throw new IllegalArgumentException("not a handout mapping (a line is not kind, packet, handout)");
            }
            if ((f[0].equals("token") || f[0].equals("local")) && !f[1].equals(f[2])) {
                renames.put(f[1], f[2]);
            }
        }
        String seatId = renames.get("seatId");
        if (seatId != null) {
            Matcher noun = Pattern.compile("^[a-z]+").matcher(seatId);
            if (noun.find() && !noun.group().equals("seat")) {
                String word = noun.group();
                String title = Character.toUpperCase(word.charAt(0)) + word.substring(1);
                renames.putIfAbsent("seat", word);
                renames.putIfAbsent("seats", word + "s");
                renames.putIfAbsent("Seat", title);
                renames.putIfAbsent("Seats", title + "s");
            }
        }
        return new HandoutNames(renames);
    }

    /** The handout's name for the packet's {@code name}; {@code name} itself when the handout keeps it. */
    public String name(String name) {
        return renames.getOrDefault(name, name);
    }

    /**
     * The seat API as the handout names it: its route ({@code v1/seats}), the grant's fields ({@code workspaceId},
     * {@code userId}, {@code role}), the usual role ({@code member}) and the list's array (the seat noun's plural).
     *
     * @throws IllegalArgumentException if the handout's names cannot be a route and JSON fields
     */
    public ApiNames apiNames() {
        String route = name("v1/seats");
        return new ApiNames(route.startsWith("/") ? route : "/" + route, name("workspaceId"), name("userId"),
                name("role"), name("member"), name("seats"));
    }

    /**
     * {@code text} in the handout's names, word by word; the catalogue's check ids in it are kept as they are, since
     * a script matches on them.
     */
    public String apply(String text) {
        if (pattern == null) {
            return text;
        }
        List<String> ids = Catalogue.checks().stream().map(Check::id)
                .sorted(Comparator.comparingInt(String::length).reversed()).toList();
        String shielded = text;
        for (int i = 0; i < ids.size(); i++) {
            shielded = shielded.replace(ids.get(i), "\u0000" + i + "\u0000");
        }
        Matcher m = pattern.matcher(shielded);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            m.appendReplacement(out, Matcher.quoteReplacement(renames.get(m.group())));
        }
        m.appendTail(out);
        String renamed = out.toString();
        for (int i = 0; i < ids.size(); i++) {
            renamed = renamed.replace("\u0000" + i + "\u0000", ids.get(i));
        }
        return renamed;
    }
}
