package dev.idempotent.docs;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The text a handout must not share a searchable string with: every git-tracked file of this repository, and
 * the two seed documents it was made from, indexed for the two lookups of {@link SearchableStrings}.
 *
 * <ul>
 *   <li>A term is found when its words, joined, occur inside the joined words of any term of the text, case
 *       and separators ignored: {@code refundKey} is found in {@code last_refund_key_seen}.</li>
 *   <li>A prose run is found when the same six words (case ignored) follow each other anywhere in one file.</li>
 * </ul>
 *
 * <p>The seeds are not in this repository (it quotes none of their prose). Where they are on disk, name their
 * folder with {@code -Didempotent.seeds=DIR} (or {@code IDEMPOTENT_SEEDS}) and they are indexed like any file;
 * otherwise their fingerprint ({@value #SEED_FINGERPRINT}) stands in: 48-bit hashes of every word sequence inside
 * a seed's terms and of every six-word run, which match the same strings (a term as a whole run of a seed term's
 * words, not inside a word) without holding their text.
 */
final class RepositoryText {

    static final String SEED_FINGERPRINT = "docs/src/test/resources/handouts/seeds.fingerprint";
    private static final String FINGERPRINTED = "the seed documents (by their fingerprint)";

    private static final Pattern TERM = Pattern.compile("[A-Za-z0-9_](?:[A-Za-z0-9_.\\-/$]*[A-Za-z0-9_])?");
    private static final Pattern WORD = Pattern.compile("[A-Za-z0-9]+");

    private final List<String> paths = new ArrayList<>();
    private final List<Integer> offsets = new ArrayList<>();
    private final String joinedTerms;
    private final List<Integer> wordOffsets = new ArrayList<>();
    private final String joinedWords;
    private final long[] runs;
    private final long[] seedTerms;
    private final long[] seedRuns;
    private final long[] seedLiterals;

    private RepositoryText(List<Path> files, Path root, List<Path> seedFiles, Fingerprint seeds) {
        StringBuilder joined = new StringBuilder();
        StringBuilder words = new StringBuilder();
        List<Long> allRuns = new ArrayList<>();
        List<Path> all = new ArrayList<>(files);
        all.addAll(seedFiles);
        for (Path file : all) {
            String text = textOf(file);
            if (text == null) {
                continue;
            }
            paths.add(seedFiles.contains(file) ? "the seed document " + file.getFileName()
                    : root.relativize(file).toString().replace('\\', '/'));
            offsets.add(joined.length());
            wordOffsets.add(words.length());
            // Each file's words, spaced, between a space and a newline: a literal is found inside one file only.
            words.append(' ');
            Matcher word = WORD.matcher(text);
            while (word.find()) {
                words.append(word.group().toLowerCase(Locale.ROOT)).append(' ');
            }
            words.append('\n');
            Matcher term = TERM.matcher(text);
            while (term.find()) {
                joined.append(String.join("", PacketVariant.words(term.group()))).append('\n');
            }
            int index = paths.size() - 1;
            List<Long> own = new ArrayList<>();
            runsOf(text, own);
            // 47 bits of the hash, then the file's index: one sorted array answers both "is it there" and "where".
            own.forEach(h -> allRuns.add((h >>> 1) << 16 | index));
        }
        this.joinedTerms = joined.toString();
        this.joinedWords = words.toString();
        this.runs = allRuns.stream().mapToLong(Long::longValue).sorted().toArray();
        this.seedTerms = seeds.terms();
        this.seedRuns = seeds.runs();
        this.seedLiterals = seeds.literals();
    }

    /**
     * This repository's tracked files under {@code root} ({@code git ls-files}; every file but {@code .git} and
     * {@code target} when git is not there), and the seeds: read in full when their folder is configured,
     * otherwise their fingerprint.
     */
    static RepositoryText of(Path root) {
        List<Path> files = trackedFiles(root);
        Optional<Path> seeds = seedsDirectory();
        if (seeds.isPresent()) {
            return new RepositoryText(files, root, seedFiles(seeds.get()), new Fingerprint(new long[0], new long[0], new long[0]));
        }
        return new RepositoryText(files, root, List.of(), Fingerprint.read(root.resolve(SEED_FINGERPRINT)));
    }

    /** Where {@code found} occurs: a repository path, the seeds, or empty when nowhere. */
    Optional<String> whereIs(SearchableStrings.Found found) {
        String key = found.key();
        if (found.kind() == SearchableStrings.Kind.LITERAL) {
            return whereIsLiteral(key);
        }
        if (found.kind() == SearchableStrings.Kind.TERM) {
            int at = joinedTerms.indexOf(key);
            if (at >= 0) {
                int file = 0;
                while (file + 1 < offsets.size() && offsets.get(file + 1) <= at) {
                    file++;
                }
                return Optional.of(paths.get(file));
            }
            return Arrays.binarySearch(seedTerms, hash(key)) >= 0 ? Optional.of(FINGERPRINTED) : Optional.empty();
        }
        long hash = hash(key);
        int at = -Arrays.binarySearch(runs, (hash >>> 1) << 16) - 1;
        if (at < runs.length && runs[at] >>> 16 == hash >>> 1) {
            return Optional.of(paths.get((int) (runs[at] & 0xffff)));
        }
        return Arrays.binarySearch(seedRuns, hash) >= 0 ? Optional.of(FINGERPRINTED) : Optional.empty();
    }

    private Optional<String> whereIsLiteral(String key) {
        if (key.isEmpty()) {
            return Optional.empty();
        }
        int at = joinedWords.indexOf(" " + key + " ");
        if (at >= 0) {
            int file = 0;
            while (file + 1 < wordOffsets.size() && wordOffsets.get(file + 1) <= at) {
                file++;
            }
            return Optional.of(paths.get(file));
        }
        String[] words = key.split(" ");
        if (words.length >= SearchableStrings.RUN_WORDS) {
            // A longer literal found in a seed has its first six words there, among the seeds' runs.
            String first = String.join(" ", List.of(words).subList(0, SearchableStrings.RUN_WORDS));
            return Arrays.binarySearch(seedRuns, hash(first)) >= 0 ? Optional.of(FINGERPRINTED) : Optional.empty();
        }
        return Arrays.binarySearch(seedLiterals, hash(key)) >= 0 ? Optional.of(FINGERPRINTED) : Optional.empty();
    }

    /** The seeds folder, when configured and present. */
    static Optional<Path> seedsDirectory() {
        String configured = System.getProperty("idempotent.seeds", System.getenv("IDEMPOTENT_SEEDS"));
        if (configured == null || configured.isBlank() || !Files.isDirectory(Path.of(configured))) {
            return Optional.empty();
        }
        return Optional.of(Path.of(configured));
    }

    /** The seed documents' texts (every {@code .txt} file of the folder, in name order). */
    static List<String> seedTexts(Path dir) {
        return seedFiles(dir).stream().map(RepositoryText::textOf).toList();
    }

    private static List<Path> seedFiles(Path dir) {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(f -> f.getFileName().toString().endsWith(".txt")).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static final ThreadLocal<MessageDigest> SHA_256 = ThreadLocal.withInitial(() -> {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    });

    /** 48 bits of SHA-256, as a long: enough that a chance match among the seeds' strings is negligible. */
    static long hash(String text) {
        {
            byte[] digest = SHA_256.get().digest(text.getBytes(StandardCharsets.UTF_8));
            long value = 0;
            for (int i = 0; i < 6; i++) {
                value = (value << 8) | (digest[i] & 0xff);
            }
            return value;
        }
    }

    private static void runsOf(String text, List<Long> into) {
        List<String> words = new ArrayList<>();
        Matcher m = WORD.matcher(text);
        while (m.find()) {
            words.add(m.group().toLowerCase(Locale.ROOT));
        }
        for (int i = 0; i + SearchableStrings.RUN_WORDS <= words.size(); i++) {
            into.add(hash(String.join(" ", words.subList(i, i + SearchableStrings.RUN_WORDS))));
        }
    }

    /**
     * The hashed strings of some texts: every word sequence inside a term, every six-word run, and every run of
     * three to five words (what a short literal is looked up among).
     */
    record Fingerprint(long[] terms, long[] runs, long[] literals) {

        static Fingerprint of(List<String> texts) {
            TreeSet<Long> terms = new TreeSet<>();
            List<Long> runs = new ArrayList<>();
            TreeSet<Long> literals = new TreeSet<>();
            for (String text : texts) {
                List<String> plain = SearchableStrings.plainWords(text);
                for (int length = SearchableStrings.LITERAL_WORDS; length < SearchableStrings.RUN_WORDS; length++) {
                    for (int i = 0; i + length <= plain.size(); i++) {
                        literals.add(hash(String.join(" ", plain.subList(i, i + length))));
                    }
                }
                Matcher term = TERM.matcher(text);
                while (term.find()) {
                    List<String> words = PacketVariant.words(term.group());
                    for (int from = 0; from < words.size(); from++) {
                        for (int to = from + 2; to <= words.size(); to++) {
                            terms.add(hash(String.join("", words.subList(from, to))));
                        }
                    }
                }
                runsOf(text, runs);
            }
            return new Fingerprint(terms.stream().mapToLong(Long::longValue).toArray(),
                    runs.stream().mapToLong(Long::longValue).sorted().distinct().toArray(),
                    literals.stream().mapToLong(Long::longValue).toArray());
        }

        static Fingerprint read(Path file) {
            TreeSet<Long> terms = new TreeSet<>();
            TreeSet<Long> runs = new TreeSet<>();
            TreeSet<Long> literals = new TreeSet<>();
            try {
                for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
                    if (line.startsWith("term ")) {
                        terms.add(Long.parseLong(line.substring(5), 16));
                    } else if (line.startsWith("run ")) {
                        runs.add(Long.parseLong(line.substring(4), 16));
                    } else if (line.startsWith("literal ")) {
                        literals.add(Long.parseLong(line.substring(8), 16));
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return new Fingerprint(terms.stream().mapToLong(Long::longValue).toArray(),
                    runs.stream().mapToLong(Long::longValue).toArray(),
                    literals.stream().mapToLong(Long::longValue).toArray());
        }

        String render() {
            StringBuilder out = new StringBuilder("# The seed documents' searchable strings as 48-bit SHA-256 hashes (see"
                    + " RepositoryText): \"term\" for word sequences inside their terms, \"run\" for six-word runs,"
                    + " \"literal\" for runs of three to five words.\n");
            Arrays.stream(terms).forEach(h -> out.append("term ").append(String.format("%012x", h)).append('\n'));
            Arrays.stream(runs).forEach(h -> out.append("run ").append(String.format("%012x", h)).append('\n'));
            Arrays.stream(literals).forEach(h -> out.append("literal ").append(String.format("%012x", h)).append('\n'));
            return out.toString();
        }
    }

    /** The repository's tracked files ({@code git ls-files}), or every file but {@code .git} and {@code target}. */
    static List<Path> trackedFiles(Path root) {
        try {
            Process git = new ProcessBuilder("git", "-C", root.toString(), "ls-files", "-z")
                    .redirectError(ProcessBuilder.Redirect.DISCARD).start();
            byte[] out;
            try (InputStream in = git.getInputStream()) {
                out = in.readAllBytes();
            }
            if (git.waitFor(60, TimeUnit.SECONDS) && git.exitValue() == 0 && out.length > 0) {
                List<Path> files = new ArrayList<>();
                for (String name : new String(out, StandardCharsets.UTF_8).split("\0")) {
                    if (!name.isEmpty() && Files.isRegularFile(root.resolve(name))) {
                        files.add(root.resolve(name));
                    }
                }
                return files;
            }
        } catch (IOException e) {
            // No git here (a source tarball): fall back to the tree.
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try (Stream<Path> all = Files.walk(root)) {
            return all.filter(Files::isRegularFile)
                    .filter(p -> root.relativize(p).toString().replace('\\', '/').matches("(?!\\.git/)(?!(.*/)?target/).*"))
                    .sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The file's text, or null for a binary file (one holding a NUL byte). */
    private static String textOf(Path file) {
        try {
            byte[] bytes = Files.readAllBytes(file);
            for (byte b : bytes) {
                if (b == 0) {
                    return null;
                }
            }
            return new String(bytes, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
