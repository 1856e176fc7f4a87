package dev.idempotent.docs;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Writes a handout of an interview packet from an interviewer's secret: the same exercise as the packet under
 * {@code docs/packets/}, set in another domain, with every name, string, file name, comment and sentence a
 * candidate could paste into a search box composed anew, so that none of them can be found in this repository.
 *
 * <p>Run it from the project root with the JDK's source launcher (it depends on nothing but the JDK):
 * <pre>{@code java docs/src/test/java/dev/idempotent/docs/PacketVariant.java seat-grant --secret-file ~/round-7.txt /tmp/round-7}</pre>
 * The secret is any text file the interviewer keeps; the same secret (and the same version of this project)
 * gives the same handout. It picks the domain (for seat-grant: licences, refunds or vouchers, each with
 * its own event, endpoint, body fields and log words; for fetch-client: one of several resources behind the same
 * 429/503 rule), every name, every wording, and the starter's shape: the packet's {@code starter/}, or that
 * with {@code second-shape/starter/} laid over it (the same surface and defects, the code arranged otherwise),
 * each with its own reference patch. The statuses a packet is about never change.
 *
 * <p>{@code OUT/handout/} is what the candidate gets: a prompt and {@code starter/}. {@code OUT/interviewer/}
 * stays with the interviewers: the drawn shape's reference patch and the key tests in the handout's names, every
 * scored sample translated to it (with the first shape, which the samples are written on, in
 * {@code samples/starter/}), and {@code mapping.tsv}, which {@code translate-back} uses to turn a candidate's tree back
 * into the packet's names (so {@code fake-server grade} can run it).
 *
 * <p>How nothing can be searched back: the handout's code is the packet's code with its comments removed, its
 * names renamed, its prose literals reworded and its lines of library words written as an equivalent the secret
 * draws ({@link Spec#idioms()}); the names and all prose come from templates here, whose
 * pieces are single words and short phrases with choices ({@code {{a|b}}}) and slots ({@code ${name}}), so a
 * composed name or a run of six words never stands in this file as it stands in a handout.
 * {@code HandoutLeakTest} checks that for every name and six-word run any secret can produce, and runs the
 * definition's own extractor over handouts from many secrets ({@code docs/README.md}, "Handouts that cannot be
 * searched back", states the definition).
 *
 * <p>The number form ({@code seat-grant 7 OUT}) exists for this project's tests: anyone can recompute it, so it
 * must never be handed out. {@link UnifiedDiff} is the project's one reader, applier and writer of unified
 * diffs; it lives here because this program must stay a single file.
 */
public final class PacketVariant {

    private PacketVariant() {
    }

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    /** The shortest secret the command line accepts, in bytes: shorter ones can be guessed by trying them. */
    static final int MIN_SECRET_BYTES = 16;

    /** The command line; returns the exit code (0 done, 2 bad arguments or input). */
    static int run(String[] args, PrintStream out, PrintStream err) {
        List<String> a = new ArrayList<>(List.of(args));
        Path root = Path.of(".");
        String domain = null;
        boolean kit = !a.remove("--no-kit");
        try {
            String given = option(a, "--root");
            if (given != null) {
                root = Path.of(given);
            }
            domain = option(a, "--domain");
            if (a.size() == 2 && a.get(1).equals("--list-domains")) {
                Spec.of(a.get(0)).domains().forEach(d -> out.println(d.id()));
                return 0;
            }
            if (a.size() == 4 && a.get(0).equals("translate-back")) {
                Mapping mapping = Mapping.parse(Files.readString(Path.of(a.get(1)), StandardCharsets.UTF_8));
                int files = translateBack(mapping, Path.of(a.get(2)), Path.of(a.get(3)));
                out.println("wrote " + a.get(3) + " (" + files + " files in the packet's names)");
                return 0;
            }
            byte[] secret;
            Path target;
            if (a.size() == 4 && a.get(1).equals("--secret-file")) {
                secret = secretOf(Path.of(a.get(2)));
                target = Path.of(a.get(3));
                if (secret.length < MIN_SECRET_BYTES) {
                    err.println(a.get(2) + " holds " + secret.length + " bytes; a secret needs " + MIN_SECRET_BYTES
                            + " or more, or it can be guessed. Make one with: head -c 24 /dev/urandom | base64 > "
                            + a.get(2));
                    return 2;
                }
            } else if (a.size() == 3 && a.get(1).matches("\\d{1,9}")) {
                err.println("warning: the number form is for this project's own tests; anyone can recompute it,"
                        + " so never hand it out (use --secret-file)");
                secret = numberSecret(Integer.parseInt(a.get(1)));
                target = Path.of(a.get(2));
            } else {
                err.println("usage: java PacketVariant.java seat-grant|fetch-client --secret-file FILE OUT"
                        + " [--domain NAME] [--root DIR] [--no-kit]\n"
                        + "       java PacketVariant.java seat-grant|fetch-client --list-domains\n"
                        + "       java PacketVariant.java translate-back MAPPING_TSV TREE OUT");
                return 2;
            }
            String picked = domain;
            if (picked != null && Spec.of(a.get(0)).domains().stream().noneMatch(d -> d.id().equals(picked))) {
                err.println("no domain " + picked + " for " + a.get(0) + "; --list-domains prints the ones to choose from");
                return 2;
            }
            if (Files.exists(target)) {
                err.println(target + " exists; choose a new folder");
                return 2;
            }
            Handout handout = write(root, a.get(0), secret, domain, target);
            out.println("wrote " + target + ": give the candidate " + target.resolve("handout")
                    + "; keep " + target.resolve("interviewer") + " (domain: " + handout.domain() + ")");
            if (!kit) {
                return 0;
            }
            if (kitBuilt(root)) {
                long bytes = writeKit(root, handout, target, root.resolve(KIT_JARS), root.resolve(KIT_GRADER));
                out.printf(Locale.ROOT, "scoring kit: %s (%.1f MB); score inside interviewer/ with"
                        + " java kit/ScoringKit.java PATH/TO/HANDED-IN/starter%n", target.resolve("interviewer/kit"), bytes / 1e6);
            } else {
                err.println("no scoring kit: build it first (./mvnw -B -q -pl docs -am package -DskipTests); without it,"
                        + " interviewer/ scores with the packet's score.sh from a checkout");
            }
            return 0;
        } catch (IllegalArgumentException | IOException | UncheckedIOException e) {
            err.println(e.getMessage());
            return 2;
        }
    }

    /** Removes {@code --name VALUE} from {@code args} and returns the value, or null when it is absent. */
    private static String option(List<String> args, String name) {
        int at = args.indexOf(name);
        if (at < 0) {
            return null;
        }
        if (at + 1 >= args.size()) {
            throw new IllegalArgumentException(name + " needs a value");
        }
        String value = args.get(at + 1);
        args.remove(at + 1);
        args.remove(at);
        return value;
    }

    /**
     * The secret in a file: its text (read as UTF-8, any byte welcome) with line endings made {@code \n} and
     * trailing whitespace removed, so an editor that adds a final newline does not change the handout.
     */
    static byte[] secretOf(Path file) throws IOException {
        String text = new String(Files.readAllBytes(file), StandardCharsets.UTF_8).replace("\r\n", "\n").stripTrailing();
        if (text.isEmpty()) {
            throw new IllegalArgumentException(file + " is empty; a secret must hold some text");
        }
        return text.getBytes(StandardCharsets.UTF_8);
    }

    /** The secret behind the number form; for this project's tests only. */
    static byte[] numberSecret(int number) {
        return ("number " + number).getBytes(StandardCharsets.UTF_8);
    }

    /** Generates the handout of {@code packet} for {@code secret} and writes it under {@code out}. */
    public static Handout write(Path root, String packet, byte[] secret, Path out) {
        return write(root, packet, secret, null, out);
    }

    /** As {@link #write(Path, String, byte[], Path)}, in {@code domain} when it is not null. */
    public static Handout write(Path root, String packet, byte[] secret, String domain, Path out) {
        Handout handout = generate(root, packet, secret, domain);
        writeTree(out.resolve("handout"), handout.handout());
        writeTree(out.resolve("interviewer"), handout.interviewer());
        return handout;
    }

    /**
     * Generates a handout in memory. {@code domain} forces a domain (for tests); {@code null} lets the secret
     * choose it.
     */
    static Handout generate(Path root, String packet, byte[] secret, String domain) {
        return generate(root, packet, secret, domain, null);
    }

    /**
     * As {@link #generate(Path, String, byte[], String)}, with the starter's shape forced when {@code shape} is
     * not null (0 the packet's {@code starter/}, 1 its {@value #SECOND_SHAPE}/; for tests).
     */
    static Handout generate(Path root, String packet, byte[] secret, String domain, Integer shape) {
        Spec spec = Spec.of(packet);
        Path dir = root.resolve("docs").resolve("packets").resolve(packet);
        if (!Files.isDirectory(dir.resolve("starter"))) {
            throw new IllegalArgumentException("no packet at " + dir + " (run from the project root, or pass --root)");
        }
        Draw draw = new Draw(secret);
        Domain chosen = spec.domains().get(draw.next(spec.domains().size()));
        if (domain != null) {
            chosen = spec.domain(domain);
        }
        Map<String, String> slots = new LinkedHashMap<>();
        chosen.words().forEach((slot, value) -> slots.put(slot, Template.parse(value).expand(draw, s -> lookup(slots, s))));
        spec.shared().forEach((slot, value) -> slots.put(slot, Template.parse(value).expand(draw, s -> lookup(slots, s))));
        Mapping mapping = new Mapping(packet, chosen.id());
        for (NameRule rule : spec.names()) {
            String value = rule.style().apply(rule.template().expand(draw, slot -> lookup(slots, slot)));
            slots.put(rule.slot(), value);
            if (rule.canonical() != null) {
                mapping.tokens().put(rule.canonical(), value);
                if (spec.locals().contains(rule.canonical())) {
                    mapping.locals().add(rule.canonical());
                }
                if (spec.codeOnly().contains(rule.canonical())) {
                    mapping.codeOnly().add(rule.canonical());
                }
            }
        }
        spec.elements().forEach((canonical, template) ->
                mapping.elements().put(canonical, Template.parse(template).expand(draw, slot -> lookup(slots, slot))));
        spec.literals().forEach((canonical, template) ->
                mapping.literals().put(canonical, template.expand(draw, slot -> lookup(slots, slot))));
        mapping.checkInjective();
        List<String> comments = new ArrayList<>();
        for (Anchor anchor : spec.anchors()) {
            comments.add(anchor.template().expand(draw, slot -> lookup(slots, slot)));
        }
        // Drawn after every name and comment, so those do not depend on it; the prompt names the shape's files.
        int drawnShape = draw.next(SHAPES);
        int chosenShape = shape != null ? shape : drawnShape;
        if (chosenShape < 0 || chosenShape >= SHAPES) {
            throw new IllegalArgumentException("no starter shape " + chosenShape + " (0 or 1)");
        }
        spec.shapeWords(chosenShape).forEach((slot, value) ->
                slots.put(slot, Template.parse(value).expand(draw, s -> lookup(slots, s))));
        String prompt = spec.prompt().expand(draw, slot -> lookup(slots, slot)).stripTrailing() + "\n";

        SortedMap<String, String> first = readTree(dir.resolve("starter"));
        SortedMap<String, String> second = readTree(dir.resolve(SECOND_SHAPE).resolve("starter"));
        SortedMap<String, String> starter = new TreeMap<>(first);
        Path referencePatch = dir.resolve("reference.patch");
        if (chosenShape == 1) {
            starter.putAll(second);
            referencePatch = dir.resolve(SECOND_SHAPE).resolve("reference.patch");
        }
        // Idioms from a draw of their own, so every other choice stays what it was before they existed.
        Draw idiomDraw = new Draw(Draw.concat("idioms\n".getBytes(StandardCharsets.UTF_8), secret));
        for (Idiom idiom : spec.idioms()) {
            List<String> drawn = idiom.options().get(idiomDraw.next(idiom.options().size()));
            for (int i = 0; i < drawn.size(); i++) {
                if (!drawn.get(i).equals(idiom.lines().get(i))) {
                    mapping.idioms().put(idiom.lines().get(i), drawn.get(i));
                }
            }
        }
        Transform transform = new Transform(spec, mapping, comments, chosenShape);
        SortedMap<String, String> handoutStarter = transform.handout(starter, true);
        SortedMap<String, String> handoutFirst = chosenShape == 0 ? handoutStarter
                : new Transform(spec, mapping, comments, 0).handout(first, true);
        SortedMap<String, String> handout = new TreeMap<>();
        handout.put(lookup(slots, "promptfile"), prompt);
        handoutStarter.forEach((path, text) -> handout.put("starter/" + path, text));
        // The project's own Maven wrapper, so a candidate needs a JDK and nothing else.
        for (String file : WRAPPER) {
            handout.put("starter/" + file, read(root.resolve(file)));
        }

        SortedMap<String, String> interviewer = new TreeMap<>();
        SortedMap<String, String> reference = UnifiedDiff.parse(read(referencePatch)).applyTo(starter);
        interviewer.put("reference.patch", UnifiedDiff.write(handoutStarter, transform.handout(reference, false)));
        // The interviewer's test classes in this handout's names (the kit prints them), from a draw of their own and
        // after every handout file is written, so those stay what they were.
        Draw testDraw = new Draw(Draw.concat("interviewer tests\n".getBytes(StandardCharsets.UTF_8), secret));
        new TreeMap<>(INTERVIEWER_TESTS.getOrDefault(packet, Map.of())).forEach((canonical, template) ->
                mapping.tokens().put(canonical, (Character.isUpperCase(canonical.charAt(0)) ? Style.PASCAL : Style.CAMEL)
                        .apply(Template.parse(template).expand(testDraw, slot -> lookup(slots, slot)))));
        mapping.checkInjective();
        Map<String, String> messages = new TreeMap<>();
        INTERVIEWER_MESSAGES.getOrDefault(packet, Map.of()).forEach((from, template) ->
                messages.put(from, Template.parse(template).expand(testDraw, slot -> lookup(slots, slot))));
        readTree(dir.resolve(spec.keyTests())).forEach((path, text) -> {
            String renamed = transform.interviewer(path, text);
            for (Map.Entry<String, String> message : messages.entrySet()) {
                renamed = renamed.replace(message.getKey(), message.getValue());
            }
            interviewer.put(spec.keyTests() + "/" + mapping.renameTerms(path), renamed);
        });
        for (String sample : childDirectories(dir.resolve("samples"))) {
            Path patch = dir.resolve("samples").resolve(sample).resolve("patch.diff");
            // The samples are scored on the first shape, whatever shape this handout has.
            SortedMap<String, String> after = UnifiedDiff.parse(read(patch)).applyTo(first);
            interviewer.put("samples/" + sample + ".patch", UnifiedDiff.write(handoutFirst, transform.handout(after, false)));
        }
        // One replay command for either shape: the first shape, in this handout's names, beside the samples.
        handoutFirst.forEach((path, text) -> interviewer.put(SAMPLES_STARTER + "/" + path, text));
        if (spec.fenced()) {
            // score.sh's fence compares a hand-in with what was handed out; a copy here lets it score from
            // interviewer/ alone, after handout/ has been zipped, sent and deleted.
            handoutStarter.forEach((path, text) -> {
                if (path.equals("pom.xml") || path.startsWith("src/test/")) {
                    interviewer.put(FROZEN + "/" + path, text);
                }
            });
        }
        // Drawn last, so every handout file stays what it was before the note existed.
        interviewer.put(NOTE, spec.note().expand(draw, slot -> lookup(slots, slot)).stripTrailing() + "\n");
        interviewer.put("mapping.tsv", mapping.render());
        interviewer.put("README.md", interviewerReadme(spec, chosen, slots, mapping, lookup(slots, "promptfile"),
                chosenShape));
        SortedMap<String, String> shapes = new TreeMap<>(first);
        second.forEach((path, text) -> shapes.put(SECOND_SHAPE + "/" + path, text));
        mapping.checkUsed(shapes, readTree(dir.resolve(spec.keyTests())), reference);
        return new Handout(packet, chosen.id(), chosenShape, Collections.unmodifiableSortedMap(handout),
                Collections.unmodifiableSortedMap(interviewer), mapping);
    }

    /** The interviewer's test classes (and a method) of each packet and the templates of their names in a handout. */
    private static final Map<String, Map<String, String>> INTERVIEWER_TESTS = Map.of(
            "seat-grant", Map.of("SeatGrantOutcomesTest", "${noun} {{outcomes|cases|scenarios}} test",
                    "SeatGrantSignalsTest", "${noun} {{signals|probes|checks}} test",
                    "theSuccessEventNamesTheSeat", "the success event {{names|keeps}} the ${noun}"),
            "fetch-client", Map.of("RetryGatesTest", "${clientclass} {{gates|rubric|review}} test",
                    "SecretUrlTest", "${clientclass} {{secrecy|redaction|discretion}} test"));

    /** The packet's words in the interviewer's tests' messages, which a scoring run prints, and their handout form. */
    private static final Map<String, Map<String, String>> INTERVIEWER_MESSAGES = Map.of(
            "seat-grant", Map.of("carries the seat's id", "carries the ${noun}'s id"));

    /** How many starter shapes a packet has: its {@code starter/} and the one {@value #SECOND_SHAPE}/ makes. */
    static final int SHAPES = 2;

    /**
     * The folder of a packet that holds its second starter shape: {@code starter/} (files that replace or join
     * the first shape's) and that shape's own {@code reference.patch}.
     */
    static final String SECOND_SHAPE = "second-shape";

    /** Where interviewer/ keeps the first shape's starter, which the translated samples patch. */
    static final String SAMPLES_STARTER = "samples/starter";

    /** The Maven wrapper's files, copied from the project root into every handout's starter. */
    static final List<String> WRAPPER = List.of("mvnw", "mvnw.cmd", ".mvn/wrapper/maven-wrapper.properties");

    /** The note to send the candidate with the handout, relative to interviewer/. */
    static final String NOTE = "note-to-candidate.md";

    /** The interviewer's copy of the handed-out tests and pom (fenced packets only), relative to interviewer/. */
    static final String FROZEN = "handed-out";

    /**
     * A generated handout: the candidate's files, the interviewer's files, the names it uses, and its starter's
     * shape (0 the first, 1 the second).
     */
    public record Handout(String packet, String domain, int shape, SortedMap<String, String> handout,
            SortedMap<String, String> interviewer, Mapping mapping) {
    }

    private static String lookup(Map<String, String> slots, String slot) {
        String value = slots.get(slot);
        if (value == null) {
            throw new IllegalStateException("template names an unknown slot ${" + slot + "}");
        }
        return value;
    }

    /** Turns a tree in a handout's names back into the packet's names (for {@code fake-server grade}). */
    static int translateBack(Mapping mapping, Path tree, Path out) {
        if (Files.exists(out)) {
            throw new IllegalArgumentException(out + " exists; choose a new folder");
        }
        Mapping back = mapping.reversed();
        SortedMap<String, String> files = readTree(tree);
        SortedMap<String, String> translated = new TreeMap<>();
        files.forEach((path, text) -> translated.put(back.renameTerms(path),
                path.endsWith(".java") ? back.replaceIdioms(Transform.renameJava(text, back, true)) : back.renameXml(text)));
        writeTree(out, translated);
        return translated.size();
    }

    private static String interviewerReadme(Spec spec, Domain domain, Map<String, String> slots, Mapping mapping,
            String promptFile, int shape) {
        StringBuilder names = new StringBuilder();
        mapping.tokens().forEach((from, to) -> {
            if (!from.equals(to) && !from.contains("/") && !from.matches("[a-z]+")) {
                names.append("| `").append(from).append("` | `").append(to).append("` |\n");
            }
        });
        return "# Interviewer's folder (" + spec.packet() + ", domain: " + domain.id() + ")\n\n"
                + "Never hand out this folder. The candidate gets `handout/` (the prompt `" + promptFile
                + "` and `starter/`), nothing else. Keep this folder and the secret; once `handout/` is sent, you may"
                + " delete it: this folder alone scores a hand-in.\n\n"
                + "- `" + spec.keyTests() + "/`: the packet's tests in this handout's names; `score.sh` copies them in.\n"
                + (spec.fenced() ? "- `" + FROZEN + "/`: the starter's tests and `pom.xml` exactly as handed out;"
                        + " `score.sh` checks the hand-in's copies against them.\n" : "")
                + "- `reference.patch`: the reference patch of this handout's starter shape, in this handout's names"
                + " (`patch -p1` from `starter/`).\n"
                + "- `samples/NAME.patch`: every scored sample of the packet, translated; the samples are written on"
                + " the first shape, so apply one to a fresh copy of `" + SAMPLES_STARTER + "/` (that shape in this"
                + " handout's names) and run `score.sh` to see a calibrated hand-in as this handout shows it. Its"
                + " scores are in `docs/packets/" + spec.packet() + "/samples/NAME/expected.json`.\n"
                + "- `mapping.tsv`: every name of the packet and its name here; `score.sh` uses it.\n"
                + "- `" + NOTE + "`: the note to send with `handout/`; replace ADDRESS and DEADLINE first.\n"
                + "- `kit/`, when the handout was made in a built checkout: the scoring kit. Inside this folder,"
                + " `java kit/ScoringKit.java PATH/TO/PATCHED/starter` scores with a JDK 17 alone (no Maven, no"
                + " checkout); it checks `kit/SHA256SUMS` first.\n\n"
                + "Score with the packet's own sheet (`docs/packets/" + spec.packet() + "/interviewer-sheet.md`), passing"
                + " this folder:\n\n"
                + "```sh\ndocs/packets/" + spec.packet() + "/score.sh PATH/TO/PATCHED/starter PATH/TO/THIS/FOLDER\n```\n\n"
                + "The starter comes in two shapes, drawn from the secret; this handout has the "
                + (shape == 0 ? "first" : "second") + ": " + spec.shapes().get(shape) + ". Its reference patch is the"
                + " packet's `" + (shape == 0 ? "reference.patch" : SECOND_SHAPE + "/reference.patch") + "`; the"
                + " other shape's patch does not apply to this starter.\n\n"
                + "| in the packet | in this handout |\n| --- | --- |\n" + names
                + "\nThe event in this handout is `" + slots.getOrDefault("eventname", "-") + "`.\n";
    }


    /** Draws from SHA-256 of the secret in counter mode: the same secret gives the same draws on every JDK. */
    static final class Draw {
        private final byte[] seed;
        private long counter;
        private ByteBuffer block = ByteBuffer.allocate(0);

        Draw(byte[] secret) {
            this.seed = sha256(concat("handout v1\n".getBytes(StandardCharsets.UTF_8), secret));
        }

        /** A number from 0 (inclusive) to {@code bound} (exclusive). */
        int next(int bound) {
            if (!block.hasRemaining()) {
                block = ByteBuffer.wrap(sha256(concat(seed, ByteBuffer.allocate(8).putLong(counter++).array())));
            }
            return (int) Math.floorMod(block.getLong(), (long) bound);
        }

        private static byte[] concat(byte[] a, byte[] b) {
            byte[] both = new byte[a.length + b.length];
            System.arraycopy(a, 0, both, 0, a.length);
            System.arraycopy(b, 0, both, a.length, b.length);
            return both;
        }

        private static byte[] sha256(byte[] bytes) {
            try {
                return MessageDigest.getInstance("SHA-256").digest(bytes);
            } catch (NoSuchAlgorithmException e) {
                throw new IllegalStateException(e);
            }
        }
    }


    /**
     * Text with choices and slots: {@code {{a|b|c}}} becomes one of its options (drawn from the secret, in
     * order of appearance), {@code ${name}} the value of a slot. Options do not nest.
     *
     * <p>Grammatical number: an option ending in {@code #sg} or {@code #pl} is a subject that sets the number
     * ({@code {{Messages#pl|The message#sg}}}); an option ending in {@code @sg} or {@code @pl} is a verb form
     * that agrees with it ({@code {{come from@pl|comes from@sg}}}). A choice after a subject draws only among
     * its options of that number (and its unmarked ones), so every expansion agrees.
     */
    record Template(List<Part> parts) {

        /** A piece of a template: fixed text, or a choice between options. */
        sealed interface Part permits Text, Choice {
        }

        /** Fixed text (slots still to fill). */
        record Text(String text) implements Part {
        }

        /**
         * One of several options (slots still to fill), each with its number mark: {@code "#sg"}, {@code "#pl"}
         * (sets the number), {@code "@sg"}, {@code "@pl"} (agrees with it) or {@code ""} (neither).
         */
        record Choice(List<String> options, List<String> marks) implements Part {

            /** Whether option {@code i} may follow a subject of {@code number} (null: no subject yet). */
            boolean agrees(int i, String number) {
                String mark = marks.get(i);
                return number == null || !mark.startsWith("@") || mark.substring(1).equals(number);
            }

            /** The number option {@code i} sets, or {@code current} when it sets none. */
            String sets(int i, String current) {
                String mark = marks.get(i);
                return mark.startsWith("#") ? mark.substring(1) : current;
            }
        }

        static final Pattern SLOT = Pattern.compile("\\$\\{([A-Za-z][A-Za-z0-9]*)}");
        private static final Pattern MARK = Pattern.compile("[#@](sg|pl)$");

        static Template parse(String source) {
            List<Part> parts = new ArrayList<>();
            int i = 0;
            while (i < source.length()) {
                int open = source.indexOf("{{", i);
                if (open < 0) {
                    parts.add(new Text(source.substring(i)));
                    break;
                }
                int close = source.indexOf("}}", open);
                if (close < 0 || source.substring(open + 2, close).contains("{{")) {
                    throw new IllegalArgumentException("unclosed or nested {{ in template: " + source);
                }
                if (open > i) {
                    parts.add(new Text(source.substring(i, open)));
                }
                List<String> options = new ArrayList<>();
                List<String> marks = new ArrayList<>();
                for (String option : source.substring(open + 2, close).split("\\|", -1)) {
                    Matcher mark = MARK.matcher(option);
                    boolean marked = mark.find();
                    options.add(marked ? option.substring(0, mark.start()) : option);
                    marks.add(marked ? mark.group() : "");
                }
                parts.add(new Choice(List.copyOf(options), List.copyOf(marks)));
                i = close + 2;
            }
            return new Template(List.copyOf(parts));
        }

        String expand(Draw draw, Function<String, String> slots) {
            StringBuilder out = new StringBuilder();
            String number = null;
            for (Part part : parts) {
                String text;
                if (part instanceof Choice choice) {
                    List<Integer> fitting = new ArrayList<>();
                    for (int i = 0; i < choice.options().size(); i++) {
                        if (choice.agrees(i, number)) {
                            fitting.add(i);
                        }
                    }
                    int drawn = fitting.get(draw.next(fitting.size()));
                    number = choice.sets(drawn, number);
                    text = choice.options().get(drawn);
                } else {
                    text = ((Text) part).text();
                }
                out.append(fill(text, slots));
            }
            return out.toString();
        }

        static String fill(String text, Function<String, String> slots) {
            Matcher m = SLOT.matcher(text);
            StringBuilder out = new StringBuilder();
            while (m.find()) {
                m.appendReplacement(out, Matcher.quoteReplacement(slots.apply(m.group(1))));
            }
            m.appendTail(out);
            return out.toString();
        }
    }

    /** How a composed name joins its words. */
    enum Style {
        PASCAL, CAMEL, SNAKE, UPPER_SNAKE, KEBAB, DOTTED, SLASHED, FLAT, RAW;

        String apply(String expanded) {
            if (this == RAW) {
                return expanded;
            }
            List<String> words = words(expanded);
            return switch (this) {
                case PASCAL -> words.stream().map(Style::capital).collect(Collectors.joining());
                case CAMEL -> words.get(0) + words.stream().skip(1).map(Style::capital).collect(Collectors.joining());
                case SNAKE -> String.join("_", words);
                case UPPER_SNAKE -> String.join("_", words).toUpperCase(Locale.ROOT);
                case KEBAB -> String.join("-", words);
                case DOTTED -> String.join(".", words);
                case SLASHED -> String.join("/", words);
                case FLAT -> String.join("", words);
                case RAW -> expanded;
            };
        }

        private static String capital(String word) {
            return word.isEmpty() ? word : Character.toUpperCase(word.charAt(0)) + word.substring(1);
        }
    }

    /**
     * The words of a name or phrase, lower case: split at anything but letters and digits, at a lower-to-upper
     * change ({@code seatEvent}), before the last capital of a run ({@code HTTPClient}) and between letters and
     * digits ({@code retries503}).
     */
    static List<String> words(String text) {
        List<String> out = new ArrayList<>();
        StringBuilder word = new StringBuilder();
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (!Character.isLetterOrDigit(c)) {
                flush(word, out);
                continue;
            }
            if (word.length() > 0) {
                char prev = text.charAt(i - 1);
                char next = i + 1 < text.length() ? text.charAt(i + 1) : ' ';
                boolean camel = Character.isLowerCase(prev) && Character.isUpperCase(c);
                boolean acronymEnd = Character.isUpperCase(prev) && Character.isUpperCase(c) && Character.isLowerCase(next);
                boolean digits = Character.isDigit(prev) != Character.isDigit(c);
                if (camel || acronymEnd || digits) {
                    flush(word, out);
                }
            }
            word.append(c);
        }
        flush(word, out);
        return out;
    }

    private static void flush(StringBuilder word, List<String> out) {
        if (word.length() > 0) {
            out.add(word.toString().toLowerCase(Locale.ROOT));
            word.setLength(0);
        }
    }

    /** A name a handout composes: its slot, the packet's name it replaces (or none), its style and template. */
    record NameRule(String slot, String canonical, Style style, Template template) {
    }

    /** One scenario of a packet: its slot values (a value with choices is drawn once per handout). */
    record Domain(String id, Map<String, String> words) {
    }

    /**
     * Where a generated comment goes: before the one line of {@code file} that {@code line} matches, in every
     * starter shape ({@code shape} -1) or in one.
     */
    record Anchor(String file, Pattern line, Template template, int shape) {
    }

    /**
     * Lines of the starters' code that one draw rewrites together (a field and the lines that read it), and
     * their equivalents: each option holds one line for each of {@code lines}.
     */
    record Idiom(List<String> lines, List<List<String>> options) {
    }

    /**
     * The packet's names and their names in one handout: tokens (identifiers, package names, paths and words,
     * renamed as whole tokens; a local one never right after a dot, where a library's member of the same name
     * stands), literals (a Java string's whole content, reworded) and elements (a pom element's whole text).
     * Written as {@code mapping.tsv}.
     */
    public static final class Mapping {
        private final String packet;
        private final String domain;
        private final Map<String, String> tokens = new LinkedHashMap<>();
        private final Set<String> locals = new TreeSet<>();
        private final Set<String> codeOnly = new TreeSet<>();
        private final Map<String, String> literals = new LinkedHashMap<>();
        private final Map<String, String> elements = new LinkedHashMap<>();
        private final Map<String, String> idioms = new LinkedHashMap<>();
        private Pattern pattern;
        private String patternKeys = "";
        private Pattern codePattern;
        private String codePatternKeys = "";

        Mapping(String packet, String domain) {
            this.packet = packet;
            this.domain = domain;
        }

        public String packet() {
            return packet;
        }

        public String domain() {
            return domain;
        }

        /** Packet token to handout token, in the order they were made. */
        public Map<String, String> tokens() {
            return tokens;
        }

        /** The tokens never renamed right after a dot. */
        public Set<String> locals() {
            return locals;
        }

        /**
         * The tokens renamed in Java code only, never in a string, a comment, a path or a build file: a local
         * name such as {@code http} or {@code json} is also a word of URLs and media types.
         */
        public Set<String> codeOnly() {
            return codeOnly;
        }

        /** A whole trimmed line of the starter's Java code in the packet, and its equivalent in the handout. */
        public Map<String, String> idioms() {
            return idioms;
        }

        /** A Java string's whole content in the packet, and in the handout. */
        public Map<String, String> literals() {
            return literals;
        }

        /** A pom element's whole text in the packet, and in the handout. */
        public Map<String, String> elements() {
            return elements;
        }

        /** Whole-token renaming: a token never changes inside a longer token ({@code [A-Za-z0-9_$]} bound it). */
        String renameTerms(String text) {
            String keysNow = tokens.keySet() + "" + locals + codeOnly;
            if (!keysNow.equals(patternKeys)) {
                pattern = tokenPattern(tokens.keySet().stream().filter(k -> !codeOnly.contains(k)).toList());
                patternKeys = keysNow;
            }
            return rename(text, pattern);
        }

        /** As {@link #renameTerms}, with the code-only tokens too: for Java code outside strings and comments. */
        String renameCode(String text) {
            String keysNow = tokens.keySet() + "" + locals + codeOnly;
            if (!keysNow.equals(codePatternKeys)) {
                codePattern = tokenPattern(List.copyOf(tokens.keySet()));
                codePatternKeys = keysNow;
            }
            return rename(text, codePattern);
        }

        private Pattern tokenPattern(List<String> unsorted) {
            if (unsorted.isEmpty()) {
                return null;
            }
            List<String> keys = new ArrayList<>(unsorted);
            keys.sort(Comparator.comparingInt(String::length).reversed());
            return Pattern.compile("(?<![A-Za-z0-9_$])(?:" + keys.stream()
                    .map(k -> (locals.contains(k) ? "(?<!\\.)" : "") + Pattern.quote(k))
                    .collect(Collectors.joining("|")) + ")(?![A-Za-z0-9_$])");
        }

        private String rename(String text, Pattern pattern) {
            if (pattern == null) {
                return text;
            }
            Matcher m = pattern.matcher(text);
            StringBuilder out = new StringBuilder();
            while (m.find()) {
                boolean qualified = codeOnly.contains(m.group()) && qualifiedByPackageOrObject(text, m.start());
                m.appendReplacement(out, Matcher.quoteReplacement(qualified ? m.group() : tokens.get(m.group())));
            }
            m.appendTail(out);
            return out.toString();
        }

        /**
         * Whether the token at {@code at} follows a lower-case name and a dot other than {@code this.}: a package
         * ({@code java.net.http}) or another object's member ({@code request.uri()}), never the packet's own name.
         */
        private static boolean qualifiedByPackageOrObject(String text, int at) {
            if (at == 0 || text.charAt(at - 1) != '.') {
                return false;
            }
            int start = at - 1;
            while (start > 0 && (Character.isLetterOrDigit(text.charAt(start - 1)) || text.charAt(start - 1) == '_')) {
                start--;
            }
            String qualifier = text.substring(start, at - 1);
            return !qualifier.isEmpty() && Character.isLowerCase(qualifier.charAt(0)) && !qualifier.equals("this");
        }

        /**
         * A Java file's lines (in the packet's names) with this mapping's idioms replaced, indentation kept: the
         * handout's equivalents, or, in a {@link #reversed()} mapping, the packet's lines back.
         */
        String replaceIdioms(String text) {
            if (idioms.isEmpty()) {
                return text;
            }
            return text.lines().map(line -> {
                String idiom = idioms.get(line.strip());
                return idiom == null ? line : line.substring(0, line.length() - line.stripLeading().length()) + idiom;
            }).collect(Collectors.joining("\n", "", text.endsWith("\n") ? "\n" : ""));
        }

        /** An XML file: whole elements first ({@code <finalName>...}), then tokens. */
        String renameXml(String text) {
            String result = text;
            for (Map.Entry<String, String> e : elements.entrySet()) {
                result = result.replace(e.getKey(), e.getValue());
            }
            return renameTerms(result);
        }

        Mapping reversed() {
            Mapping back = new Mapping(packet, domain);
            tokens.forEach((from, to) -> back.tokens.put(to, from));
            locals.forEach(from -> back.locals().add(tokens.get(from)));
            codeOnly.forEach(from -> back.codeOnly().add(tokens.get(from)));
            literals.forEach((from, to) -> back.literals().put(to, from));
            elements.forEach((from, to) -> back.elements().put(to, from));
            idioms.forEach((from, to) -> back.idioms().put(to, from));
            return back;
        }

        void checkInjective() {
            for (Map<String, String> kind : List.of(tokens, literals, elements, idioms)) {
                Set<String> seen = new TreeSet<>();
                kind.values().forEach(to -> {
                    if (!seen.add(to)) {
                        throw new IllegalStateException("two names became " + to + " in one handout");
                    }
                });
            }
        }

        /** Every packet token must occur in the packet: a name that matched nothing means the packet drifted. */
        void checkUsed(Map<String, String> starter, Map<String, String> keyTests, Map<String, String> reference) {
            String all = Stream.of(starter, keyTests, reference).flatMap(m -> Stream.concat(m.keySet().stream(),
                    m.values().stream())).collect(Collectors.joining("\n"));
            for (String token : tokens.keySet()) {
                if (!Pattern.compile("(?<![A-Za-z0-9_$])" + Pattern.quote(token) + "(?![A-Za-z0-9_$])").matcher(all).find()) {
                    throw new IllegalStateException("the packet no longer contains " + token + "; update PacketVariant");
                }
            }
        }

        String render() {
            StringBuilder out = new StringBuilder("# " + packet + " handout, domain " + domain
                    + ". kind, packet, handout (tab-separated). For interviewers only.\n");
            tokens.forEach((k, v) -> out.append(codeOnly.contains(k) ? "code\t" : locals.contains(k) ? "local\t"
                    : "token\t").append(k).append('\t').append(v).append('\n'));
            literals.forEach((k, v) -> out.append("literal\t").append(k).append('\t').append(v).append('\n'));
            elements.forEach((k, v) -> out.append("element\t").append(k).append('\t').append(v).append('\n'));
            idioms.forEach((k, v) -> out.append("idiom\t").append(k).append('\t').append(v).append('\n'));
            return out.toString();
        }

        static Mapping parse(String text) {
            Matcher header = Pattern.compile("^# (\\S+) handout, domain (\\S+)\\.").matcher(text);
            if (!header.find()) {
                throw new IllegalArgumentException("not a handout mapping (no header line)");
            }
            Mapping mapping = new Mapping(header.group(1), header.group(2));
            for (String line : text.split("\n")) {
                String[] f = line.split("\t", -1);
                if (line.startsWith("#") || line.isBlank()) {
                    continue;
                }
                if (f.length != 3) {
                    throw new IllegalArgumentException("mapping line is not kind<TAB>packet<TAB>handout: " + line);
                }
                if (f[0].equals("local")) {
                    mapping.locals().add(f[1]);
                }
                if (f[0].equals("code")) {
                    mapping.codeOnly().add(f[1]);
                }
                Map<String, String> kind = switch (f[0]) {
                    case "token", "local", "code" -> mapping.tokens();
                    case "literal" -> mapping.literals();
                    case "element" -> mapping.elements();
                    case "idiom" -> mapping.idioms();
                    default -> throw new IllegalArgumentException("unknown mapping kind " + f[0]);
                };
                kind.put(f[1], f[2]);
            }
            return mapping;
        }
    }


    /** The packet-to-handout transformation of one handout. */
    static final class Transform {
        private static final Pattern XML_COMMENT = Pattern.compile("<!--.*?-->", Pattern.DOTALL);
        private static final Pattern VERSION_PROPERTY = Pattern.compile("(?m)^\\s*<([\\w.-]+\\.version)>([^<]+)</\\1>\\s*\\n");
        private static final char GONE = '\u0001';

        private final Spec spec;
        private final Mapping mapping;
        private final List<String> comments;
        private final int shape;

        Transform(Spec spec, Mapping mapping, List<String> comments, int shape) {
            this.spec = spec;
            this.mapping = mapping;
            this.comments = comments;
            this.shape = shape;
        }

        /**
         * The handout's version of a starter tree: comments removed and the generated ones placed at their
         * anchors, names and prose literals replaced, paths renamed. {@code strict}: every anchor must be found.
         */
        SortedMap<String, String> handout(Map<String, String> tree, boolean strict) {
            SortedMap<String, String> out = new TreeMap<>();
            tree.forEach((path, text) -> {
                String result;
                if (path.endsWith(".java")) {
                    result = java(path, text, strict);
                } else if (path.endsWith(".xml")) {
                    result = xml(path, text, strict);
                } else {
                    result = mapping.renameTerms(text);
                }
                out.put(mapping.renameTerms(path), result);
            });
            return out;
        }

        /** An interviewer's Java file (key tests): renamed everywhere, comments included, nothing removed. */
        String interviewer(String path, String text) {
            return path.endsWith(".java") ? renameJava(text, mapping, true) : mapping.renameTerms(text);
        }

        private String java(String path, String text, boolean strict) {
            StringBuilder stripped = new StringBuilder();
            for (Piece piece : lex(text)) {
                stripped.append(piece.kind() == Piece.Kind.COMMENT ? String.valueOf(GONE) : piece.text());
            }
            List<String> lines = new ArrayList<>(cleanLines(stripped.toString()));
            lines.replaceAll(mapping::replaceIdioms);
            List<Integer> mine = new ArrayList<>();
            for (int i = 0; i < spec.anchors().size(); i++) {
                if (spec.anchors().get(i).file().equals(path)) {
                    mine.add(i);
                }
            }
            for (int index : mine) {
                Anchor anchor = spec.anchors().get(index);
                List<Integer> hits = new ArrayList<>();
                for (int i = 0; i < lines.size(); i++) {
                    if (anchor.line().matcher(lines.get(i)).find()) {
                        hits.add(i);
                    }
                }
                if (hits.size() != 1) {
                    if (strict && (anchor.shape() < 0 || anchor.shape() == shape)) {
                        throw new IllegalStateException(path + ": anchor " + anchor.line() + " matched " + hits.size()
                                + " lines; update PacketVariant");
                    }
                    continue;
                }
                String line = lines.get(hits.get(0));
                String indent = line.substring(0, line.length() - line.stripLeading().length());
                lines.add(hits.get(0), indent + "// @@" + index + "@@");
            }
            String renamed = renameJava(String.join("\n", lines) + "\n", mapping, false);
            Matcher marker = Pattern.compile("(?m)^([ \\t]*)// @@(\\d+)@@$").matcher(renamed);
            StringBuilder out = new StringBuilder();
            while (marker.find()) {
                String comment = format(comments.get(Integer.parseInt(marker.group(2))), marker.group(1));
                marker.appendReplacement(out, Matcher.quoteReplacement(comment));
            }
            marker.appendTail(out);
            return out.toString();
        }

        /** Renames a Java source's code and literals (and, when asked, its comments) by {@code mapping}. */
        static String renameJava(String text, Mapping mapping, boolean comments) {
            StringBuilder out = new StringBuilder();
            for (Piece piece : lex(text)) {
                String code = piece.text();
                switch (piece.kind()) {
                    case CODE -> out.append(mapping.renameCode(code));
                    case COMMENT -> out.append(comments ? mapping.renameTerms(code) : code);
                    case LITERAL -> {
                        String quote = code.startsWith("\"\"\"") ? "\"\"\"" : code.substring(0, 1);
                        String content = code.substring(quote.length(), code.length() - quote.length());
                        String replaced = mapping.literals().get(content);
                        out.append(quote).append(replaced != null ? replaced : mapping.renameTerms(content)).append(quote);
                    }
                }
            }
            return out.toString();
        }

        private String xml(String path, String text, boolean strict) {
            String result = cleanLines(XML_COMMENT.matcher(text).replaceAll(String.valueOf(GONE))).stream()
                    .collect(Collectors.joining("\n", "", "\n"));
            if (path.equals("pom.xml")) {
                Map<String, String> versions = new LinkedHashMap<>();
                Matcher m = VERSION_PROPERTY.matcher(result);
                while (m.find()) {
                    versions.put(m.group(1), m.group(2));
                }
                result = VERSION_PROPERTY.matcher(result).replaceAll("");
                for (Map.Entry<String, String> e : versions.entrySet()) {
                    result = result.replace("${" + e.getKey() + "}", e.getValue());
                }
            }
            result = mapping.renameXml(result);
            for (int i = 0; i < spec.anchors().size(); i++) {
                Anchor anchor = spec.anchors().get(i);
                if (anchor.file().equals(path)) {
                    Matcher at = anchor.line().matcher(result);
                    if (!at.find()) {
                        if (strict) {
                            throw new IllegalStateException(path + ": anchor " + anchor.line() + " not found");
                        }
                        continue;
                    }
                    String lineStart = result.substring(at.start()).replaceAll("(?s)^([ \\t]*).*", "$1");
                    result = result.substring(0, at.start()) + format(comments.get(i), lineStart) + "\n"
                            + result.substring(at.start());
                }
            }
            return result;
        }

        /** Drops lines that held only a removed comment, runs of blank lines and leading blank lines. */
        private static List<String> cleanLines(String text) {
            List<String> out = new ArrayList<>();
            for (String line : text.split("\n", -1)) {
                boolean hadComment = line.indexOf(GONE) >= 0;
                String kept = line.replace(String.valueOf(GONE), "").stripTrailing();
                if (hadComment && kept.isBlank()) {
                    continue;
                }
                boolean blank = kept.isBlank();
                if (blank && (out.isEmpty() || out.get(out.size() - 1).isBlank())) {
                    continue;
                }
                out.add(blank ? "" : kept);
            }
            while (!out.isEmpty() && out.get(out.size() - 1).isEmpty()) {
                out.remove(out.size() - 1);
            }
            return out;
        }

        /**
         * A generated comment as source lines: {@code /**} (Javadoc), {@code //} or {@code <!--} by how the
         * expanded template starts; paragraphs (blank-line separated, a Javadoc one opening with its own
         * {@code <p>}, so the leak check sees every word) wrap at 110 columns.
         */
        static String format(String comment, String indent) {
            String kind = comment.startsWith("/**") ? "/**" : comment.startsWith("<!--") ? "<!--" : "//";
            String body = comment.substring(kind.length()).strip();
            String end = kind.equals("/**") ? "*/" : kind.equals("<!--") ? "-->" : "";
            if (!end.isEmpty() && body.endsWith(end)) {
                body = body.substring(0, body.length() - end.length()).strip();
            }
            String prefix = switch (kind) {
                case "/**" -> indent + " * ";
                case "<!--" -> indent + "  ";
                default -> indent + "// ";
            };
            List<String> lines = new ArrayList<>();
            String[] paragraphs = body.split("\n\\s*\n");
            for (int p = 0; p < paragraphs.length; p++) {
                String text = paragraphs[p].strip().replaceAll("\\s+", " ");
                if (kind.equals("/**") && p > 0) {
                    lines.add(indent + " *");
                }
                lines.addAll(wrap(text, prefix, 110));
            }
            return switch (kind) {
                case "/**" -> lines.size() == 1 && lines.get(0).length() + 4 <= 110
                        ? indent + "/** " + lines.get(0).substring(prefix.length()) + " */"
                        : indent + "/**\n" + String.join("\n", lines) + "\n" + indent + " */";
                case "<!--" -> indent + "<!--\n" + String.join("\n", lines) + "\n" + indent + "-->";
                default -> String.join("\n", lines);
            };
        }

        private static List<String> wrap(String text, String prefix, int width) {
            List<String> lines = new ArrayList<>();
            StringBuilder line = new StringBuilder(prefix);
            // "{@code x}" stays on one line: a break after "{@code" reads as a stray brace.
            for (String word : text.replace("{@code ", "{@code\u00a0").split(" ")) {
                word = word.replace('\u00a0', ' ');
                if (line.length() > prefix.length() && line.length() + 1 + word.length() > width) {
                    lines.add(line.toString());
                    line = new StringBuilder(prefix);
                }
                if (line.length() > prefix.length()) {
                    line.append(' ');
                }
                line.append(word);
            }
            lines.add(line.toString());
            return lines;
        }

        /** A piece of Java source as written: a literal keeps its quotes, a comment its markers. */
        record Piece(Kind kind, String text) {
            enum Kind { CODE, COMMENT, LITERAL }
        }

        /** A Java source cut into code, comments and literals; joining the pieces gives the source back. */
        static List<Piece> lex(String source) {
            List<Piece> out = new ArrayList<>();
            int start = 0;
            int i = 0;
            int n = source.length();
            while (i < n) {
                char c = source.charAt(i);
                char next = i + 1 < n ? source.charAt(i + 1) : '\0';
                int stop;
                Piece.Kind kind;
                if (c == '/' && (next == '/' || next == '*')) {
                    int end = next == '/' ? source.indexOf('\n', i) : source.indexOf("*/", i + 2);
                    stop = end < 0 ? n : next == '/' ? end : end + 2;
                    kind = Piece.Kind.COMMENT;
                } else if (source.startsWith("\"\"\"", i)) {
                    int end = source.indexOf("\"\"\"", i + 3);
                    stop = end < 0 ? n : end + 3;
                    kind = Piece.Kind.LITERAL;
                } else if (c == '"' || c == '\'') {
                    int j = i + 1;
                    while (j < n && source.charAt(j) != c && source.charAt(j) != '\n') {
                        j += source.charAt(j) == '\\' ? 2 : 1;
                    }
                    stop = Math.min(n, j + 1);
                    kind = Piece.Kind.LITERAL;
                } else {
                    i++;
                    continue;
                }
                if (i > start) {
                    out.add(new Piece(Piece.Kind.CODE, source.substring(start, i)));
                }
                out.add(new Piece(kind, source.substring(i, stop)));
                i = stop;
                start = stop;
            }
            if (start < n) {
                out.add(new Piece(Piece.Kind.CODE, source.substring(start)));
            }
            return out;
        }
    }


    /** Where the build leaves the scoring kit's library jars (docs/pom.xml), relative to the project root. */
    static final String KIT_JARS = "docs/target/scoring-kit";

    /** Where the build leaves fake-server's runnable jar, relative to the project root. */
    static final String KIT_GRADER = "fake-server/target/fake-server.jar";

    /**
     * The scoring kit's jars per packet, by artifactId: what the hand-in's main code compiles against, what it
     * runs with besides, what its tests add (JUnit's own API comes with the console launcher), and the
     * dependencies the starter's pom names, which are all a hand-in may name.
     */
    private record KitSpec(List<String> compile, List<String> runtime, List<String> test, List<String> dependencies,
            boolean graded) {
        static KitSpec of(String packet) {
            List<String> jackson = List.of("jackson-databind", "jackson-core", "jackson-annotations");
            if (packet.equals("seat-grant")) {
                return new KitSpec(Stream.concat(jackson.stream(), Stream.of("slf4j-api")).toList(),
                        List.of("logback-classic", "logback-core"), List.of("wiremock-standalone"),
                        List.of("com.fasterxml.jackson.core:jackson-databind", "org.slf4j:slf4j-api",
                                "ch.qos.logback:logback-classic", "org.junit.jupiter:junit-jupiter",
                                "org.wiremock:wiremock-standalone"), true);
            }
            return new KitSpec(jackson, List.of(), List.of("wiremock-standalone"),
                    List.of("com.fasterxml.jackson.core:jackson-databind", "org.junit.jupiter:junit-jupiter",
                            "org.wiremock:wiremock-standalone"), false);
        }
    }

    /** Whether this checkout has built what {@link #writeKit} copies. */
    static boolean kitBuilt(Path root) {
        return Files.isDirectory(root.resolve(KIT_JARS)) && Files.isRegularFile(root.resolve(KIT_GRADER));
    }

    /**
     * Writes the scoring kit into {@code interviewer/kit/} of a handout written under {@code out}: the JUnit
     * console launcher and the starter's dependency jars from {@code jars}, fake-server's runnable jar
     * {@code grader} (graded packets), {@code ScoringKit.java}, its properties, and {@code SHA256SUMS}. Returns
     * the kit's size in bytes.
     */
    static long writeKit(Path root, Handout handout, Path out, Path jars, Path grader) throws IOException {
        KitSpec spec = KitSpec.of(handout.packet());
        Path interviewer = out.resolve("interviewer");
        Path lib = Files.createDirectories(interviewer.resolve("kit/lib"));
        List<String> all = new ArrayList<>(List.of("junit-platform-console-standalone"));
        all.addAll(spec.compile());
        all.addAll(spec.runtime());
        all.addAll(spec.test());
        Map<String, String> names = new LinkedHashMap<>();
        for (String artifact : all) {
            Path jar;
            try (Stream<Path> files = Files.list(jars)) {
                jar = files.filter(f -> f.getFileName().toString().matches(Pattern.quote(artifact) + "-\\d.*\\.jar"))
                        .findFirst().orElseThrow(() -> new IllegalArgumentException("no " + artifact + " jar in " + jars
                                + ": build the kit first (./mvnw -B -q -pl docs -am package -DskipTests)"));
            }
            names.put(artifact, jar.getFileName().toString());
            Files.copy(jar, lib.resolve(jar.getFileName()));
        }
        Properties kit = new Properties();
        kit.setProperty("tests", Spec.of(handout.packet()).keyTests());
        kit.setProperty("compile", spec.compile().stream().map(names::get).collect(Collectors.joining(",")));
        kit.setProperty("runtime", spec.runtime().stream().map(names::get).collect(Collectors.joining(",")));
        kit.setProperty("test", spec.test().stream().map(names::get).collect(Collectors.joining(",")));
        kit.setProperty("dependencies", String.join(",", spec.dependencies()));
        kit.setProperty("fenced", String.valueOf(Spec.of(handout.packet()).fenced()));
        if (spec.graded()) {
            copyWithoutStoreDrivers(grader, lib.resolve("fake-server.jar"));
            kit.setProperty("grader", "kit/lib/fake-server.jar");
            Matcher main = Pattern.compile("<mainClass>\\s*([\\w.$]+)\\s*</mainClass>")
                    .matcher(handout.handout().get("starter/pom.xml"));
            if (main.find()) {
                kit.setProperty("main", main.group(1));
            }
        }
        StringBuilder properties = new StringBuilder("# The scoring kit: read by kit/ScoringKit.java\n");
        new TreeMap<>(kit).forEach((key, value) -> properties.append(key).append('=').append(value).append('\n'));
        Files.writeString(interviewer.resolve("kit/kit.properties"), properties, StandardCharsets.UTF_8);
        Files.writeString(interviewer.resolve("kit/jdk-hosts"), "127.0.0.1 localhost\n", StandardCharsets.UTF_8);
        // Without its package line: from JDK 22 on, the source launcher wants a file's folders to match its package.
        Files.writeString(interviewer.resolve("kit/ScoringKit.java"), read(root.resolve(
                "docs/src/test/java/dev/idempotent/docs/ScoringKit.java")).replaceFirst("(?m)^package [\\w.]+;\\R", ""),
                StandardCharsets.UTF_8);
        StringBuilder sums = new StringBuilder();
        long size = 0;
        try (Stream<Path> files = Files.walk(interviewer.resolve("kit"))) {
            for (Path file : files.filter(Files::isRegularFile).sorted().toList()) {
                sums.append(sha256Hex(file)).append("  ").append(interviewer.relativize(file).toString().replace('\\', '/'))
                        .append('\n');
                size += Files.size(file);
            }
        }
        Files.writeString(interviewer.resolve("kit/SHA256SUMS"), sums, StandardCharsets.UTF_8);
        return size + sums.length();
    }

    /**
     * The database drivers {@code grade} never loads (it keeps its seats in memory): SQLite's alone is 12 MB of
     * native libraries, a quarter of the seat-grant kit. A store asked for without them fails with one line naming
     * what is missing.
     */
    private static final List<String> STORE_DRIVERS = List.of("org/sqlite/", "org/h2/", "org/postgresql/",
            "com/zaxxer/hikari/", "META-INF/services/java.sql.Driver");

    private static void copyWithoutStoreDrivers(Path jar, Path to) throws IOException {
        try (java.util.zip.ZipInputStream in = new java.util.zip.ZipInputStream(Files.newInputStream(jar));
             java.util.zip.ZipOutputStream out = new java.util.zip.ZipOutputStream(Files.newOutputStream(to))) {
            for (java.util.zip.ZipEntry entry; (entry = in.getNextEntry()) != null; ) {
                String name = entry.getName().replaceFirst("^META-INF/versions/\\d+/", "");
                if (STORE_DRIVERS.stream().noneMatch(name::startsWith)) {
                    java.util.zip.ZipEntry copy = new java.util.zip.ZipEntry(entry.getName());
                    copy.setTime(entry.getTime());
                    out.putNextEntry(copy);
                    in.transferTo(out);
                    out.closeEntry();
                }
            }
        }
    }

    /**
     * The same sum as {@code ScoringKit.sha256}, written out again on purpose: this file also runs on its own
     * ({@code java PacketVariant.java}, as {@code GradeHandoutTest} does) and cannot see the kit's class there.
     */
    private static String sha256Hex(Path file) throws IOException {
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            try (java.io.InputStream in = Files.newInputStream(file)) {
                byte[] buffer = new byte[1 << 16];
                for (int n; (n = in.read(buffer)) > 0; ) {
                    digest.update(buffer, 0, n);
                }
            }
            return java.util.HexFormat.of().formatHex(digest.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    static SortedMap<String, String> readTree(Path dir) {
        SortedMap<String, String> files = new TreeMap<>();
        if (!Files.isDirectory(dir)) {
            return files;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path file : (Iterable<Path>) paths.filter(Files::isRegularFile)::iterator) {
                String relative = dir.relativize(file).toString().replace('\\', '/');
                if (!relative.startsWith("target/") && !relative.contains("/target/")) {
                    files.put(relative, read(file));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return files;
    }

    static void writeTree(Path dir, Map<String, String> files) {
        try {
            for (Map.Entry<String, String> e : files.entrySet()) {
                Path target = dir.resolve(e.getKey());
                Files.createDirectories(target.getParent());
                Files.writeString(target, e.getValue(), StandardCharsets.UTF_8);
                if (target.getFileName().toString().equals("mvnw") && !target.toFile().setExecutable(true, false)) {
                    throw new IOException("could not make " + target + " executable");
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String read(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static List<String> childDirectories(Path dir) {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> children = Files.list(dir)) {
            return children.filter(Files::isDirectory).map(p -> p.getFileName().toString()).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }


    /**
     * A strict unified diff: read, apply and write, with the JDK alone (no {@code patch} or {@code git} on the
     * build machine).
     *
     * <p>Strict means no fuzz and no offset: every hunk must start at the line it names, and every context and
     * removed line must match byte for byte, or applying throws {@link PatchException}. That is the point: a
     * patch that only applies "approximately" is a packet that has drifted.
     *
     * <p>Reads what {@code diff -u} and {@code git diff} write: {@code ---}/{@code +++} headers (paths taken with
     * one leading component stripped, like {@code patch -p1}, and {@code /dev/null} for a created or deleted
     * file), {@code @@ -a,b +c,d @@} hunks and {@code \ No newline at end of file}. Anything outside a file
     * section ({@code diff --git}, {@code index}) is skipped. Paths that are absolute or climb out with
     * {@code ..} are refused. Immutable once parsed.
     */
    public static final class UnifiedDiff {

        private static final Pattern HUNK = Pattern.compile("^@@ -(\\d+)(?:,(\\d+))? \\+(\\d+)(?:,(\\d+))? @@.*$");
        private static final String DEV_NULL = "/dev/null";
        private static final String NO_NEWLINE = "\\ No newline at end of file";
        private static final int CONTEXT = 3;

        /** One file's section of the diff. A {@code null} path means the file is created or deleted. */
        public record FilePatch(String oldPath, String newPath, List<Hunk> hunks) {
            public FilePatch {
                hunks = List.copyOf(hunks);
            }
        }

        /**
         * One hunk. {@code lines} keep their one-character prefix (' ', '-', '+'); the two flags say whether the
         * old or new side's last line in this hunk lacks a trailing newline.
         */
        public record Hunk(int oldStart, int oldCount, int newStart, int newCount, List<String> lines,
                boolean oldMissingNewline, boolean newMissingNewline) {
            public Hunk {
                lines = List.copyOf(lines);
            }
        }

        /** Thrown when a diff cannot be parsed or does not match the files it is applied to. */
        public static final class PatchException extends RuntimeException {
            private static final long serialVersionUID = 1L;

            PatchException(String message) {
                super(message);
            }
        }

        private final List<FilePatch> files;

        private UnifiedDiff(List<FilePatch> files) {
            this.files = List.copyOf(files);
        }

        /** The file sections, in the order the diff lists them. */
        public List<FilePatch> files() {
            return files;
        }

        /** Reads and parses a UTF-8 diff file. */
        public static UnifiedDiff read(Path patchFile) {
            return parse(PacketVariant.read(patchFile));
        }

        /** Parses diff text; throws {@link PatchException} when it is malformed or names no file. */
        public static UnifiedDiff parse(String text) {
            List<String> lines = splitLines(text).lines();
            List<FilePatch> files = new ArrayList<>();
            int i = 0;
            while (i < lines.size()) {
                if (!lines.get(i).startsWith("--- ")) {
                    i++;
                    continue;
                }
                if (i + 1 >= lines.size() || !lines.get(i + 1).startsWith("+++ ")) {
                    throw new PatchException("line " + (i + 1) + ": '---' header without '+++'");
                }
                String oldPath = headerPath(lines.get(i));
                String newPath = headerPath(lines.get(i + 1));
                i += 2;
                List<Hunk> hunks = new ArrayList<>();
                while (i < lines.size() && lines.get(i).startsWith("@@")) {
                    Matcher m = HUNK.matcher(lines.get(i));
                    if (!m.matches()) {
                        throw new PatchException("line " + (i + 1) + ": malformed hunk header");
                    }
                    int oldStart = Integer.parseInt(m.group(1));
                    int oldCount = m.group(2) == null ? 1 : Integer.parseInt(m.group(2));
                    int newStart = Integer.parseInt(m.group(3));
                    int newCount = m.group(4) == null ? 1 : Integer.parseInt(m.group(4));
                    i++;
                    List<String> body = new ArrayList<>();
                    int oldSeen = 0;
                    int newSeen = 0;
                    boolean oldMissing = false;
                    boolean newMissing = false;
                    while (oldSeen < oldCount || newSeen < newCount) {
                        if (i >= lines.size()) {
                            throw new PatchException("hunk at old line " + oldStart + " ends early");
                        }
                        String line = lines.get(i);
                        char kind = line.isEmpty() ? ' ' : line.charAt(0);
                        // Some tools drop the space of an empty context line; treat "" as " ".
                        String normalized = line.isEmpty() ? " " : line;
                        switch (kind) {
                            case ' ' -> {
                                oldSeen++;
                                newSeen++;
                            }
                            case '-' -> oldSeen++;
                            case '+' -> newSeen++;
                            default -> throw new PatchException("line " + (i + 1) + ": unexpected '" + kind + "' in hunk");
                        }
                        body.add(normalized);
                        i++;
                        if (i < lines.size() && lines.get(i).equals(NO_NEWLINE)) {
                            oldMissing |= kind != '+';
                            newMissing |= kind != '-';
                            i++;
                        }
                    }
                    if (oldSeen != oldCount || newSeen != newCount) {
                        throw new PatchException("hunk at old line " + oldStart + " does not match its counts");
                    }
                    hunks.add(new Hunk(oldStart, oldCount, newStart, newCount, body, oldMissing, newMissing));
                }
                if (hunks.isEmpty()) {
                    throw new PatchException("file section for " + (newPath != null ? newPath : oldPath) + " has no hunk");
                }
                files.add(new FilePatch(oldPath, newPath, hunks));
            }
            if (files.isEmpty()) {
                throw new PatchException("the diff names no file");
            }
            return new UnifiedDiff(files);
        }

        /**
         * Applies every file section under {@code root}: modifies, creates or deletes files.
         *
         * @throws PatchException when a hunk does not match the file exactly, a file to create exists, or a
         *     file to modify is missing
         */
        public void applyTo(Path root) {
            for (FilePatch file : files) {
                String name = file.newPath() != null ? file.newPath() : file.oldPath();
                Path target = resolveInside(root, name);
                try {
                    String old = Files.isRegularFile(target) ? Files.readString(target, StandardCharsets.UTF_8) : null;
                    String result = apply(file, name, old);
                    if (result == null) {
                        Files.delete(target);
                    } else {
                        Files.createDirectories(target.getParent());
                        Files.writeString(target, result, StandardCharsets.UTF_8);
                    }
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
        }

        /** Applies every file section to an in-memory tree (relative path to text); returns the new tree. */
        public SortedMap<String, String> applyTo(Map<String, String> tree) {
            SortedMap<String, String> result = new TreeMap<>(tree);
            for (FilePatch file : files) {
                String name = file.newPath() != null ? file.newPath() : file.oldPath();
                resolveInside(Path.of("."), name);
                String text = apply(file, name, result.get(name));
                if (text == null) {
                    result.remove(name);
                } else {
                    result.put(name, text);
                }
            }
            return result;
        }

        /** The new text of one file ({@code old} is null when it does not exist); null when it is deleted. */
        private static String apply(FilePatch file, String name, String old) {
            Content before;
            if (file.oldPath() == null) {
                if (old != null) {
                    throw new PatchException(name + ": the diff creates it, but it exists");
                }
                before = new Content(List.of(), true);
            } else {
                if (old == null) {
                    throw new PatchException(name + ": the diff modifies it, but it is missing");
                }
                before = splitLines(old);
            }
            List<String> result = new ArrayList<>();
            int cursor = 0;
            boolean newEndsWithNewline = before.endsWithNewline();
            for (Hunk hunk : file.hunks()) {
                // A hunk that only adds lines names the line it follows; any other names its first line.
                int start = hunk.oldCount() == 0 ? hunk.oldStart() : hunk.oldStart() - 1;
                if (start < cursor || start + hunk.oldCount() > before.lines().size()) {
                    throw new PatchException(name + ": hunk at old line " + hunk.oldStart() + " is out of place");
                }
                result.addAll(before.lines().subList(cursor, start));
                int at = start;
                for (String line : hunk.lines()) {
                    char kind = line.charAt(0);
                    String text = line.substring(1);
                    if (kind != '+') {
                        if (!before.lines().get(at).equals(text)) {
                            throw new PatchException(name + ": line " + (at + 1) + " does not match the diff's "
                                    + (kind == '-' ? "removed" : "context") + " line");
                        }
                        at++;
                    }
                    if (kind != '-') {
                        result.add(text);
                    }
                }
                boolean touchesOldEnd = at == before.lines().size();
                if (touchesOldEnd && hunk.oldCount() > 0 && hunk.oldMissingNewline() == before.endsWithNewline()) {
                    throw new PatchException(name + ": the diff disagrees about the newline at the end of the file");
                }
                if (touchesOldEnd) {
                    newEndsWithNewline = !hunk.newMissingNewline();
                }
                cursor = at;
            }
            result.addAll(before.lines().subList(cursor, before.lines().size()));
            if (file.newPath() == null) {
                if (!result.isEmpty()) {
                    throw new PatchException(name + ": the diff deletes it, but lines would remain");
                }
                return null;
            }
            return String.join("\n", result) + (newEndsWithNewline && !result.isEmpty() ? "\n" : "");
        }

        /**
         * The unified diff ({@code a/} and {@code b/} prefixes, three lines of context) that turns {@code before}
         * into {@code after}; a file missing on one side is created or deleted. Every text must end in a newline.
         */
        public static String write(Map<String, String> before, Map<String, String> after) {
            StringBuilder out = new StringBuilder();
            for (String path : new TreeSet<>(Stream.concat(before.keySet().stream(), after.keySet().stream()).toList())) {
                String a = before.get(path);
                String b = after.get(path);
                if (a != null && a.equals(b)) {
                    continue;
                }
                List<String> old = a == null ? List.of() : splitLines(endsWithNewline(a, path)).lines();
                List<String> now = b == null ? List.of() : splitLines(endsWithNewline(b, path)).lines();
                out.append("--- ").append(a == null ? DEV_NULL : "a/" + path).append('\n');
                out.append("+++ ").append(b == null ? DEV_NULL : "b/" + path).append('\n');
                hunks(old, now, out);
            }
            return out.toString();
        }

        private static String endsWithNewline(String text, String path) {
            if (!text.isEmpty() && !text.endsWith("\n")) {
                throw new IllegalArgumentException(path + " does not end in a newline");
            }
            return text;
        }

        private static void hunks(List<String> old, List<String> now, StringBuilder out) {
            int n = old.size();
            int m = now.size();
            int[][] common = new int[n + 1][m + 1];
            for (int i = n - 1; i >= 0; i--) {
                for (int j = m - 1; j >= 0; j--) {
                    common[i][j] = old.get(i).equals(now.get(j)) ? common[i + 1][j + 1] + 1
                            : Math.max(common[i + 1][j], common[i][j + 1]);
                }
            }
            List<String> ops = new ArrayList<>();
            List<String> removed = new ArrayList<>();
            List<String> added = new ArrayList<>();
            int i = 0;
            int j = 0;
            while (i < n || j < m) {
                if (i < n && j < m && old.get(i).equals(now.get(j))) {
                    // A change reads as its removed lines, then its added ones, as diff -u writes it.
                    ops.addAll(removed);
                    ops.addAll(added);
                    removed.clear();
                    added.clear();
                    ops.add(" " + old.get(i++));
                    j++;
                } else if (i < n && (j == m || common[i + 1][j] >= common[i][j + 1])) {
                    removed.add("-" + old.get(i++));
                } else {
                    added.add("+" + now.get(j++));
                }
            }
            ops.addAll(removed);
            ops.addAll(added);
            int k = 0;
            int oldLine = 1;
            int newLine = 1;
            while (k < ops.size()) {
                int change = k;
                while (change < ops.size() && ops.get(change).charAt(0) == ' ') {
                    change++;
                }
                if (change == ops.size()) {
                    break;
                }
                int from = Math.max(k, change - CONTEXT);
                oldLine += from - k;
                newLine += from - k;
                int to = change;
                int quiet = 0;
                while (to < ops.size() && quiet <= 2 * CONTEXT) {
                    quiet = ops.get(to).charAt(0) == ' ' ? quiet + 1 : 0;
                    to++;
                }
                to -= Math.max(0, quiet - CONTEXT);
                List<String> body = ops.subList(from, to);
                int oldCount = (int) body.stream().filter(op -> op.charAt(0) != '+').count();
                int newCount = (int) body.stream().filter(op -> op.charAt(0) != '-').count();
                out.append("@@ -").append(oldCount == 0 ? oldLine - 1 : oldLine).append(',').append(oldCount)
                        .append(" +").append(newCount == 0 ? newLine - 1 : newLine).append(',').append(newCount)
                        .append(" @@\n");
                body.forEach(op -> out.append(op).append('\n'));
                oldLine += oldCount;
                newLine += newCount;
                k = to;
            }
        }

        private static String headerPath(String header) {
            String path = header.substring(4);
            int tab = path.indexOf('\t');
            if (tab >= 0) {
                path = path.substring(0, tab);
            }
            path = path.strip();
            if (path.equals(DEV_NULL)) {
                return null;
            }
            int slash = path.indexOf('/');
            if (slash < 0) {
                throw new PatchException("header path '" + path + "' has no leading component to strip");
            }
            return path.substring(slash + 1);
        }

        private static Path resolveInside(Path root, String relative) {
            Path path = Path.of(relative);
            if (path.isAbsolute() || path.normalize().startsWith("..") || relative.contains("/../")) {
                throw new PatchException("refusing to write outside the tree: " + relative);
            }
            return root.resolve(path).normalize();
        }

        private record Content(List<String> lines, boolean endsWithNewline) {
        }

        private static Content splitLines(String text) {
            if (text.isEmpty()) {
                return new Content(List.of(), true);
            }
            List<String> lines = new ArrayList<>(List.of(text.split("\n", -1)));
            boolean endsWithNewline = lines.get(lines.size() - 1).isEmpty();
            if (endsWithNewline) {
                lines.remove(lines.size() - 1);
            }
            return new Content(lines, endsWithNewline);
        }
    }


    /**
     * What a packet's handouts are made of: its domains, shared word lists, the names it composes (and the
     * packet names they replace; a local one is a parameter or variable that shares its name with a library's
     * member), pom elements replaced whole, whole-literal rewordings, comments and their anchors, and the prompt.
     */
    record Spec(String packet, String keyTests, List<Domain> domains, Map<String, String> shared,
            List<NameRule> names, Set<String> locals, Map<String, String> elements, Map<String, Template> literals,
            List<Anchor> anchors, Template prompt) {

        /** Whether {@code score.sh} fences the handed-out tests and pom, so the interviewer needs a copy of them. */
        boolean fenced() {
            return packet.equals("fetch-client");
        }

        static Spec of(String packet) {
            return switch (packet) {
                case "seat-grant" -> seatGrant();
                case "fetch-client" -> fetchClient();
                default -> throw new IllegalArgumentException("no packet " + packet + " (seat-grant or fetch-client)");
            };
        }

        /**
         * The note the interviewer sends with the handout: what to send back, where, by when, that set-up time
         * does not count, and to state assumptions rather than ask. Its wording is the secret's, like the prompt's.
         */
        Template note() {
            return Template.parse(packet.equals("seat-grant") ? SG_NOTE : FC_NOTE);
        }

        /**
         * The names renamed in Java code only (see {@link Mapping#codeOnly()}): local names, fields and constants
         * made of plain words, which a whole line of library calls would otherwise keep as the packet has them.
         */
        Set<String> codeOnly() {
            return packet.equals("seat-grant")
                    ? Set.of("ACK", "REDELIVER", "REJECT", "EVENTS", "unreadable", "res", "req", "mapper", "http", "json",
                            "delays", "api", "Delay", "failed")
                    : Set.of("names", "location", "jar", "root", "text", "uri", "server", "JSON", "url", "http", "sleeper", "body",
                            "Shared", "delay", "client", "error", "type", "method", "file", "files", "entry", "payload",
                            "sleeps", "TIMEOUT");
        }

        /**
         * Whole lines of the starters' code (after renaming, a line made only of library words would still be the
         * packet's) and their equivalents, one drawn per handout. Each equivalent is the line with pieces rewritten
         * ({@link #edit}), so no handout line stands whole in this file;
         * each stands alone (no new name another line needs) or, as the status field and the lines that read it,
         * is drawn with its group, so translating back, or a friend's patch through both mappings
         * (HandoutShapeTest), can swap them back.
         */
        List<Idiom> idioms() {
            List<Idiom> out = new ArrayList<>();
            if (packet.equals("seat-grant")) {
                out.add(idiom(".configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);",
                        edit(".configure(", ".disable(", ", false)", ")")));
                out.add(idiom(".build(), HttpResponse.BodyHandlers.ofString());",
                        edit(", HttpResponse.", ", java.net.http.HttpResponse."),
                        edit("ofString()", "ofString(java.nio.charset.StandardCharsets.UTF_8)")));
                out.add(idiom(".header(\"content-type\", \"application/json\")",
                        edit(".header(\"content-type\"", ".header(\"Content-Type\""),
                        edit(".header(", ".setHeader("),
                        edit(".header(\"content-type\"", ".setHeader(\"Content-Type\"")));
                out.add(idiom("String line = new BufferedReader(new InputStreamReader(event, StandardCharsets.UTF_8)).readLine();",
                        edit("String line", "var line"), edit("String line", "final String line"),
                        edit("String line", "final var line")));
                out.add(idiom("if (status / 100 != 2) {",
                        edit("status / 100 != 2", "status < 200 || 299 < status"),
                        edit("status / 100 != 2", "!(status >= 200 && status < 300)"),
                        edit("status / 100 != 2", "status > 299 || status < 200")));
                out.add(idiom("void delay(long ms) throws InterruptedException;",
                        edit("long ms", "long millis"), edit("long ms", "final long ms"), edit("long ms", "final long millis")));
                return out;
            }
            // Each shape's own check; no two lines share an equivalent, so each translates back to its own line.
            out.add(idiom("if (timeout.isNegative() || timeout.isZero()) {",
                    edit("timeout.isNegative() || timeout.isZero()", "timeout.compareTo(Duration.ZERO) <= 0"),
                    edit("timeout.isNegative() || timeout.isZero()", "Duration.ZERO.compareTo(timeout) >= 0")));
            out.add(idiom("if (timeout.isZero() || timeout.isNegative()) {",
                    edit("timeout.isZero()", "timeout.equals(Duration.ZERO)"),
                    edit("timeout.isZero() || timeout.isNegative()", "timeout.isNegative() || Duration.ZERO.equals(timeout)")));
            out.add(idiom(".enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)",
                    edit(".enable(", ".configure(", "TOKENS)", "TOKENS, true)")));
            out.add(idiom("HttpResponse<byte[]> response = send(request);",
                    edit("HttpResponse<byte[]> response", "var response"),
                    edit("HttpResponse<byte[]> response", "final HttpResponse<byte[]> response"),
                    edit("send(", "this.send(")));
            out.add(idiom("if (status < 200 || status > 299) {",
                    edit("status < 200 || status > 299", "status > 299 || status < 200"),
                    edit("status < 200 || status > 299", "!(status >= 200 && status <= 299)"),
                    edit("status > 299", "299 < status")));
            out.add(idiom("if (status >= 200 && status <= 299) {",
                    edit("status >= 200 && status <= 299", "status <= 299 && status >= 200"),
                    edit("status >= 200", "200 <= status"),
                    edit("status >= 200 && status <= 299", "status / 100 == 2")));
            out.add(idiom("} catch (CharacterCodingException | JsonProcessingException e) {",
                    edit("CharacterCodingException | JsonProcessingException", "JsonProcessingException | CharacterCodingException"),
                    edit("(CharacterCodingException", "(final CharacterCodingException")));
            // The status without an HTTP answer: null in an Integer, or in an int -1, which no 3-digit status line can be.
            out.add(new Idiom(List.of("private final Integer status;", "this.status = null;",
                    "return status == null ? OptionalInt.empty() : OptionalInt.of(status);"),
                    List.of(List.of("private final int status;", "this.status = " + "-1;",
                                    "return status < 0 ? OptionalInt.empty()" + " : OptionalInt.of(status);"),
                            List.of("private final int status;", "this.status = " + "-1;",
                                    "return status >= 0 ? OptionalInt.of(status)" + " : OptionalInt.empty();"))));
            out.add(idiom("public OptionalInt status() {", edit(" OptionalInt", " java.util.OptionalInt")));
            out.add(idiom("Sleeper THREAD = delay -> Thread.sleep(delay.toMillis());",
                    edit("delay ->", "(delay) ->"), edit("delay ->", "(Duration delay) ->"), edit("delay ->", "(var delay) ->")));
            out.add(idiom("return fetchJson(url, DEFAULT_TIMEOUT);",
                    edit("return fetchJson", "return FetchClient.fetchJson"),
                    edit(", DEFAULT_TIMEOUT", ", FetchClient.DEFAULT_TIMEOUT")));
            out.add(idiom("var request = JsonExchange.get(url, timeout);",
                    edit("var ", "final var "), edit("var ", "java.net.http.HttpRequest ")));
            // The frozen tests: the same assertions, written otherwise.
            out.add(idiom("\"public static java.util.Map<java.lang.String, java.lang.Object>\"",
                    edit("static ", "static \" + \""), edit("Map<", "Map<\" + \""), edit("String, ", "String,\" + \" ")));
            out.add(idiom(".map(java.util.jar.JarEntry::getName)",
                    edit("jar.JarEntry", "zip.ZipEntry"), edit("java.util.jar.JarEntry::getName", "entry -> entry.getName()")));
            out.add(idiom(".options(wireMockConfig().dynamicPort().bindAddress(\"127.0.0.1\"))",
                    edit(".dynamicPort().bindAddress(\"127.0.0.1\")", ".bindAddress(\"127.0.0.1\").dynamicPort()"),
                    edit(".dynamicPort()", ".port(0)")));
            out.add(idiom(".replace('/', '.')));", edit("'/', '.'", "\"/\", \".\"")));
            out.add(idiom("assertEquals(Set.of(", edit("Set.of", "Set.<String>of"), edit("Set.of", "java.util.Set.of")));
            // Independent assertions, each line in one file only (a swap rewrites every copy of its lines).
            out.add(swap("assertEquals(0, client.getConstructors().length, \"FetchClient has no public constructor\");",
                    "assertEquals(0, client.getFields().length, \"FetchClient has no public field\");"));
            out.add(swap("assertEquals(Map.of(\"ok\", true), FetchClient.fetchJson(url(\"/v1\")));",
                    "assertEquals(Map.of(\"ok\", true), FetchClient.fetchJson(url(\"/v1\"), Duration.ofSeconds(5)));"));
            out.add(swap("assertEquals(OptionalInt.of(404), error.status());", "assertFalse(error.getMessage().isBlank());"));
            out.add(swap("server.verify(1, getRequestedFor(urlEqualTo(\"/missing\")));",
                    "assertTrue(sleeps.isEmpty(), \"no wait without a retry: \" + sleeps);"));
            return out;
        }

        /** Two adjacent independent statements, in their order or the other (an option equal to its line is kept as is). */
        private static Idiom swap(String first, String second) {
            return new Idiom(List.of(first, second), List.of(List.of(first, second), List.of(second, first)));
        }

        /** One equivalent of a line: pieces and their rewrites, {@code piece, rewrite, piece, rewrite...}. */
        private static String[] edit(String... pairs) {
            return pairs;
        }

        private static Idiom idiom(String line, String[]... edits) {
            List<List<String>> options = new ArrayList<>();
            for (String[] edit : edits) {
                String option = line;
                for (int i = 0; i < edit.length; i += 2) {
                    if (!option.contains(edit[i])) {
                        throw new IllegalStateException("no " + edit[i] + " in " + option + "; update PacketVariant");
                    }
                    option = option.replace(edit[i], edit[i + 1]);
                }
                options.add(List.of(option));
            }
            return new Idiom(List.of(line), List.copyOf(options));
        }

        /** What each starter shape looks like behind the frozen surface, first shape first. */
        List<String> shapes() {
            return packet.equals("seat-grant")
                    ? List.of("the worker class sends its own POST from a private method",
                            "a package-private client class sends the POST, the worker keeps only the loop")
                    : List.of("the fetcher class builds, sends and parses in private methods",
                            "a package-private exchange class builds, sends and parses; the fetcher only delegates");
        }

        /** The slots whose text depends on the starter's shape (the files the prompt names), for {@code shape}. */
        Map<String, String> shapeWords(int shape) {
            if (!packet.equals("seat-grant")) {
                return Map.of();
            }
            String worker = "`starter/src/main/java/${pkgpath}/${workerclass}.java`";
            return shape == 0
                    ? words("agentcode", "{{The file|Source file|File}} " + worker + " {{came from|was produced by|is output of}}",
                            "patchedcode", "`${workerclass}.java`")
                    : words("agentcode", "{{The files|Source files}} " + worker + " {{and|with}} `${senderclass}.java`"
                            + " {{came from|were produced by|are output of}}",
                            "patchedcode", "`${workerclass}.java` {{and|or}} `${senderclass}.java`");
        }

        Domain domain(String id) {
            return domains.stream().filter(d -> d.id().equals(id)).findFirst()
                    .orElseThrow(() -> new IllegalArgumentException("no domain " + id + " in " + packet));
        }
    }

    private static NameRule name(String slot, String canonical, Style style, String template) {
        return new NameRule(slot, canonical, style, Template.parse(template));
    }

    private static Anchor anchor(String file, String line, String template) {
        return anchor(file, line, template, -1);
    }

    private static Anchor anchor(String file, String line, String template, int shape) {
        return new Anchor(file, Pattern.compile(line), Template.parse(template), shape);
    }

    private static Map<String, String> words(String... pairs) {
        Map<String, String> out = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            out.put(pairs[i], pairs[i + 1]);
        }
        return out;
    }

    private static Map<String, Template> templates(String... pairs) {
        Map<String, Template> out = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            out.put(pairs[i], Template.parse(pairs[i + 1]));
        }
        return out;
    }

    private static Spec seatGrant() {
        String main = "src/main/java/dev/idempotent/seatgrant/worker/fixture/";
        String test = "src/test/java/dev/idempotent/seatgrant/worker/fixture/";
        List<Domain> domains = List.of(
                new Domain("licences", words("noun", "licence", "nouns", "licences", "verb", "assign",
                        "verbs", "assigns", "past", "assigned", "container", "tenant", "subject", "holder",
                        "keystem", "{{purchase|order}}", "keysuffix", "{{id|ref}}", "field", "plan",
                        "value", "{{standard|team}}", "eventverb", "{{ordered|requested}}",
                        "pathnoun", "{{licence-assignments|licences}}",
                        "story", "{{a product licence|a named licence}}",
                        "harm", "{{two licences for one holder|a holder billed twice}}",
                        "idprefix", "lic", "keyprefix", "po", "containerprefix", "tn", "subjectprefix", "hd")),
                new Domain("refunds", words("noun", "refund", "nouns", "refunds", "verb", "issue",
                        "verbs", "issues", "past", "{{refunded|issued}}", "container", "order", "subject", "payment",
                        "keystem", "{{claim|case}}", "keysuffix", "{{id|ref}}", "field", "reason",
                        "value", "{{customer request|duplicate charge}}", "eventverb", "{{requested|claimed}}",
                        "pathnoun", "{{refunds|refund-requests}}",
                        "story", "{{a refund|money back}}",
                        "harm", "{{two refunds for one claim|a customer refunded twice}}",
                        "idprefix", "rf", "keyprefix", "cl", "containerprefix", "ord", "subjectprefix", "pay")),
                new Domain("vouchers", words("noun", "voucher", "nouns", "vouchers", "verb", "issue",
                        "verbs", "issues", "past", "issued", "container", "campaign", "subject", "customer",
                        "keystem", "{{request|submission}}", "keysuffix", "{{no|ref}}", "field", "kind",
                        "value", "{{single use|limited use}}", "eventverb", "{{requested|ordered}}",
                        "pathnoun", "{{vouchers|voucher-grants}}",
                        "story", "{{a discount voucher|a campaign voucher}}",
                        "harm", "{{two vouchers per customer|a customer holding two vouchers}}",
                        "idprefix", "vc", "keyprefix", "rq", "containerprefix", "cmp", "subjectprefix", "cus")));
        List<NameRule> names = List.of(
                name("org", null, Style.DOTTED, "{{com|org|io|net}} ${company}"),
                name("pkg", "dev.idempotent.seatgrant.worker.fixture", Style.DOTTED, "${org} ${nouns} {{worker|jobs|consumer}}"),
                name("pkgpath", "dev/idempotent/seatgrant/worker/fixture", Style.SLASHED, "${pkg}"),
                name("loggerroot", "dev.idempotent", Style.DOTTED, "${org}"),
                name("workerclass", "AgentSeatGrantWorker", Style.PASCAL,
                        "{{agent|bot|draft|assistant}} ${noun} {{worker|handler|consumer|processor}}"),
                name("smoketest", "AgentSeatGrantWorkerSmokeTest", Style.PASCAL, "${workerclass} {{smoke|sanity|first}} test"),
                name("eventclass", "SeatEvent", Style.PASCAL, "${noun} ${eventverb}"),
                name("eventname", null, Style.DOTTED, "${noun} ${eventverb}"),
                name("bodyclass", "GrantBody", Style.PASCAL, "${noun} {{payload|fields|draft}}"),
                name("outcomeclass", "Granted", Style.PASCAL, "${past}"),
                name("outcomevar", "granted", Style.CAMEL, "${past}"),
                name("keyfield", "requestId", Style.CAMEL, "${keystem} ${keysuffix}"),
                name("keyflat", "requestid", Style.FLAT, "${keyfield}"),
                name("containerfield", "workspaceId", Style.CAMEL, "${container} id"),
                name("subjectfield", "userId", Style.CAMEL, "${subject} id"),
                name("constfield", "role", Style.CAMEL, "${field}"),
                name("constvalue", "member", Style.SNAKE, "${value}"),
                name("endpoint", "seatsUri", Style.CAMEL, "${nouns} {{target|address|location}}"),
                name("rootparam", "baseUri", Style.CAMEL, "{{api|service|server}} {{root|origin|home}}"),
                name("postmethod", "postGrant", Style.CAMEL, "{{send|submit|place}} ${noun}"),
                name("handlemethod", "handleSeatRequested", Style.CAMEL, "{{handle|on|process}} ${eventclass}"),
                name("capvar", "maxAttempts", Style.CAMEL, "{{attempt|try}} {{cap|quota|ceiling}}"),
                name("waitvar", "backoffMs", Style.CAMEL, "{{pause|nap|sleep}} {{ms|millis}}"),
                name("failcode", "grant_failed", Style.SNAKE, "${verb} {{refused|declined|denied}}"),
                name("giveupcode", "exhausted_retries", Style.SNAKE, "{{attempts|tries}} {{spent|gone|depleted}}"),
                name("runclass", "RunOnce", Style.PASCAL, "{{deliver|consume|handle}} {{once|one event|single}}"),
                name("envvar", "SEATS_BASE_URL", Style.UPPER_SNAKE, "${nouns} {{api|service}} {{url|root|address}}"),
                name("configcode", "NOT_CONFIGURED", Style.UPPER_SNAKE, "{{no|missing}} {{config|setup|settings}}"),
                name("eventvar", "seatEvent", Style.CAMEL, "${noun} {{message|delivery|msg}}"),
                name("urlparam", "baseUrl", Style.CAMEL, "{{api|root}} {{address|location|href}}"),
                name("smokemethod", "grantsASeatWhenTheFirstPostSucceeds", Style.CAMEL,
                        "${verbs} {{a|one}} ${noun} {{if|once|after}} the first {{call|request|post}} {{works|returns|lands}}"),
                name("seatvalue", "seat_1", Style.RAW, "${idprefix}_1"),
                name("keyvalue", "req_1", Style.RAW, "${keyprefix}_1"),
                name("containervalue", "ws_1", Style.RAW, "${containerprefix}_1"),
                name("subjectvalue", "user_1", Style.RAW, "${subjectprefix}_1"),
                name("path", "v1/seats", Style.RAW, "{{v1|v2|v3}}/${pathnoun}"),
                name("grantmessage", "seat.grant", Style.DOTTED, "${noun} {{log|record}}"),
                name("idfield", "seatId", Style.CAMEL, "${noun} {{ref|number}}"),
                name("groupid", null, Style.DOTTED, "${org} {{exercise|takehome|review}}"),
                name("artifactid", null, Style.KEBAB, "${nouns} {{worker|consumer|service}}"),
                name("pomname", null, Style.RAW, "${nouns} {{starter|exercise|project}}"),
                name("jar", null, Style.KEBAB, "${noun} {{worker|consumer}}"),
                name("promptfile", null, Style.RAW, "{{TASK|BRIEF|ASSIGNMENT}}.md"),
                name("reviewfile", null, Style.RAW, "{{findings|assessment|critique}}.md"),
                name("patchfile", null, Style.RAW, "{{fix|proposal|change}}.diff"),
                name("eventjson", null, Style.RAW, "{\"${keyfield}\":\"${keyprefix}_9\",\"${containerfield}\":\""
                        + "${containerprefix}_9\",\"${subjectfield}\":\"${subjectprefix}_9\",\"${constfield}\":\"${constvalue}\"}"),
                // The second shape's helper class and the worker's field that holds it.
                name("senderclass", "GrantClient", Style.PASCAL, "${nouns} {{gateway|endpoint|remote}}"),
                name("sendervar", "grantClient", Style.CAMEL, "{{remote|upstream|outbound}} ${nouns}"),
                // Plain-word names renamed in code only (Spec.codeOnly), so no whole line keeps the packet's.
                name("ackcode", "ACK", Style.UPPER_SNAKE, "{{exit|code|status}} {{done|ok|acked}}"),
                name("redelivercode", "REDELIVER", Style.UPPER_SNAKE, "{{exit|code|status}} {{again|later|resend}}"),
                name("rejectcode", "REJECT", Style.UPPER_SNAKE, "{{exit|code|status}} {{dropped|dead|refused}}"),
                name("eventsreader", "EVENTS", Style.UPPER_SNAKE, "{{inbound|incoming}} {{codec|parser|decoder}}"),
                name("unreadablevar", "unreadable", Style.CAMEL, "{{bad|broken|garbled}} {{input|line}}"),
                name("resvar", "res", Style.CAMEL, "{{wire|raw}} {{reply|answer}}"),
                name("reqvar", "req", Style.CAMEL, "{{built|outgoing}} {{call|message}}"),
                name("mappervar", "mapper", Style.CAMEL, "{{body|wire}} {{codec|translator}}"),
                name("httpvar", "http", Style.CAMEL, "{{net|link}} {{pipe|channel}}"),
                name("jsonvar", "json", Style.CAMEL, "{{encoded|serial}} {{text|form}}"),
                name("delaysvar", "delays", Style.CAMEL, "{{pauses|naps}} {{seen|noted|logged}}"),
                name("apivar", "api", Style.CAMEL, "{{scripted|canned|staged}} {{backend|remote|peer}}"),
                name("delayclass", "Delay", Style.PASCAL, "{{pause|wait|backoff}} {{hook|gate|step}}"),
                name("failedvar", "failed", Style.CAMEL, "{{crash|fault|trouble|problem}}"),
                name("mainappender", null, Style.UPPER_SNAKE, "{{out|screen|term}} {{sink|writer|feed}}"),
                name("testappender", null, Style.UPPER_SNAKE, "{{quiet|local|bench}} {{sink|writer|feed}}"));
        Map<String, String> elements = words(
                "<groupId>dev.idempotent.exercise</groupId>", "<groupId>${groupid}</groupId>",
                "<artifactId>seat-grant-starter</artifactId>", "<artifactId>${artifactid}</artifactId>",
                "<name>seat-grant starter</name>", "<name>${pomname}</name>",
                "<finalName>worker</finalName>", "<finalName>${jar}</finalName>",
                // A layout as distinctive as a sentence: composed anew, with the message, key-values and MDC kept.
                "<pattern>%d{HH:mm:ss.SSS} %level %logger{0} - %msg %kvp %X%n</pattern>",
                "<pattern>{{%date|%d}}{HH:mm:ss{{.SSS|}}} {{%-5level|%level|%p}} {{%c|%logger}}{0} {{:|>|-}} "
                        + "{{%message|%m}} %kvp {{%mdc|%X}}%n</pattern>",
                "<pattern>%level %logger{0} - %msg %kvp%n</pattern>",
                "<pattern>{{%-5level|%level|%p}} {{%c|%logger}}{0} {{:|>|-}} {{%message|%m}} %kvp%n</pattern>",
                // The appenders' ids, which a whole line of logback's stock configuration would otherwise keep.
                "name=\"STDOUT\"", "name=\"${mainappender}\"", "ref=\"STDOUT\"", "ref=\"${mainappender}\"",
                "name=\"CONSOLE\"", "name=\"${testappender}\"", "ref=\"CONSOLE\"", "ref=\"${testappender}\"");
        Map<String, Template> literals = templates(
                "rejected: standard input held no readable seat.requested event", SG_LITERAL,
                "not done, deliver again: ", SG_REDELIVER);
        List<Anchor> anchors = List.of(
                anchor(main + "AgentSeatGrantWorker.java", "^public class AgentSeatGrantWorker \\{$", SG_HEADER),
                anchor(main + "AgentSeatGrantWorker.java", "^\\s+public interface Delay \\{$", SG_DELAY),
                anchor(main + "RunOnce.java", "^public final class RunOnce \\{$", SG_RUNONCE),
                anchor(test + "AgentSeatGrantWorkerSmokeTest.java", "^class AgentSeatGrantWorkerSmokeTest \\{$", SG_SMOKE),
                anchor("pom.xml", "<project ", POM_DOC));
        return new Spec("seat-grant", "key-tests", domains, words("company", "{{" + COMPANY + "}}", "fetchonce", FETCH_ONCE), names,
                Set.of("baseUrl"), elements, literals, anchors, Template.parse(SG_PROMPT));
    }

    private static Spec fetchClient() {
        String main = "src/main/java/dev/idempotent/fetch/";
        String test = "src/test/java/dev/idempotent/fetch/";
        List<Domain> domains = List.of(
                new Domain("rates", words("stem", "{{rates|fx rates}}", "thing", "{{rates|quote}}", "area", "{{fx|rates}}",
                        "partner", "{{a currency-rates partner|an exchange-rate provider}}")),
                new Domain("tracking", words("stem", "{{tracking|parcel status}}", "thing", "{{status|events}}",
                        "area", "{{tracking|parcels}}", "partner", "{{a carrier's tracking API|the parcel carrier's API}}")),
                new Domain("forecast", words("stem", "{{forecast|weather}}", "thing", "{{forecast|outlook}}",
                        "area", "{{weather|forecast}}", "partner", "{{a weather partner|the forecast provider}}")),
                new Domain("stock", words("stem", "{{stock|inventory}}", "thing", "{{levels|stock}}",
                        "area", "{{stock|inventory}}", "partner", "{{a supplier's stock API|the warehouse partner}}")));
        List<NameRule> names = List.of(
                name("org", null, Style.DOTTED, "{{com|org|io|net}} ${company}"),
                name("pkg", "dev.idempotent.fetch", Style.DOTTED, "${org} ${area}"),
                name("pkgpath", "dev/idempotent/fetch", Style.SLASHED, "${pkg}"),
                name("clientclass", "FetchClient", Style.PASCAL, "${stem} {{client|feed|source|reader}}"),
                name("exceptionclass", "FetchException", Style.PASCAL, "${stem} {{exception|failure}}"),
                name("method", "fetchJson", Style.CAMEL, "{{fetch|load|get|read}} ${thing}"),
                name("fetcherclass", "JsonFetcher", Style.PASCAL, "${stem} {{fetcher|loader|getter}}"),
                name("sleeperclass", "Sleeper", Style.PASCAL, "{{waiter|pauser|delayer}}"),
                name("contracttest", "FetchClientContractTest", Style.PASCAL, "${clientclass} contract test"),
                name("retrytest", "FetchClientRetryTest", Style.PASCAL, "${clientclass} retry test"),
                name("defaulttimeout", "DEFAULT_TIMEOUT", Style.UPPER_SNAKE, "{{standard|usual|plain}} {{timeout|wait}}"),
                name("objecttype", "JSON_OBJECT", Style.UPPER_SNAKE, "{{map|tree}} {{type|shape}}"),
                name("oncemethod", "fetchOnce", Style.CAMEL, "{{try|call|ask}} once"),
                name("parsemethod", "parseObject", Style.CAMEL, "{{decode|parse}} {{body|tree}}"),
                name("clientmethod", "defaultHttpClient", Style.CAMEL, "{{build|make|plain}} {{web|wire}} {{transport|client}}"),
                name("frozentest", "publicSignatureIsFrozen", Style.CAMEL,
                        "{{exposed|public}} {{surface|signature|api}} {{stays put|is unchanged|stays fixed}}"),
                name("notypetest", "noOtherPublicTypeInThePackage", Style.CAMEL,
                        "{{no|not one}} {{extra|new}} public {{type|class}} {{in|inside}} {{the|this}} package"),
                name("happytest", "happyPath", Style.CAMEL, "{{returns|reads|gets}} {{the|a}} {{json object|body map|parsed body}}"),
                name("notfoundtest", "status404IsAFetchException", Style.CAMEL,
                        "{{status|answer|a}} 404 {{is|becomes|throws}} ${exceptionclass}"),
                name("declaredmethod", "publicDeclaredMethods", Style.CAMEL, "{{exposed|visible}} {{declared|own}} methods"),
                name("besidemethod", "classNamesInPackageOf", Style.CAMEL, "{{class|type}} names {{beside|next to|alongside}}"),
                name("packagevar", "packagePath", Style.CAMEL, "{{package|pkg}} {{prefix|folder}}"),
                name("typesvar", "publicTypes", Style.CAMEL, "{{visible|exported}} types"),
                name("outagetest", "retries503ThenSucceeds", Style.CAMEL,
                        "{{retries|repeats|tries again on}} 503 {{until it succeeds|and recovers|until success}}"),
                name("notfoundretrytest", "doesNotRetry404", Style.CAMEL, "{{never|will not}} {{retry|repeat}} 404"),
                name("groupid", null, Style.DOTTED, "${org} {{exercise|takehome|ticket}}"),
                name("artifactid", null, Style.KEBAB, "${area} {{client|reader|helper}}"),
                name("pomname", null, Style.RAW, "${area} {{client|helper}} {{project|module}}"),
                name("promptfile", null, Style.RAW, "{{TICKET|TASK|BRIEF}}.md"),
                name("patchfile", null, Style.RAW, "{{fix|change|retry}}.diff"),
                name("notesfile", null, Style.RAW, "{{summary|description|changes}}.md"),
                // The second shape's helper class, which builds, sends and parses one attempt.
                name("exchangeclass", "JsonExchange", Style.PASCAL, "${stem} {{call|round trip|wire}}"),
                // Plain-word names renamed in code only (Spec.codeOnly), so no whole line keeps the packet's.
                name("namesvar", "names", Style.CAMEL, "{{found|listed}} {{types|classes}}"),
                name("locationvar", "location", Style.CAMEL, "{{code|class}} {{origin|home}}"),
                name("jarvar", "jar", Style.CAMEL, "{{archive|bundle}}"),
                name("rootvar", "root", Style.CAMEL, "{{parsed|decoded}} {{node|tree}}"),
                name("textvar", "text", Style.CAMEL, "{{decoded|plain}} {{body|chars}}"),
                name("urivar", "uri", Style.CAMEL, "{{target|address}} {{uri|ref}}"),
                name("servervar", "server", Style.CAMEL, "{{stub|fake}} {{host|api}}"),
                name("mapperconst", "JSON", Style.UPPER_SNAKE, "{{mapper|codec|parser}}"),
                name("urlvar", "url", Style.CAMEL, "{{address|href|locator}}"),
                name("httpvar", "http", Style.CAMEL, "{{transport|pipe|conduit}}"),
                name("sleepervar", "sleeper", Style.CAMEL, "{{pacer|napper|idler}}"),
                name("bodyvar", "body", Style.CAMEL, "{{raw|octets|bytes}}"),
                name("holderclass", "Shared", Style.PASCAL, "{{lazy|deferred|once}} {{box|cell|keeper}}"),
                name("delayvar", "delay", Style.CAMEL, "{{gap|interval|span}}"),
                name("clientvar", "client", Style.CAMEL, "{{facade|front|subject}}"),
                name("errorvar", "error", Style.CAMEL, "{{raised|problem|fault}}"),
                name("typevar", "type", Style.CAMEL, "{{kind|loaded|cls}}"),
                name("methodvar", "method", Style.CAMEL, "{{declared|callable|member}}"),
                name("filevar", "file", Style.CAMEL, "{{item|child|leaf}}"),
                name("filesvar", "files", Style.CAMEL, "{{listing|children|contents}}"),
                name("entryvar", "entry", Style.CAMEL, "{{packed|zipped|stored}}"),
                name("payloadvar", "payload", Style.CAMEL, "{{parsed|reply|fetched}}"),
                name("sleepsvar", "sleeps", Style.CAMEL, "{{naps|recorded|noted}}"),
                name("timeoutconst", "TIMEOUT", Style.UPPER_SNAKE, "{{call|attempt|request}} {{limit|cap}}"));
        Map<String, String> elements = words(
                "<groupId>dev.idempotent.exercise</groupId>", "<groupId>${groupid}</groupId>",
                "<artifactId>fetch-client-starter</artifactId>", "<artifactId>${artifactid}</artifactId>",
                "<name>fetch-client starter</name>", "<name>${pomname}</name>");
        Map<String, Template> literals = templates(
                "FetchException is checked, like FetchError", FC_L1,
                "one wait between each pair of attempts", FC_L2,
                "url must be an absolute http or https URL", FC_L3,
                "response was not json", FC_L4,
                "json root was not an object", FC_L5,
                "timeout must be positive", FC_L6,
                "url is not a valid URI", FC_L7,
                "found no classes next to ", FC_L8,
                "the waits grow: ", FC_L9,
                "no wait without a retry: ", FC_L10,
                "only the client creates a FetchException", FC_L11,
                // The frozen tests' body and scenario: the same stubs and assertions, in the handout's words.
                "ok", "${okkey}",
                "{\\\"ok\\\": true}", "{\\\"${okkey}\\\": true}",
                "flaky", "{{shaky|wobbly|patchy}}",
                "second", "{{again|retried|later}}",
                "third", "{{last|final|settled}}");
        List<Anchor> anchors = List.of(
                anchor(main + "package-info.java", "^package ", FC_PACKAGE),
                anchor(main + "FetchClient.java", "^public final class FetchClient \\{$", FC_CLIENT),
                anchor(main + "FetchClient.java", "fetchJson\\(String url\\) throws", FC_M1),
                anchor(main + "FetchClient.java", "fetchJson\\(String url, Duration timeout\\) throws", FC_M2),
                anchor(main + "FetchException.java", "^public final class FetchException ", FC_EXCEPTION),
                anchor(main + "FetchException.java", "public (java\\.util\\.)?OptionalInt status\\(\\)", FC_STATUS),
                anchor(main + "JsonFetcher.java", "^final class JsonFetcher \\{$", FC_FETCHER),
                anchor(main + "JsonFetcher.java", "private HttpResponse<byte\\[\\]> send\\(HttpRequest request\\)", FC_SEND, 0),
                anchor(main + "Sleeper.java", "^@FunctionalInterface$", FC_SLEEPER),
                anchor(main + "Sleeper.java", "void sleep\\(Duration delay\\)", FC_SLEEP),
                anchor(test + "FetchClientContractTest.java", "^class FetchClientContractTest \\{$", FC_CONTRACT),
                anchor(test + "FetchClientRetryTest.java", "^class FetchClientRetryTest \\{$", FC_RETRY),
                anchor("pom.xml", "<project ", POM_DOC),
                // The second shape sends from its helper class.
                anchor(main + "JsonExchange.java", "private HttpResponse<byte\\[\\]> send\\(HttpRequest request\\)", FC_SEND, 1));
        return new Spec("fetch-client", "interviewer-tests", domains, words("company", "{{" + COMPANY + "}}", "fetchonce", FETCH_ONCE,
                "okkey", "{{ready|fresh|live}}"), names,
                Set.of(), elements, literals, anchors, Template.parse(FC_PROMPT));
    }

    private static final String SG_PROMPT = """
            # {{Take-home|Home exercise|Take-home task}}: {{review|assess|critique}} {{an agent's|a generated|a \
            machine-written}} ${noun} {{worker|consumer}}

            ## {{What to do|The task|Your job}}

            ${agentcode} {{an agent|an AI model|a code assistant}}. {{It reads|It takes|It pulls}} \
            `${eventname}` {{events|messages}} {{off|from}} {{an event bus|a message bus|the bus}} ({{fields|with \
            fields}} `${keyfield}`, `${containerfield}`, `${subjectfield}`){{ and|, then}} ${verbs} ${story} \
            {{to|for}} {{a|the}} ${subject} {{by calling|with a call to|through}} `POST /${path}`{{, sending| with \
            body| whose body is}} `{"${containerfield}": ..., "${subjectfield}": ..., "${constfield}": \
            "${constvalue}"}`.

            {{In production|Out in production|Since it shipped}}, {{some|several|a handful of}} `${keyfield}` values \
            {{ended up with|led to|produced}} ${harm}. {{Every time|In each case|Each incident}}, {{the edge \
            gateway|the proxy|the gateway}} {{timed out|had given up|had stopped waiting}} on {{that|the}} \
            {{first|earlier}} POST.

            {{Review|Go through|Examine}} {{this|the}} {{worker|code}} {{rather than rewriting it|instead of \
            replacing it|without rewriting it}}:

            1. {{Rank|Order}} {{the|its}} {{defects|faults|problems}} {{worst first|by severity}}.
            2. {{State|Name|Give}} {{in one sentence|in a sentence}} the {{invariant|rule}} that {{broke|was \
            broken|stopped holding}}.
            3. {{Propose|Suggest|Sketch}} a {{**minimal patch**|**small patch**|**minimal fix**}} {{as|in the form \
            of|written as}} a {{unified diff|diff -u}} {{relative to|on|over}} {{the file as given|that file}}.

            {{Besides|Apart from}} {{this code|the code}}, {{there is|you have}} no {{documentation|description}} \
            {{of|for}} the ${noun} API. {{Where|If}} {{a finding|your argument|a point}} {{depends on|relies \
            on|hangs on}} {{its behaviour|how the API behaves|the API's behaviour}}, {{write|state|say}} {{the \
            assumption|what you assume}}.

            {{Rules|Ground rules|Constraints}}:

            - {{Keep|Stay with}} {{the|your}} {{message bus|event bus|queue}}: {{no new|no other|no extra}} {{queue \
            product|broker product}}, {{no broker change|no second broker}}.
            - {{Delivery|The bus}} {{is|works}} **{{at least once|at-least-once}}**: {{one|an|any}} event \
            {{can|may}} {{arrive|come}} {{twice|more than once|again}}. {{It is|That is}} {{by design|intended}}, \
            {{not a defect|no bug}} {{to repair|for you to fix}}.
            - {{Use|Stay on|Keep to}} Java 17 {{plus|with}} {{the libraries|the dependencies}} {{listed in|declared \
            in}} `pom.xml`.
            - {{Assistants|AI tools|AI assistants}} {{are allowed|are fine}}{{, as|, like|, just as}} at work. \
            {{If|When}} you use one, {{say|write}} in `${reviewfile}` {{what you asked|which prompts you used}} \
            {{and|and also}} {{what you kept|which parts you kept}}. {{Expect|Be ready}} to {{defend|walk us \
            through}} {{each|every}} line{{, whoever typed it|, whoever wrote it}}.

            ## {{Time|Timing}}

            - {{45 minutes|Forty-five minutes}} {{reviewing|to review}}.
            - {{15 minutes|Fifteen minutes}} {{on the patch|sketching the patch}}.

            {{Stop|Hand in}} {{at the bell|on time}}; {{a half-done|a partial}} list {{by severity|ranked by \
            severity}} {{beats|is worth more than|outranks}} a {{complete|polished}} list {{in line order|by line}}.

            ## {{Hand-in|What to hand in|What we need back}}

            - `${reviewfile}`: {{your defects, worst first|the ranked defects}}, {{the invariant|the rule that \
            broke}}, {{and|plus}} {{questions|anything}} {{for|to put to}} the author.
            - `${patchfile}`: {{a unified diff|your diff}} {{against|of}} ${patchedcode}{{, as|, in the \
            format of|, like}} `git diff` {{or|and}} `diff -u` {{write it|produce}}; {{it must apply|it applies}} \
            {{with|using}} `patch -p1` {{inside|within}} `starter/`.

            ## {{Project|Starter}}

            {{A bare Maven build|Plain Maven}}, {{no parent pom|parentless}}{{, with|, and}} {{its own|a}} Maven \
            wrapper: {{run|use}} `./mvnw test` {{in|inside}} `starter/` ({{JDK 17|Java 17}} {{or newer|or later}}{{; no|, \
            no}} {{Maven install needed|Maven to install}}). ${fetchonce}

            `${smoketest}` {{shows|demonstrates}} {{how to|a way to}} {{fake|stub}} the ${noun} API {{in \
            WireMock|using WireMock}} on {{localhost|127.0.0.1}}, {{and|and how}} to {{pass|give}} {{it|the worker}} \
            a {{delay|wait callback}} {{that logs|which notes}} {{each wait|the waits}} {{rather than|without}} \
            {{sleeping|really sleeping}}. {{You may|Feel free to}} {{add tests|write tests}}{{; none are required|; \
            they are optional}}.

            `${runclass}` {{feeds|hands}} the worker {{one|a lone}} delivery {{like|as}} {{a bus|the bus}} \
            {{would|might}}: {{one event|an event}} {{per line|on one line}}, {{in JSON|as JSON}}, on {{standard \
            input|stdin}}, {{the base URL|its API root}} in `${envvar}`, and {{an exit status|a status}} {{the bus \
            reads|for the bus}} (0 {{acks|acknowledges}}, 3 {{rejects|dead-letters}}, {{any other|anything else}} \
            {{redelivers|asks again}}). {{Build|Package}} it {{with|using}} `./mvnw -DskipTests package` {{into|as}} \
            `target/${jar}.jar`. {{You need not|No need to}} {{use it|run it}} {{for the review|to review}}; \
            {{later|afterwards}}, {{we may|we might}} {{try|exercise}} your {{fix|patch}} {{with it|through it}}.

            ## {{Not in scope|Off limits}}

            {{Auth|Login}}, {{cross-region|multi-site}} {{consensus|replication}}, {{load testing|stress tests}}, \
            {{or|and}} {{a new|another}} {{HTTP client|http client}} {{or|and}} {{logger|logging library}}.""";

    private static final String SG_HEADER = """
            // ${workerclass}.java: {{generated|drafted|produced}} by {{an AI agent|a coding assistant|an agent}}, \
            {{awaiting review|up for review|not yet reviewed}}""";

    private static final String SG_DELAY = """
            /** {{Pauses|Holds off}} between {{attempts|tries}}; {{a test|tests}} {{can hand in|may supply}} one \
            that {{notes|keeps}} {{each|every}} wait {{rather than sleeping|without sleeping}}. */""";

    private static final String SG_RUNONCE = """
            /** {{Drives|Steps}} the worker {{through|over}} {{one delivery|a lone delivery}}, {{like|as}} {{a real \
            bus|the bus}} {{would|might}}. {{Its input|The event}} {{arrives as|comes as}} {{one line|a line}} {{of \
            JSON|in JSON}} on {{stdin|System.in}} ({@code ${eventjson}}); {{the API root|the base URL}} \
            {{sits|lives}} in {@code ${envvar}} ({{no trailing slash|without a trailing slash}}){{; and|. And}} \
            {{its exit status|its exit value}} {{is what|says what}} the bus {{does|should do}} {{next|after it}}.

            <p>{{Exit 0|0}}: {{ack|acknowledged}}{{;|,}} {{finished|all done}}. {{3|Exit 3}}: \
            {{reject|rejected}}{{;|,}} {{no retry|nothing}} {{can help|will help}} ({{here|in this class}}: {{the \
            input|stdin}} {{held no|was no}} {{usable|parseable}} event); {{park it|dead-letter it}}. {{Anything \
            else|Any other code}}: {{not done|unfinished}}{{, deliver again|; redeliver}} ({{1|exit 1}} {{when|if}} \
            the worker threw, {{2|exit 2}} {{when|if}} {@code ${envvar}} is {{missing|unset}}).

            <p>{{Build|Package}} {{the jar|an executable jar}} {{with|using}} ./mvnw -DskipTests package{{, then|; \
            then}} {{pipe|feed}} {{one event|an event}} {{into|to}} {@code java -jar target/${jar}.jar} \
            {{with|having}} {@code ${envvar}} set. {{Log lines go|Its log goes}} {{to|onto}} {{stdout|standard \
            output}}. {{Change|Edit}} {{this class|it}} {{too|as well}} {{if you like|if needed}}.""";

    private static final String SG_SMOKE = """
            /** {{A starting point|Somewhere to start}}: {{WireMock|a WireMock stub}} {{plays|stands in for}} the \
            ${noun} API on {{localhost|127.0.0.1}}{{, and|; and}} a delay {{notes|keeps}} {{each wait|the waits}} \
            {{rather than|without}} sleeping. {{Write|Put}} {{more cases|your own cases}} {{alongside|beside}} \
            {{it|this one}}. */""";

    private static final String POM_DOC = """
            <!-- {{A self-contained|An independent}} project{{, no parent| without parent}}. {{Test it|Run the \
            tests}} {{with|using}} `mvn test`. {{Versions|All versions}} {{are pinned|stay pinned}} {{here|in this \
            file}}{{, so|; that way}} {{every machine|each machine}} {{builds it alike|gets the same build}}. -->""";

    private static final String SG_LITERAL = """
            rejected: {{stdin|standard input}} {{had|carried|gave}} no {{usable|valid|parseable}} ${eventname} \
            {{event|message}}""";

    private static final String FC_PROMPT = """
            # {{Ticket|Task}}: {{retry|ride out}} {{throttling|429 and 503}} in `${clientclass}`

            {{We need|Please write}} a {{patch|small patch}} {{to|for}} `${pkg}.${clientclass}`, a {{small|little}} \
            {{HTTP helper|Java helper}} {{in use|already used}} {{today|in production}}. {{It lives|It sits}} in \
            {{the|a}} Maven project {{in|under}} `starter/`{{, with|, and}} {{its own|a}} Maven wrapper. {{In it,|There,}} \
            `./mvnw test` {{runs tests|builds}} {{on|with}} {{JDK 17|Java 17}} {{or newer|or later}}{{; no|, no}} \
            {{Maven install needed|Maven to install}}. ${fetchonce} {{The second command|Its last step}} {{ends red|fails}} \
            {{until|before}} {{your fix|the fix}}{{: that is expected|; that is expected|, as expected}}.

            {{Lately|This week|Recently}}, ${partner} {{began|has begun}} {{replying to|answering}} {{a share \
            of|part of}} {{its calls|the calls}} with 429 {{or|and}} 503. {{Code calling|Whoever calls}} `${method}` \
            {{ought to|should}} {{get past them|survive them|outlast them}} {{rather than|and not}} {{give up|fail}} \
            {{at|on}} {{the first|one}}.

            **{{Do|Required}}:**

            - {{Retry|Repeat}} {{the call|a request}} {{on|after}} HTTP 429 {{or|and}} 503{{, and|, but}} {{nothing \
            else|on no other outcome}}.
            - {{Pause|Back off}} between {{tries|attempts}}, {{doubling|growing}} {{the wait|each pause}} \
            {{exponentially|each time}}{{, and|;}} {{give up|stop}} {{at|by}} {{3 attempts|three attempts}} \
            {{overall|all told}}.
            - {{Keep|Leave}} `${clientclass}.${method}(String url)`, `${clientclass}.${method}(String url, Duration \
            timeout)` {{and|plus}} `${exceptionclass}.status()` {{exactly as they are|unchanged|as they stand}}.
            - {{Use only|Stick to}} the JDK {{plus|and}} Jackson{{, already a dependency|, which the pom has}}.
            - {{Make|Get}} `${retrytest}` {{green|passing}}{{, and leave|; leave}} `${contracttest}` {{and|and \
            also}} `${retrytest}` {{untouched|as they are}}.
            - {{You may|Feel free to}} {{add tests|write tests}} {{for|covering}} {{what|the behaviour}} {{this \
            ticket|it}} {{asks for|wants}}.

            **{{Do not|Not allowed}}:**

            - {{Extra|New}} {{arguments|method arguments}}, {{overloaded methods|extra overloads}}, {{public \
            classes|new public classes}}, {{builder classes|builder objects}} {{or|and}} {{settings|config}} \
            objects.
            - {{New|Extra}} {{dependencies|libraries}} {{or|and}} {{plugins|build plugins}} {{in|inside}} `pom.xml`.
            - {{Retrying|Repeating}} {{on|after}} 404 {{or|and}} 401, {{connection|connect}} {{failures|errors}}, \
            DNS {{errors|lookups that fail}}, {{or|and}} {{non-JSON bodies|bodies not in JSON}}.
            - {{Logging|Writing}} {{or printing|, printing}} the URL, {{or|nor}} {{putting|placing}} it {{in|into}} \
            {{an exception message|any exception message}}.
            - {{Editing|Bending}} {{tests|the tests}} {{to suit|around}} {{your design|a new design}}.
            - {{Circuit breakers|A breaker}}, {{counters|dashboards}} {{or|and}} {{docs|prose}} {{handed \
            in|delivered}} {{instead of|in place of}} {{the fix|a patch}}.

            ## {{Timing|Time}}

            {{Forty-five minutes|45 minutes}} {{for the patch|to write it}}{{, tests included|, with your tests}}. \
            {{Stop|Hand in}} {{on time|at the end}}: a {{smaller|partial}} patch that {{stays|keeps}} \
            {{inside|within}} {{these rules|the rules above}} {{beats|outranks|trumps}} a {{bigger|larger}} one that \
            {{does not|breaks them}}.

            ## {{Hand-in|What to hand in}}

            - `${patchfile}`: {{a unified diff|your diff}} {{of|for}} {{your change|the change}}{{, as|, like}} `git \
            diff` {{or|and}} `diff -u` {{write it|produce}}; {{it must apply|it applies}} {{with|using}} `patch -p1` \
            {{inside|within}} `starter/`.
            - `${notesfile}`: {{a few lines|a short note}}, {{as on|like}} a {{pull request|PR}}: {{what \
            changed|your change}}, {{what|anything}} you {{left out|skipped}} {{and why|with the reason}}, {{and \
            whether|whether}} {{an AI assistant|AI}} {{helped|was used}}{{ and how| (and how)}}.

            ## AI {{assistants|tools}}

            {{Allowed|Fine to use}}{{, as|, like}} at work. {{Say so|Declare it}} in `${notesfile}`. {{Expect|Be \
            ready}} to {{explain|walk through}} {{every|each}} line{{, whoever typed it| no matter who typed it|, \
            human or not}}.""";

    private static final String FC_PACKAGE = """
            /** {{Reads|Fetches}} JSON {{objects|documents}} {{over|with}} GET from ${partner}; {@link \
            ${pkg}.${clientclass}} is {{the entry point|the way in}}.

            <p>{{Frozen|Fixed}} {{public surface|public API}}: {@link ${pkg}.${clientclass}} {{with|and}} its \
            {{two|pair of}} static {@code ${method}} methods, {{and|plus}} {@link ${pkg}.${exceptionclass}}. {{Other \
            types|The rest}} {{stay|remain}} package-private{{, which lets|; that lets}} tests {{swap in|supply}} \
            {{their own|a fake}} {{waiter|pauser}} {{while|and yet}} {{the API|that surface}} {{stays|remains}} \
            {{small|the same}}.

            <p>{{On null|Nulls}}: {{arguments|parameters}} {{must not be|cannot be}} {@code null} ({{NPE|a \
            NullPointerException}} {{follows|results}}){{, and|;}} {{results|return values}} {{never are|are never}} \
            {@code null}. {{Also|Likewise}}, {{the URL|a URL}} {{never appears|never shows up}} {{in logs|in a \
            log}}, {{messages|exception messages}}, {@code toString()} {{or|nor}} {{causes|chained causes}}{{:|;}} \
            {{its query|a query string}} {{may|can}} {{hold|carry}} {{a secret|a token}}.""";

    private static final String FC_CLIENT = """
            /** {{Gets|Reads}} a URL {{by|over}} GET {{and hands back|returning}} {{the|its}} JSON object{{; it is|, \
            and is}} {{the only|the one}} {{entry point|way in}} {{here|to this package}}.

            <p>{{Any|Every}} failure {{arrives|comes back}} as {{a|an instance of}} {@link ${exceptionclass}}. \
            {{Both|The two}} methods {{stay|remain}} thread-safe{{ and share|; they share}} {{one|a single}} {@code \
            HttpClient}{{, pooling|; it pools}} {{connections|sockets}} {{per host|by host}}.""";

    private static final String FC_M1 = """
            /** {{Like|Same as}} {@link #${method}(String, Duration)}{{, timing out| but times out}} {{after|at}} \
            {{five seconds|5 s}}. */""";

    private static final String FC_M2 = """
            /** {{Reads|Gets}} {@code url} {{over|by}} GET; {{each attempt|an attempt|one request}} {{gets|has}} \
            {@code timeout} {{until|before}} {{headers arrive|the headers must arrive}}. */""";

    private static final String FC_EXCEPTION = """
            /** {{Why|The reason}} a {@link ${clientclass}#${method}(String, Duration) ${method}} call {{returned \
            no|ended without a}} {{JSON object|JSON map}}.

            <p>{{Checked|A checked exception}} {{on purpose|by design}}: {{callers decide|each caller decides}} what \
            {{failing|a failure}} {{means|means to them}}. {{Messages#pl|The message#sg}} {{come from@pl|comes \
            from@sg|are picked from@pl|is picked from@sg}} {{a short|a small}} {{list|set}} of {{phrases|fixed texts}} \
            {{that|which}} never {{hold|carry}} {{the URL|a URL}}{{; nothing|. Nothing}} {{from the JDK|the JDK threw}} {{is kept|stays attached}} as {{the|a}} \
            cause{{, because|:}} {{such messages|JDK messages}} {{might|sometimes}} {{name|spell out}} {{a host|the \
            host}} {{or|or even}} {{a|the}} {{URI|full URI}}. {{Immutable|Never modified}}{{, so|; hence}} \
            {{safe|fine}} {{to share|to pass}} {{across|between}} threads.""";

    private static final String FC_STATUS = """
            /** {{The HTTP code|The code}} {{the server|the partner}} {{sent|answered}} {{last|at the end}}{{, \
            when|, if}} {{that was|it was}} an error; {{empty|absent}} {{if|when}} {{no status came|nothing came \
            back}} ({{no connection|refused}}, {{a timeout|timing out}}) {{or|or when}} {{a good status|a success}} \
            {{brought|came with}} {{something|a payload}} {{other than a|that was no}} {{JSON object|proper JSON \
            object}}. */""";

    private static final String FC_FETCHER = """
            /** {{The engine|The worker}} behind {@link ${clientclass}}: {{one object|an instance}} {{holding|that \
            holds}} {{an HTTP client|its HTTP client}} {{plus|and}} {{a|its}} {@link ${sleeperclass}}{{; tests|, so \
            tests}} {{can|may}} {{record|capture}} {{every wait|each pause}} {{with no|without any}} {{public \
            hook|public seam}}. {{Safe across threads|Thread-safe}} {{if|when}} {{both of those|its two parts}} are. \
            */""";

    private static final String FC_SEND = """
            // {{Never chain|Do not chain}} {{JDK exceptions|a JDK exception}} {{here|below}}: {{such messages|their \
            texts}} {{sometimes|might}} {{spell out|contain}} {{a host|the host name}} {{or|or even}} {{a|the}} \
            {{URI|full URI}}.""";

    private static final String FC_SLEEPER = """
            /** {{The client|Our client}} {{pauses|waits}} {{through|via}} this {{seam|hook}}{{, letting|; it lets}} \
            tests {{note|capture}} {{each pause|every delay}} {{and skip|without}} {{the sleep|sleeping}}. {{Any \
            implementation#sg|Implementations#pl}} {{has to@sg|have to@pl|must}} be {{safe across threads|thread-safe}}. */""";

    private static final String FC_CONTRACT = """
            /** {{What stays fixed|The fixed contract}} {{of|about}} {@link ${clientclass}}: {{the surface|what}} \
            {{callers#pl|every caller#sg}} {{build on@pl|builds on@sg|depend on@pl|depends on@sg}}.

            <p>{{Frozen|FROZEN}}: {{keep|preserve}} {{this file|it}} {{unchanged|as it is|byte for byte}}. \
            {{Needing|Wanting}} {{an edit|to edit it}} {{means|is a sign}} {{the contract|the API}} \
            {{moved|changed}}. */""";

    private static final String FC_RETRY = """
            /** {{What the ticket|The checks this ticket}} {{wants|demands}}: {{red|failing}} {{until|before}} {{a \
            patch|the fix}}, {{then|and then}} {{green|passing}} {{when|as soon as}} 503 {{earns|gets}} {{a \
            retry|more tries}} {{after|with}} {{longer|rising}} {{pauses|waits}}{{ and| while}} 404 {{does not|gets \
            one try}}.

            <p>{{Frozen|FROZEN}}: {{keep|preserve}} {{this file|it}} {{unchanged|as it is|byte for byte}}. \
            {{Pauses|Waits}} {{are seen|show}} {{through|via}} the {{fetcher's|worker's}} {@link ${sleeperclass}}{{, \
            so|; so}} {{code|a change}} {{that calls|calling}} {@code Thread.sleep} {{itself|on its own}} {{goes \
            red|fails}} {{here|in this class}} {{rather than|instead of}} {{passing late|passing slowly}}. */""";

    private static final String FC_L1 = """
            ${exceptionclass} {{is checked|stays checked}}{{:|,}} {{callers#pl|every caller#sg}} {{must|has to@sg|have \
            to@pl}} {{handle|decide about}} it""";

    private static final String FC_L2 = """
            {{a wait|one pause}} {{between|in between}} {{every two|each two}} attempts""";

    private static final String FC_L3 = """
            {{only|expected}} {{absolute|full}} {{http(s)|http or https}} {{URLs|addresses}}{{ work| are accepted}}""";

    private static final String FC_L4 = """
            {{payload|reply body}} {{is not|isn't|was not}} {{parseable|readable}} json""";

    private static final String FC_L5 = """
            {{json root|the json|json value}} {{is not|isn't}} an object""";

    private static final String FC_L6 = """
            {{a|the}} {{timeout|wait}} {{needs to be|should be|has to be}} {{over zero|above zero|more than zero}}""";

    private static final String FC_L7 = """
            {{address|url}} {{does not parse|cannot be parsed|will not parse}} as {{URI|a URI}}""";

    private static final String FC_L8 = """
            {{no classes|not one class}} {{found|seen|listed}} {{beside|alongside}} \
            """;

    private static final String FC_L9 = """
            {{pauses|delays}} {{should|must}} {{increase|lengthen|get longer}}: \
            """;

    private static final String FC_L10 = """
            {{no pause|no delay}} {{when|if}} {{nothing is retried|there is no retry|no retry happens}}: \
            """;

    private static final String FC_L11 = """
            {{only|none but}} {{the client|its client}} {{creates|builds|makes}} {{instances of|objects of type}} \
            ${exceptionclass}""";

    private static final String SG_REDELIVER = """
            {{delivery|event}} {{unfinished|incomplete}}{{,|;}} {{will redeliver|redeliver it|back to the bus}}: \
            """;

    private static final String FC_SLEEP = """
            /** {{Pauses|Blocks}} for {@code delay}{{. Interrupting|; an interrupt}} {{the waiting thread|the \
            caller}} {{throws|raises}} {@link InterruptedException}. */""";

    private static final String SG_NOTE = """
            {{Hello|Hi}},

            {{Attached|Enclosed}} {{is|you will find}} {{your|the}} {{take-home|home exercise}}: \
            `${promptfile}` {{and|plus}} {{the|a}} `starter/` {{folder|project}}. {{Please read|Start with}} \
            `${promptfile}`{{; it|, which}} {{sets|gives}} {{the times|the time box}} {{and|plus}} {{the rules|the ground rules}}.

            - {{Send back|Return}} `${reviewfile}` {{and|with}} `${patchfile}` {{to|at}} ADDRESS{{, by|, before}} DEADLINE.
            - {{Set-up|Setting up}} ({{Java|a JDK 17}}{{ and|, plus}} {{the first|your first}} \
            {{download|online build}}) {{does not count|is not counted}} {{toward|against}} {{the time \
            box|those minutes}}.
            - {{Questions#pl|Any question#sg}} {{on|about}} {{the code|the starter}} {{or|and}} {{the service it calls|the API}} \
            {{get no answer@pl|gets no answer@sg|go unanswered@pl|goes unanswered@sg}} {{during the exercise|while you work}}{{:|;}} {{where|if}} \
            {{something is unclear|unsure}}, state your assumptions {{in|inside}} `${reviewfile}` {{and carry \
            on|then go on}}. {{Write|Mail}} {{to ADDRESS|back}} {{only|just}} {{if|when}} {{the \
            build|the download}} {{fails|breaks}}.

            {{Good luck|Thanks, and good luck}}.""";

    private static final String FC_NOTE = """
            {{Hello|Hi}},

            {{Attached|Enclosed}} {{is|you will find}} {{your|the}} {{take-home|home exercise}}: \
            `${promptfile}` {{and|plus}} {{the|a}} `starter/` {{folder|project}}. {{Please read|Start with}} \
            `${promptfile}`{{; it|, which}} {{sets|gives}} {{the times|the time box}} {{and|plus}} {{the rules|what is allowed}}.

            - {{Send back|Return}} `${patchfile}` {{and|with}} `${notesfile}` {{to|at}} ADDRESS{{, by|, before}} DEADLINE.
            - {{Set-up|Setting up}} ({{Java|a JDK 17}}{{ and|, plus}} {{the first|your first}} \
            {{download|online build}}) {{does not count|is not counted}} {{toward|against}} {{the time \
            box|those minutes}}.
            - {{Questions#pl|Any question#sg}} {{on|about}} {{the ticket|the task}} {{or|and}} {{the service it calls|the API}} \
            {{get no answer@pl|gets no answer@sg|go unanswered@pl|goes unanswered@sg}} {{during the exercise|while you work}}{{:|;}} {{where|if}} \
            {{something is unclear|unsure}}, state your assumptions {{in|inside}} `${notesfile}` {{and carry \
            on|then go on}}. {{Write|Mail}} {{to ADDRESS|back}} {{only|just}} {{if|when}} {{the \
            build|the download}} {{fails|breaks}}.

            {{Good luck|Thanks, and good luck}}.""";

    /** The task's one line that fetches, while online, everything a later offline run ({@code -o}) needs. */
    private static final String FETCH_ONCE = """
            {{Once, while online|Before you go offline|With network access, once}}, {{run|type}} `./mvnw {{-B|-q}} \
            -DskipTests {{clean package|package}}; ./mvnw {{-B|-q}} test` {{in it|there}}{{: it fetches|; it \
            downloads}} {{Maven plus|Maven and}} {{each|every}} {{plugin and library|library and plugin}} {{that \
            later|which later}} {{runs with -o|offline runs}} {{need|use}}.""";

    /** Company words for packages and group ids: plain English words, never a name by themselves. */
    private static final String COMPANY = "harbor|lumen|juniper|copper|meadow|quarry|birch|cobalt|saffron|tundra|willow|granite";
}
