package dev.idempotent.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idempotent.docs.PacketVariant.Domain;
import dev.idempotent.docs.PacketVariant.Draw;
import dev.idempotent.docs.PacketVariant.Spec;
import dev.idempotent.docs.PacketVariant.Template;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Generated prose agrees in number: a subject and its verb are drawn together ({@code #sg}/{@code #pl} and
 * {@code @sg}/{@code @pl} marks, see {@link Template}), so no handout reads "the message come from" or "callers
 * has to". "A" and "an" agree with the sound that follows ("an HTTP helper", "a unified diff"), and three glitches
 * handouts once printed never come back: "Take-away" for a take-home, a request "and a body" ("calls
 * `POST /x` and a body"), and a clause with no subject after a semicolon ("fails first; is intended"). Checked on
 * every run any secret can write, in every domain, and on rendered handouts.
 */
class HandoutGrammarTest {

    /** Subjects the templates use, by number. */
    private static final Set<String> SINGULAR = Set.of("message", "caller", "implementation", "client", "worker",
            "bus", "delivery", "event", "failure", "attempt", "request", "change", "partner", "input", "it");
    private static final Set<String> PLURAL = Set.of("messages", "callers", "implementations", "tests", "methods",
            "types", "versions", "results", "values", "pauses", "assistants", "tools", "parameters", "arguments",
            "checks", "texts", "phrases", "they");

    /** Verb forms by the number they need. */
    private static final Set<String> NEEDS_SINGULAR = Set.of("is", "has", "was", "comes", "holds", "carries",
            "builds", "depends", "decides", "needs", "stays", "remains", "goes", "arrives", "means", "lives", "sits",
            "works", "pauses", "returns");
    private static final Set<String> NEEDS_PLURAL = Set.of("are", "have", "were", "come", "hold", "carry", "build",
            "depend", "decide", "need", "stay", "remain", "go", "arrive", "mean", "live", "sit", "work");

    private static final Pattern WORD = Pattern.compile("[A-Za-z]+");

    /** A word as the a/an and glitch checks see it: letters and digits, or a semicolon or colon of its own. */
    private static final Pattern TOKEN = Pattern.compile("[A-Za-z0-9]+|[;:]");

    /** Words spelt with a vowel and said with a consonant ("a unified diff"), lower case. */
    private static final Set<String> CONSONANT_SOUND = Set.of("unified", "uri", "url", "urls", "usual", "useful",
            "user", "unique", "uuid", "utf", "one", "once", "european");

    /** Words spelt with a consonant and said with a vowel ("an HTTP helper"), lower case. */
    private static final Set<String> VOWEL_SOUND = Set.of("http", "https", "hour", "honest", "html", "fx", "npe",
            "mdc", "sdk", "rfc", "sql", "xml", "ai", "api", "llm", "8", "11", "18");

    /** Three glitches a handout once printed, on lower-case runs of words, semicolons and colons. */
    private static final List<Pattern> GLITCHES = List.of(
            Pattern.compile("\\btake away\\b"),
            Pattern.compile("\\band (a|the) body\\b"),
            Pattern.compile("[;:] (is|are|was|were|has|have)\\b"));

    /** Where "a" or "an" does not fit the sound of the word after it, as "a word" or "an word". */
    static List<String> articleMistakes(String text) {
        List<String> words = new ArrayList<>();
        Matcher m = TOKEN.matcher(text);
        while (m.find()) {
            words.add(m.group());
        }
        List<String> found = new ArrayList<>();
        for (int i = 0; i + 1 < words.size(); i++) {
            String article = words.get(i).toLowerCase(Locale.ROOT);
            if (!article.equals("a") && !article.equals("an")) {
                continue;
            }
            String next = words.get(i + 1);
            if (next.equals(";") || next.equals(":") || next.equalsIgnoreCase("a") && i + 2 == words.size()) {
                continue;
            }
            if (article.equals("an") != vowelSound(next)) {
                found.add(article + " " + next);
            }
        }
        return found;
    }

    /** Whether {@code word} begins with a vowel sound; an upper-case abbreviation is said letter by letter. */
    static boolean vowelSound(String word) {
        String lower = word.toLowerCase(Locale.ROOT);
        if (VOWEL_SOUND.contains(lower) || lower.matches("8\\d*|11|18|11\\d\\d|18\\d\\d")) {
            return true;
        }
        if (CONSONANT_SOUND.contains(lower) || Character.isDigit(lower.charAt(0))) {
            return false;
        }
        if (word.length() > 1 && word.equals(word.toUpperCase(Locale.ROOT)) && Character.isLetter(word.charAt(1))) {
            return "AEFHILMNORSX".indexOf(word.charAt(0)) >= 0;
        }
        return "aeiou".indexOf(lower.charAt(0)) >= 0;
    }

    /** Which of the three glitch patterns {@code text} holds, as the matched text. */
    static List<String> glitches(String text) {
        List<String> words = new ArrayList<>();
        Matcher m = TOKEN.matcher(text);
        while (m.find()) {
            words.add(m.group().toLowerCase(Locale.ROOT));
        }
        String joined = String.join(" ", words);
        List<String> found = new ArrayList<>();
        for (Pattern glitch : GLITCHES) {
            Matcher g = glitch.matcher(joined);
            while (g.find()) {
                found.add(g.group());
            }
        }
        return found;
    }

    /** Where a subject is followed by a verb form of the other number, as "subject verb". */
    static List<String> disagreements(String text) {
        List<String> words = new ArrayList<>();
        Matcher m = WORD.matcher(text);
        while (m.find()) {
            words.add(m.group().toLowerCase(Locale.ROOT));
        }
        List<String> found = new ArrayList<>();
        for (int i = 0; i + 1 < words.size(); i++) {
            String subject = words.get(i);
            String verb = words.get(i + 1);
            if (SINGULAR.contains(subject) && NEEDS_PLURAL.contains(verb)
                    || PLURAL.contains(subject) && NEEDS_SINGULAR.contains(verb)) {
                found.add(subject + " " + verb);
            }
        }
        return found;
    }

    @ParameterizedTest
    @ValueSource(strings = {"seat-grant", "fetch-client"})
    void everyRunAnySecretCanWriteAgrees(String packet) {
        Spec spec = Spec.of(packet);
        List<String> problems = new ArrayList<>();
        int runs = 0;
        for (Domain domain : spec.domains()) {
            HandoutSpace space = HandoutSpace.of(spec, domain);
            for (Map.Entry<String, Template> prose : prose(spec).entrySet()) {
                for (String run : space.runs(prose.getValue(), 3)) {
                    runs++;
                    for (String wrong : disagreements(run)) {
                        problems.add(domain.id() + ", " + prose.getKey() + ": \"" + wrong + "\" in \"" + run + "\"");
                    }
                }
            }
        }
        assertTrue(runs > 1000, "the enumeration covers the prose: " + runs);
        assertEquals(List.of(), problems.stream().distinct().limit(40).toList());
    }

    /**
     * Every run of three words, semicolons and colons any secret can write, in every domain, has "a" and "an"
     * where they belong and none of the three glitches (a request "and a body" is seen by those three words).
     * A lower-case run cannot show an abbreviation, so the rendered check below covers those.
     */
    @ParameterizedTest
    @ValueSource(strings = {"seat-grant", "fetch-client"})
    void everyRunAnySecretCanWriteHasItsArticlesAndNoGlitch(String packet) {
        Spec spec = Spec.of(packet);
        List<String> problems = new ArrayList<>();
        int runs = 0;
        for (Domain domain : spec.domains()) {
            HandoutSpace space = HandoutSpace.of(spec, domain);
            for (Map.Entry<String, Template> prose : prose(spec).entrySet()) {
                for (String run : space.runs(prose.getValue(), 3, TOKEN)) {
                    runs++;
                    for (String wrong : glitches(run)) {
                        problems.add(domain.id() + ", " + prose.getKey() + ": \"" + wrong + "\" in \"" + run + "\"");
                    }
                    for (String wrong : articleMistakes(run)) {
                        problems.add(domain.id() + ", " + prose.getKey() + ": \"" + wrong + "\" in \"" + run + "\"");
                    }
                }
            }
        }
        assertTrue(runs > 1000, "the enumeration covers the prose: " + runs);
        assertEquals(List.of(), problems.stream().distinct().limit(40).toList());
    }

    /** The task, the comments and the messages as handouts print them, in every domain. */
    @ParameterizedTest
    @ValueSource(strings = {"seat-grant", "fetch-client"})
    void renderedTasksAndMessagesAgree(String packet) {
        List<String> problems = new ArrayList<>();
        for (Domain domain : Spec.of(packet).domains()) {
            for (int i = 0; i < 10; i++) {
                PacketVariant.Handout handout = PacketVariant.generate(ProjectRoot.get(), packet,
                        ("grammar " + domain.id() + " " + i).getBytes(StandardCharsets.UTF_8), domain.id());
                Map<String, String> sent = new LinkedHashMap<>(handout.handout());
                sent.put(PacketVariant.NOTE, handout.interviewer().get(PacketVariant.NOTE));
                sent.forEach((path, text) -> {
                    if (!SearchableStrings.isWrapper(path)) {
                        disagreements(text).forEach(wrong -> problems.add(domain.id() + " " + path + ": \"" + wrong + "\""));
                        articleMistakes(text).forEach(wrong -> problems.add(domain.id() + " " + path + ": \"" + wrong + "\""));
                        glitches(text).forEach(wrong -> problems.add(domain.id() + " " + path + ": \"" + wrong + "\""));
                    }
                });
            }
        }
        assertEquals(List.of(), problems.stream().distinct().limit(40).toList());
    }

    /** A subject drawn plural takes the plural verb form, and a singular one the singular form, every time. */
    @ParameterizedTest
    @ValueSource(strings = {"{{Messages#pl|The message#sg}} {{come from@pl|comes from@sg}} here"})
    void aMarkedVerbFollowsItsSubject(String source) {
        Template template = Template.parse(source);
        for (int i = 0; i < 50; i++) {
            String text = template.expand(new Draw(("marks " + i).getBytes(StandardCharsets.UTF_8)), slot -> "");
            assertTrue(text.equals("Messages come from here") || text.equals("The message comes from here"), text);
        }
        assertEquals(List.of("message come"), disagreements("The message come from"), "the checker sees a disagreement");
        assertEquals(List.of("callers has"), disagreements("callers has to decide"));
    }

    /** The a/an and glitch checkers see what they are for, and pass what is right. */
    @org.junit.jupiter.api.Test
    void theArticleAndGlitchCheckersSeeTheMistakes() {
        assertEquals(List.of("a event", "an diff", "a HTTP", "an URL"),
                articleMistakes("a event, an diff, a HTTP helper and an URL"));
        assertEquals(List.of(), articleMistakes("an event, a diff, an HTTP helper, a URL, a unified diff, an hour, a 404"));
        assertEquals(List.of("take away"), glitches("# Take-away: review the worker"));
        assertEquals(List.of("and a body"), glitches("calls `POST /x` and a body `{}`"));
        assertEquals(List.of("; is"), glitches("It fails first; is intended."));
        assertEquals(List.of(), glitches("# Take-home: calls `POST /x` with body `{}`; that is intended."));
    }

    private static Map<String, Template> prose(Spec spec) {
        Map<String, Template> prose = new LinkedHashMap<>();
        prose.put("the task", spec.prompt());
        prose.put("the note to the candidate", spec.note());
        spec.anchors().forEach(anchor -> prose.put("the comment at " + anchor.file() + " " + anchor.line(), anchor.template()));
        spec.literals().forEach((literal, template) -> prose.put("the message for \"" + literal + "\"", template));
        return prose;
    }
}
