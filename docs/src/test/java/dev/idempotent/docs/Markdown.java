package dev.idempotent.docs;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the docs checks read out of a Markdown page: its words, its fenced code blocks, its prose without code, and
 * the anchors GitHub gives its headings. Only as much Markdown as this repository's pages use; stateless.
 */
final class Markdown {

    private static final Pattern FENCE = Pattern.compile("^ {0,3}(`{3,}|~{3,})\\s*([^`\\s]*).*$");
    private static final Pattern ATX = Pattern.compile("^ {0,3}(#{1,6})(?:[ \\t]+(.*?))?(?:[ \\t]+#+)?[ \\t]*$");
    private static final Pattern SETEXT = Pattern.compile("^ {0,3}(=+|-+)[ \\t]*$");
    private static final Pattern CODE_SPAN = Pattern.compile("(`+)(.+?)(?<!`)\\1(?!`)");
    private static final Pattern HTML_ID = Pattern.compile("<[a-zA-Z][^>]*?\\s(?:id|name)=\"([^\"]+)\"[^>]*>");
    private static final Pattern LINK_IN_HEADING = Pattern.compile("!?\\[([^\\]]*)\\]\\([^)]*\\)");
    private static final Pattern EMPHASIS = Pattern.compile(
            "(?<![\\p{L}\\p{N}_*])(\\*{1,3}|_{1,3})(?=\\S)(.+?)(?<=\\S)\\1(?![\\p{L}\\p{N}_*])");

    private Markdown() {
    }

    /** One fenced code block: the line of its opening fence (1-based), its info string, and its body. */
    record Fenced(int line, String info, String body) { }

    /** The word count: whitespace-separated tokens of the raw text, as {@code wc -w} counts them. */
    static int words(String text) {
        String trimmed = text.strip();
        return trimmed.isEmpty() ? 0 : trimmed.split("\\s+").length;
    }

    /** Every fenced code block, in order; an unclosed fence runs to the end of the page, as GitHub renders it. */
    static List<Fenced> fencedBlocks(String text) {
        List<Fenced> blocks = new ArrayList<>();
        String[] lines = text.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            Matcher open = FENCE.matcher(lines[i]);
            if (!open.matches()) {
                continue;
            }
            String fence = open.group(1);
            int start = i;
            StringBuilder body = new StringBuilder();
            for (i = i + 1; i < lines.length && !closes(lines[i], fence); i++) {
                body.append(lines[i]).append('\n');
            }
            blocks.add(new Fenced(start + 1, open.group(2), body.toString()));
        }
        return blocks;
    }

    /**
     * The page with fenced blocks blanked and inline code spans turned to spaces, line breaks kept: what is left
     * is where a link can be, and an offset still maps to the same line.
     */
    static String prose(String text) {
        String[] lines = text.split("\n", -1);
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < lines.length; i++) {
            Matcher open = FENCE.matcher(lines[i]);
            if (open.matches()) {
                String fence = open.group(1);
                out.append('\n');
                for (i = i + 1; i < lines.length && !closes(lines[i], fence); i++) {
                    out.append('\n');
                }
                if (i < lines.length) {
                    out.append('\n');
                }
                continue;
            }
            Matcher span = CODE_SPAN.matcher(lines[i]);
            StringBuilder line = new StringBuilder();
            while (span.find()) {
                span.appendReplacement(line, " ".repeat(span.group().length()));
            }
            span.appendTail(line);
            out.append(line).append('\n');
        }
        return out.toString();
    }

    /** The text of every inline code span outside code blocks, in order. */
    static List<String> codeSpans(String text) {
        List<String> spans = new ArrayList<>();
        String[] lines = text.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            Matcher open = FENCE.matcher(lines[i]);
            if (open.matches()) {
                for (i = i + 1; i < lines.length && !closes(lines[i], open.group(1)); i++) {
                    // a code block holds no code spans
                }
                continue;
            }
            Matcher span = CODE_SPAN.matcher(lines[i]);
            while (span.find()) {
                spans.add(span.group(2));
            }
        }
        return spans;
    }

    /** The anchors a link to this page may name: GitHub's heading ids, then any {@code id}/{@code name} in HTML. */
    static Set<String> anchors(String text) {
        Set<String> anchors = new LinkedHashSet<>();
        Map<String, Integer> seen = new HashMap<>();
        String[] lines = text.split("\n", -1);
        String previous = "";
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i];
            Matcher open = FENCE.matcher(line);
            if (open.matches()) {
                for (i = i + 1; i < lines.length && !closes(lines[i], open.group(1)); i++) {
                    // inside a code block nothing is a heading
                }
                previous = "";
                continue;
            }
            String heading = null;
            Matcher atx = ATX.matcher(line);
            if (atx.matches()) {
                heading = atx.group(2) == null ? "" : atx.group(2);
            } else if (SETEXT.matcher(line).matches() && isParagraphLine(previous)) {
                heading = previous.strip();
            }
            if (heading != null) {
                String slug = slug(heading);
                int count = seen.merge(slug, 1, Integer::sum);
                anchors.add(count == 1 ? slug : slug + "-" + (count - 1));
                previous = "";
            } else {
                previous = line;
            }
            Matcher id = HTML_ID.matcher(line);
            while (id.find()) {
                anchors.add(id.group(1));
            }
        }
        return anchors;
    }

    /**
     * GitHub's anchor for a heading: the rendered text (inline code's backticks, emphasis marks, link targets and
     * HTML tags gone), lowercased, every character but letters, digits, {@code _}, {@code -} and spaces dropped,
     * then each space a {@code -}.
     */
    static String slug(String heading) {
        StringBuilder rendered = new StringBuilder();
        Matcher span = CODE_SPAN.matcher(heading);
        int at = 0;
        while (span.find()) {
            rendered.append(renderedProse(heading.substring(at, span.start()))).append(span.group(2));
            at = span.end();
        }
        rendered.append(renderedProse(heading.substring(at)));
        return rendered.toString().strip().toLowerCase(Locale.ROOT)
                .replaceAll("[^\\p{L}\\p{M}\\p{N}\\p{Pc} -]", "")
                .replace(' ', '-');
    }

    private static String renderedProse(String text) {
        String out = LINK_IN_HEADING.matcher(text).replaceAll("$1");
        out = out.replaceAll("<[^>]+>", "").replaceAll("&#?\\w+;", "");
        String before;
        do {
            before = out;
            out = EMPHASIS.matcher(out).replaceAll("$2");
        } while (!out.equals(before));
        return out;
    }

    private static boolean isParagraphLine(String line) {
        String s = line.strip();
        return !s.isEmpty() && !s.startsWith("|") && !s.startsWith(">") && !s.startsWith("<")
                && !s.matches("([-*+]|\\d+[.)])(\\s.*)?") && !ATX.matcher(line).matches();
    }

    private static boolean closes(String line, String fence) {
        String s = line.strip();
        return line.length() - line.stripLeading().length() <= 3 && s.length() >= fence.length()
                && s.chars().allMatch(c -> c == fence.charAt(0));
    }
}
