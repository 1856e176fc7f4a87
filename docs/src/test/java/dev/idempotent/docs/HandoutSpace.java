package dev.idempotent.docs;

import dev.idempotent.docs.PacketVariant.Domain;
import dev.idempotent.docs.PacketVariant.NameRule;
import dev.idempotent.docs.PacketVariant.Spec;
import dev.idempotent.docs.PacketVariant.Template;
import java.util.ArrayList;
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
        List<List<Alternative>> positions = new ArrayList<>();
        for (Template.Part part : template.parts()) {
            if (part instanceof Template.Choice choice) {
                List<Alternative> alternatives = new ArrayList<>();
                for (int i = 0; i < choice.options().size(); i++) {
                    for (String filled : fill(choice.options().get(i))) {
                        alternatives.add(new Alternative(words(filled), choice.marks().get(i)));
                    }
                }
                positions.add(alternatives);
            } else {
                String text = ((Template.Text) part).text();
                Matcher slot = Template.SLOT.matcher(text);
                int at = 0;
                while (slot.find()) {
                    words(text.substring(at, slot.start())).forEach(w -> positions.add(List.of(new Alternative(List.of(w), ""))));
                    List<Alternative> alternatives = new ArrayList<>();
                    for (String value : values(slot.group(1))) {
                        alternatives.add(new Alternative(words(value), ""));
                    }
                    positions.add(alternatives);
                    at = slot.end();
                }
                words(text.substring(at)).forEach(w -> positions.add(List.of(new Alternative(List.of(w), ""))));
            }
        }
        Set<String> runs = new LinkedHashSet<>();
        for (int p = 0; p < positions.size(); p++) {
            for (Alternative alternative : positions.get(p)) {
                List<String> words = alternative.words();
                for (int offset = 0; offset < words.size(); offset++) {
                    collect(positions, p + 1, new ArrayList<>(words.subList(offset, Math.min(words.size(),
                            offset + length))), alternative.sets(null), length, runs);
                }
            }
        }
        return runs;
    }

    private static void collect(List<List<Alternative>> positions, int next, List<String> run, String number, int length,
            Set<String> out) {
        if (run.size() == length) {
            out.add(String.join(" ", run));
            return;
        }
        if (next == positions.size()) {
            return;
        }
        for (Alternative alternative : positions.get(next)) {
            if (!alternative.agrees(number)) {
                continue;
            }
            List<String> longer = new ArrayList<>(run);
            longer.addAll(alternative.words().subList(0, Math.min(alternative.words().size(), length - run.size())));
            collect(positions, next + 1, longer, alternative.sets(number), length, out);
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

    private static List<String> words(String text) {
        List<String> out = new ArrayList<>();
        Matcher m = WORD.matcher(text);
        while (m.find()) {
            out.add(m.group().toLowerCase(Locale.ROOT));
        }
        return out;
    }
}
