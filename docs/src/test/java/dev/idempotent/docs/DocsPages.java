package dev.idempotent.docs;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Which tracked Markdown files are the docs a reader reads (issue 37), and the word budget of each: the front
 * README 1,500 words, any other README 2,500, any other page 3,000, all of them together 34,000
 * (raised once from 30,000, for the client's adapters and the provider recipes).
 */
final class DocsPages {

    static final int FRONT_README = 1_500;
    static final int OTHER_README = 2_500;
    static final int PAGE = 3_000;
    static final int TOTAL = 34_000;

    /**
     * Not docs: the interview packets (a guide of their own), the equivalent-mutant lists a check parses, and
     * Markdown under {@code src/it/} or {@code src/test/resources/}, which is a test's input (it may hold a broken
     * link on purpose), not a page anyone is sent to.
     */
    private static final Pattern NOT_DOCS = Pattern.compile(
            "^docs/packets/.*|(^|.*/)equivalent-mutants\\.md|(^|.*/)src/(it|test/resources)/.*");

    /** Markdown that is a test's input, never a page anyone is sent to: its links are not checked either. */
    private static final Pattern TEST_INPUT = Pattern.compile("(^|.*/)src/(it|test/resources)/.*");

    private DocsPages() {
    }

    /**
     * Whether a tracked path's links are checked: every Markdown file but a test's input (issue 45), the packets and
     * the equivalent-mutant lists included, which have no word budget.
     */
    static boolean linksChecked(String path) {
        return path.endsWith(".md") && !TEST_INPUT.matcher(path).matches();
    }

    /** Whether a tracked path ({@code /}-separated, relative to the root) is a docs page. */
    static boolean isPage(String path) {
        return path.endsWith(".md") && !NOT_DOCS.matcher(path).matches();
    }

    /** The docs pages among tracked files, as root-relative {@code /}-separated paths. */
    static List<String> pages(Path root, List<Path> tracked) {
        List<String> pages = new ArrayList<>();
        for (Path file : tracked) {
            String path = root.relativize(file).toString().replace('\\', '/');
            if (isPage(path)) {
                pages.add(path);
            }
        }
        pages.sort(null);
        return pages;
    }

    /** The budget of one page. */
    static int budget(String path) {
        if (path.equals("README.md")) {
            return FRONT_README;
        }
        return path.endsWith("/README.md") ? OTHER_README : PAGE;
    }

    /** One line per page over its budget, and one for the total when it is over; empty when all fit. */
    static List<String> overBudget(Map<String, Integer> words) {
        List<String> over = new ArrayList<>();
        int total = 0;
        for (Map.Entry<String, Integer> page : words.entrySet()) {
            total += page.getValue();
            if (page.getValue() > budget(page.getKey())) {
                over.add(page.getKey() + ": " + page.getValue() + " words, budget " + budget(page.getKey()));
            }
        }
        if (total > TOTAL) {
            over.add("all pages: " + total + " words, budget " + TOTAL);
        }
        return over;
    }
}
