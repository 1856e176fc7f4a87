package dev.idempotent.client.testing;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * Reads PIT's {@code mutations.xml} after a mutation run and fails unless every surviving mutant of the
 * guarded classes is explained in the module's {@code equivalent-mutants.md}, and every explanation there
 * still matches a survivor (a row whose mutant is now killed is stale and must go).
 *
 * <p>Run only by the {@code mutation} profile, after PIT, through a surefire execution that sets four system
 * properties: {@code mutation.report} (the XML), {@code mutation.equivalents} (the Markdown list),
 * {@code mutation.sources} (the module's {@code src/main/java}) and {@code mutation.guarded} (comma-separated
 * class names). Its name ends in {@code Check}, so the ordinary test run never picks it up; PIT excludes it.
 *
 * <p>Line numbers move whenever code above them changes, so a row is matched without them: by class, method,
 * mutator and PIT's description, plus a piece of code that must appear on the mutated source line (which
 * tells apart two mutants of one kind in one method). The line column is only a reader's hint.
 */
class EquivalentMutantsCheck {

    /** A surviving (or uncovered) mutant as PIT reports it, with the source line it sits on. */
    record Survivor(String className, String method, int line, String mutator, String description, String code) {
        String asRow() {
            return "| `" + className + "` | `" + method + "` | " + line + " | `" + mutator + "` | " + description
                    + " | `" + code + "` | WHY IT CANNOT CHANGE BEHAVIOUR |";
        }
    }

    /** One explained mutant from {@code equivalent-mutants.md}. */
    record Explained(String className, String method, String line, String mutator, String description, String code,
            String why) {
        boolean explains(Survivor s) {
            return className.equals(s.className()) && method.equals(s.method()) && mutator.equals(s.mutator())
                    && description.equals(s.description()) && s.code().contains(code);
        }
    }

    @Test
    void everySurvivorInTheGuardedClassesIsExplainedAndEveryExplanationIsCurrent() throws Exception {
        Path report = Path.of(required("mutation.report"));
        Path equivalents = Path.of(required("mutation.equivalents"));
        Path sources = Path.of(required("mutation.sources"));
        List<String> guarded = Arrays.stream(required("mutation.guarded").split(","))
                .map(String::trim).filter(s -> !s.isEmpty()).toList();
        assertTrue(Files.isRegularFile(report), "no PIT report at " + report + "; run PIT first (-Pmutation)");

        Document xml = parse(report);
        Map<String, Integer> mutantsPerGuardedClass = new TreeMap<>();
        guarded.forEach(c -> mutantsPerGuardedClass.put(c, 0));
        List<Survivor> survivors = new ArrayList<>();
        NodeList mutations = xml.getElementsByTagName("mutation");
        for (int i = 0; i < mutations.getLength(); i++) {
            Element m = (Element) mutations.item(i);
            String fqcn = text(m, "mutatedClass");
            String outer = fqcn.contains("$") ? fqcn.substring(0, fqcn.indexOf('$')) : fqcn;
            if (!guarded.contains(outer)) {
                continue;
            }
            mutantsPerGuardedClass.merge(outer, 1, Integer::sum);
            String status = m.getAttribute("status");
            if (!status.equals("SURVIVED") && !status.equals("NO_COVERAGE")) {
                continue;
            }
            int line = Integer.parseInt(text(m, "lineNumber"));
            String mutator = text(m, "mutator");
            survivors.add(new Survivor(fqcn.substring(fqcn.lastIndexOf('.') + 1), text(m, "mutatedMethod"), line,
                    mutator.substring(mutator.lastIndexOf('.') + 1), text(m, "description"),
                    sourceLine(sources, outer, text(m, "sourceFile"), line)));
        }
        mutantsPerGuardedClass.forEach((c, n) -> assertFalse(n == 0,
                "PIT mutated nothing in " + c + ": is it still in the profile's targetClasses?"));

        List<Explained> rows = readRows(equivalents);
        List<Explained> unused = new ArrayList<>(rows);
        List<Survivor> unexplained = new ArrayList<>();
        for (Survivor s : survivors) {
            Explained match = unused.stream().filter(r -> r.explains(s)).findFirst().orElse(null);
            if (match == null) {
                unexplained.add(s);
            } else {
                unused.remove(match);
            }
        }
        StringBuilder problems = new StringBuilder();
        if (!unexplained.isEmpty()) {
            problems.append("\nSurviving mutants with no row in ").append(equivalents)
                    .append(" (kill them with a test, or add the row and say why they are equivalent):\n");
            unexplained.forEach(s -> problems.append(s.asRow()).append('\n'));
        }
        if (!unused.isEmpty()) {
            problems.append("\nRows in ").append(equivalents).append(" that no surviving mutant matches "
                    + "(killed now, or the code changed: remove or update them):\n");
            unused.forEach(r -> problems.append(r).append('\n'));
        }
        if (problems.length() > 0) {
            fail(problems.toString());
        }
    }

    private static String required(String property) {
        String value = System.getProperty(property);
        if (value == null || value.isBlank()) {
            fail("system property " + property + " is not set; this check runs from the mutation profile only");
        }
        return value;
    }

    private static Document parse(Path report) throws Exception {
        DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
        factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
        factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        return factory.newDocumentBuilder().parse(report.toFile());
    }

    private static String text(Element parent, String tag) {
        NodeList nodes = parent.getElementsByTagName(tag);
        return nodes.getLength() == 0 ? "" : nodes.item(0).getTextContent().trim();
    }

    private static String sourceLine(Path sources, String outerClass, String sourceFile, int line) throws IOException {
        String pkg = outerClass.contains(".") ? outerClass.substring(0, outerClass.lastIndexOf('.')) : "";
        Path file = sources.resolve(pkg.replace('.', '/')).resolve(sourceFile);
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        return line >= 1 && line <= lines.size() ? lines.get(line - 1).trim() : "";
    }

    /**
     * The rows of every Markdown table in the file whose header starts {@code | class | method |}; cells may
     * be wrapped in backticks. Each row must say why.
     */
    static List<Explained> readRows(Path markdown) throws IOException {
        List<Explained> rows = new ArrayList<>();
        boolean inTable = false;
        for (String raw : Files.readAllLines(markdown, StandardCharsets.UTF_8)) {
            String line = raw.trim();
            if (!line.startsWith("|")) {
                inTable = false;
                continue;
            }
            List<String> cells = cells(line);
            if (!inTable) {
                inTable = cells.size() >= 7 && cells.get(0).equalsIgnoreCase("class") && cells.get(1).equalsIgnoreCase("method");
                continue;
            }
            if (cells.get(0).matches("-+:?|:?-+:?")) {
                continue;
            }
            if (cells.size() < 7 || cells.get(6).isBlank() || cells.get(5).isBlank()) {
                fail("row in " + markdown + " needs class, method, line, mutator, description, code and why: " + raw);
            }
            rows.add(new Explained(cells.get(0), cells.get(1), cells.get(2), cells.get(3), cells.get(4), cells.get(5),
                    cells.get(6)));
        }
        return rows;
    }

    private static List<String> cells(String line) {
        String inner = line.substring(1, line.endsWith("|") ? line.length() - 1 : line.length());
        List<String> cells = new ArrayList<>();
        for (String cell : inner.split("(?<!\\\\)\\|", -1)) {
            String c = cell.trim().replace("\\|", "|");
            if (c.length() >= 2 && c.startsWith("`") && c.endsWith("`")) {
                c = c.substring(1, c.length() - 1);
            }
            cells.add(c);
        }
        return cells;
    }
}
