package dev.idempotent.docs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * The line rule for handouts (issue 46): no trimmed line of {@value #MIN_CHARS} or more characters of a file the
 * candidate receives occurs in a packet or answer-key file of this repository ({@link #PACKET_FILES}) unless it
 * also occurs in at least {@value #OTHER_FILES} other files, nor, at {@value #MIN_SEED_CHARS} or more characters,
 * in a seed document; lines on the allowlist {@value #ALLOWLIST} (common in public code, each with its reason)
 * are exempt, and so are the Maven wrapper's files, imports, package lines and bare annotations.
 *
 * <p>A line is compared trimmed and whole, as {@code git grep -F} would find it on a line of its own. The seeds
 * are not in this repository: their lines are checked by the 64-bit hashes in {@value #SEED_LINES}, made from
 * {@code ../shared/seeds/} ({@code -Didempotent.seeds=DIR} recomputes and compares them).
 */
final class HandoutLines {

    static final int MIN_CHARS = 12;
    static final int MIN_SEED_CHARS = 20;
    static final int OTHER_FILES = 3;
    static final int MAX_ALLOWED = 120;
    static final String ALLOWLIST = "docs/packets/common-lines.txt";
    static final String SEED_LINES = "docs/src/test/resources/handouts/seed-lines.hashes";

    /** The packet and answer-key files: a line found here leads to the packet. */
    static final Pattern PACKET_FILES = Pattern.compile("^(docs/packets/|docs/src/|fetch-client/|seat-grant-worker/lab/).*");

    private static final Pattern BARE_ANNOTATION = Pattern.compile("@[A-Za-z][A-Za-z0-9_.]*");

    private final Map<String, List<String>> filesByLine;
    private final long[] seedLines;
    private final Map<String, String> allowed;

    private HandoutLines(Map<String, List<String>> filesByLine, long[] seedLines, Map<String, String> allowed) {
        this.filesByLine = filesByLine;
        this.seedLines = seedLines;
        this.allowed = allowed;
    }

    /** The repository's tracked files under {@code root}, the seeds' committed line hashes and the allowlist. */
    static HandoutLines of(Path root) {
        Map<String, List<String>> byLine = new HashMap<>();
        for (Path file : RepositoryText.trackedFiles(root)) {
            String path = root.relativize(file).toString().replace('\\', '/');
            String text = text(file);
            if (text == null) {
                continue;
            }
            Set<String> own = new LinkedHashSet<>();
            text.lines().map(String::trim).filter(l -> l.length() >= MIN_CHARS).forEach(own::add);
            own.forEach(line -> byLine.computeIfAbsent(line, l -> new ArrayList<>(2)).add(path));
        }
        return new HandoutLines(byLine, readSeedLines(root.resolve(SEED_LINES)), allowlist(root.resolve(ALLOWLIST)));
    }

    /** Whether a trimmed line of a received file is one the rule looks at. */
    static boolean checked(String path, String line) {
        return line.length() >= MIN_CHARS && !SearchableStrings.isWrapper(path) && !line.startsWith("import ")
                && !line.startsWith("package ") && !BARE_ANNOTATION.matcher(line).matches();
    }

    /** Every line of {@code files} (a handout, path to text) that breaks the rule, as "path: line (where)". */
    List<String> findings(Map<String, String> files) {
        List<String> out = new ArrayList<>();
        files.forEach((path, text) -> text.lines().map(String::trim).filter(line -> checked(path, line)).distinct()
                .forEach(line -> whereIs(line).ifPresent(where -> out.add(path + ": " + line + " (" + where + ")"))));
        return out;
    }

    /** Where a line leads back to: a packet file (when fewer than three other files hold it) or the seeds. */
    Optional<String> whereIs(String line) {
        if (allowed.containsKey(line)) {
            return Optional.empty();
        }
        List<String> files = filesByLine.getOrDefault(line, List.of());
        List<String> packet = files.stream().filter(f -> PACKET_FILES.matcher(f).matches()).toList();
        if (!packet.isEmpty() && files.size() - packet.size() < OTHER_FILES) {
            return Optional.of(String.join(", ", packet.subList(0, Math.min(2, packet.size()))));
        }
        if (line.length() >= MIN_SEED_CHARS && Arrays.binarySearch(seedLines, RepositoryText.hash(line)) >= 0) {
            return Optional.of("the seed documents (by their line hashes)");
        }
        return Optional.empty();
    }

    /** The allowlist: one line, a tab and the reason per entry; a line with {@code #} first and no tab is a comment. */
    static Map<String, String> allowlist(Path file) {
        Map<String, String> out = new LinkedHashMap<>();
        if (!Files.exists(file)) {
            return out;
        }
        for (String entry : lines(file)) {
            if (entry.isBlank() || entry.startsWith("#") && entry.indexOf('\t') < 0) {
                continue;
            }
            int tab = entry.indexOf('\t');
            if (tab <= 0 || entry.substring(tab + 1).isBlank()) {
                throw new IllegalStateException(file + ": an entry is a line, a tab and the reason: " + entry);
            }
            out.put(entry.substring(0, tab).trim(), entry.substring(tab + 1).trim());
        }
        return out;
    }

    /** The hashes of every trimmed seed line of {@value #MIN_SEED_CHARS} or more characters, sorted. */
    static long[] seedLineHashes(List<String> seedTexts) {
        TreeSet<Long> hashes = new TreeSet<>();
        seedTexts.forEach(text -> text.lines().map(String::trim).filter(l -> l.length() >= MIN_SEED_CHARS)
                .forEach(l -> hashes.add(RepositoryText.hash(l))));
        return hashes.stream().mapToLong(Long::longValue).toArray();
    }

    static String render(long[] hashes) {
        StringBuilder out = new StringBuilder("# The seed documents' trimmed lines of " + MIN_SEED_CHARS
                + " or more characters, as 48-bit SHA-256 hashes (see HandoutLines).\n");
        Arrays.stream(hashes).forEach(h -> out.append("line ").append(String.format("%012x", h)).append('\n'));
        return out.toString();
    }

    private static long[] readSeedLines(Path file) {
        return lines(file).stream().filter(l -> l.startsWith("line ")).mapToLong(l -> Long.parseLong(l.substring(5), 16))
                .sorted().toArray();
    }

    private static List<String> lines(Path file) {
        try {
            return Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String text(Path file) {
        try {
            byte[] bytes = Files.readAllBytes(file);
            for (byte b : bytes) {
                if (b == 0) {
                    return null;
                }
            }
            return new String(bytes, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return null;
        }
    }
}
