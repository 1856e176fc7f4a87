package dev.idempotent.docs;

import dev.idempotent.docs.PacketVariant.Domain;
import dev.idempotent.docs.PacketVariant.NameRule;
import dev.idempotent.docs.PacketVariant.Spec;
import dev.idempotent.docs.PacketVariant.Template;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Everything any secret can make of a packet's templates, for one domain: every value of every name, and every
 * six-word run of every prose template (the prompt, each generated comment, each reworded literal). The leak
 * test checks all of them, so the property holds for every secret, not only for the ones it samples.
 */
final class HandoutSpace {

    private static final Pattern WORD = Pattern.compile("[A-Za-z0-9]+");

    private final Map<String, Set<String>> values = new LinkedHashMap<>();

    private HandoutSpace(Spec spec, Domain domain) {
        domain.words().forEach((slot, template) -> values.put(slot, expansions(Template.parse(template))));
        spec.shared().forEach((slot, template) -> values.put(slot, expansions(Template.parse(template))));
        for (NameRule rule : spec.names()) {
            Set<String> names = new LinkedHashSet<>();
            for (String expansion : expansions(rule.template())) {
                names.add(rule.style().apply(expansion));
            }
            values.put(rule.slot(), names);
        }
        // Either shape's words: a superset of what one handout writes.
        for (int shape = 0; shape < PacketVariant.SHAPES; shape++) {
            spec.shapeWords(shape).forEach((slot, template) ->
                    values.computeIfAbsent(slot, s -> new LinkedHashSet<>()).addAll(expansions(Template.parse(template))));
        }
    }

    static HandoutSpace of(Spec spec, Domain domain) {
        return new HandoutSpace(spec, domain);
    }

    /** Every text {@code template} can expand to (number marks ignored, so a superset of what is written). */
    Set<String> texts(Template template) {
        return expansions(template);
    }

    /** Every value a name slot can take, by slot, in the spec's order. */
    Map<String, Set<String>> names(Spec spec) {
        Map<String, Set<String>> out = new LinkedHashMap<>();
        spec.names().forEach(rule -> out.put(rule.slot(), values.get(rule.slot())));
        return out;
    }

    /** One way to fill a position of a template: its words, and its number mark (see {@link Template}). */
    private record Alternative(List<String> words, String mark) {

        boolean agrees(String number) {
            return number == null || !mark.startsWith("@") || mark.substring(1).equals(number);
        }

        String sets(String number) {
            return mark.startsWith("#") ? mark.substring(1) : number;
        }
    }

    /**
     * Every run of {@code length} words any expansion of {@code template} contains, lower case, space-separated.
     * A verb form that disagrees with a subject inside the same run is left out, as the generator never writes
     * it; one whose subject lies before the run is kept (a superset, which is the safe side for a leak check).
     */
    Set<String> runs(Template template, int length) {
        return runs(template, length, WORD);
    }

    /**
     * As {@link #runs(Template, int)}, with {@code token} saying what a word is: the grammar check also counts
     * a semicolon or a colon as one, to see a clause that lost its subject.
     */
    Set<String> runs(Template template, int length, Pattern token) {
        List<List<Alternative>> positions = new ArrayList<>();
        for (Template.Part part : template.parts()) {
            if (part instanceof Template.Choice choice) {
                List<Alternative> alternatives = new ArrayList<>();
                for (int i = 0; i < choice.options().size(); i++) {
                    for (String filled : fill(choice.options().get(i))) {
                        alternatives.add(new Alternative(words(filled, token), choice.marks().get(i)));
                    }
                }
                positions.add(alternatives);
            } else {
                String text = ((Template.Text) part).text();
                Matcher slot = Template.SLOT.matcher(text);
                int at = 0;
                while (slot.find()) {
                    words(text.substring(at, slot.start()), token).forEach(w -> positions.add(List.of(new Alternative(List.of(w), ""))));
                    List<Alternative> alternatives = new ArrayList<>();
                    for (String value : values(slot.group(1))) {
                        alternatives.add(new Alternative(words(value, token), ""));
                    }
                    positions.add(alternatives);
                    at = slot.end();
                }
                words(text.substring(at), token).forEach(w -> positions.add(List.of(new Alternative(List.of(w), ""))));
            }
        }
        Enumeration enumeration = new Enumeration(positions, length);
        for (int p = 0; p < positions.size(); p++) {
            // A run starting here starts with a window of one option's words; many options share their windows.
            Set<Start> started = new HashSet<>();
            for (Alternative alternative : positions.get(p)) {
                List<String> words = alternative.words();
                for (int offset = 0; offset < words.size(); offset++) {
                    List<String> window = words.subList(offset, Math.min(words.size(), offset + length));
                    if (started.add(new Start(window, alternative.sets(null)))) {
                        enumeration.grow(p + 1, new ArrayList<>(window), alternative.sets(null));
                    }
                }
            }
        }
        return enumeration.runs;
    }

    /** The first words of a run and the number they set: what the rest of the run depends on. */
    private record Start(List<String> words, String number) {
    }

    /**
     * One enumeration of the runs of {@code length} words through {@code positions}, each partial run grown once.
     *
     * <p>What growing a partial run adds depends only on the position it goes on from, its words and its number,
     * and of an option only the words the run still takes matter: so each such state is grown once, and a position
     * is tried as its options cut to the words still wanted, each cut (with its mark) once. A slot can hold many
     * thousand values that begin alike (every path a file name can take) and a choice many phrases that begin
     * alike; trying each of them for every partial run that reaches it took a third of the docs module's test
     * time, and found the same runs in the same order.
     */
    private static final class Enumeration {

        private final List<List<Alternative>> positions;
        private final int length;
        private final Set<String> runs = new LinkedHashSet<>();
        private final Set<String> grown = new HashSet<>();
        private final Map<Integer, List<Alternative>> cuts = new HashMap<>();

        Enumeration(List<List<Alternative>> positions, int length) {
            this.positions = positions;
            this.length = length;
        }

        /** Adds every run that {@code run} becomes from position {@code next} on, its subject's number {@code number}. */
        void grow(int next, List<String> run, String number) {
            if (run.size() == length) {
                runs.add(String.join(" ", run));
                return;
            }
            if (next == positions.size() || !grown.add(next + " " + number + " " + String.join(" ", run))) {
                return;
            }
            for (Alternative alternative : cut(next, length - run.size())) {
                if (!alternative.agrees(number)) {
                    continue;
                }
                List<String> longer = new ArrayList<>(run);
                longer.addAll(alternative.words());
                grow(next + 1, longer, alternative.sets(number));
            }
        }

        /** The options of {@code position} cut to their first {@code take} words, each cut and mark once, in order. */
        private List<Alternative> cut(int position, int take) {
            return cuts.computeIfAbsent(position * (length + 1) + take, key -> {
                Set<Alternative> distinct = new LinkedHashSet<>();
                for (Alternative alternative : positions.get(position)) {
                    List<String> words = alternative.words();
                    distinct.add(new Alternative(List.copyOf(words.subList(0, Math.min(words.size(), take))),
                            alternative.mark()));
                }
                return List.copyOf(distinct);
            });
        }
    }

    private Set<String> values(String slot) {
        Set<String> found = values.get(slot);
        if (found == null) {
            throw new IllegalStateException("template names an unknown slot ${" + slot + "}");
        }
        return found;
    }

    /** Every expansion of a template, choices and slots both enumerated. */
    private Set<String> expansions(Template template) {
        Set<String> out = new LinkedHashSet<>();
        out.add("");
        for (Template.Part part : template.parts()) {
            List<String> options = part instanceof Template.Choice choice ? choice.options()
                    : List.of(((Template.Text) part).text());
            Set<String> longer = new LinkedHashSet<>();
            for (String prefix : out) {
                for (String option : options) {
                    for (String filled : fill(option)) {
                        longer.add(prefix + filled);
                    }
                }
            }
            out = longer;
        }
        return out;
    }

    /** Every way to fill the slots of {@code text}. */
    private Set<String> fill(String text) {
        Set<String> out = new LinkedHashSet<>();
        out.add("");
        Matcher slot = Template.SLOT.matcher(text);
        int at = 0;
        while (slot.find()) {
            String fixed = text.substring(at, slot.start());
            Set<String> longer = new LinkedHashSet<>();
            for (String prefix : out) {
                for (String value : values(slot.group(1))) {
                    longer.add(prefix + fixed + value);
                }
            }
            out = longer;
            at = slot.end();
        }
        String tail = text.substring(at);
        Set<String> done = new LinkedHashSet<>();
        out.forEach(prefix -> done.add(prefix + tail));
        return done;
    }

    private static List<String> words(String text, Pattern token) {
        List<String> out = new ArrayList<>();
        Matcher m = token.matcher(text);
        while (m.find()) {
            out.add(m.group().toLowerCase(Locale.ROOT));
        }
        return out;
    }
}
