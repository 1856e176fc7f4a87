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
 * has to". Checked on every three-word run any secret can write, in every domain, and on rendered handouts.
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

    /** The task, the comments and the messages as handouts print them, in every domain. */
    @ParameterizedTest
    @ValueSource(strings = {"seat-grant", "fetch-client"})
    void renderedTasksAndMessagesAgree(String packet) {
        List<String> problems = new ArrayList<>();
        for (Domain domain : Spec.of(packet).domains()) {
            for (int i = 0; i < 10; i++) {
                PacketVariant.Handout handout = PacketVariant.generate(ProjectRoot.get(), packet,
                        ("grammar " + domain.id() + " " + i).getBytes(StandardCharsets.UTF_8), domain.id());
                handout.handout().forEach((path, text) -> {
                    if (!SearchableStrings.isWrapper(path)) {
                        disagreements(text).forEach(wrong -> problems.add(domain.id() + " " + path + ": \"" + wrong + "\""));
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

    private static Map<String, Template> prose(Spec spec) {
        Map<String, Template> prose = new LinkedHashMap<>();
        prose.put("the task", spec.prompt());
        spec.anchors().forEach(anchor -> prose.put("the comment at " + anchor.file() + " " + anchor.line(), anchor.template()));
        spec.literals().forEach((literal, template) -> prose.put("the message for \"" + literal + "\"", template));
        return prose;
    }
}
