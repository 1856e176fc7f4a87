package dev.idempotent.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The checkers {@link DocsTest} runs over the repository, each on a small page written here. */
class DocsCheckersTest {

    @TempDir
    Path dir;

    private LinkChecker checkerOver(Map<String, String> files) throws IOException {
        for (Map.Entry<String, String> file : files.entrySet()) {
            Path path = dir.resolve(file.getKey());
            Files.createDirectories(path.getParent());
            Files.writeString(path, file.getValue());
        }
        return new LinkChecker(dir, files.keySet());
    }

    @Test
    void aLinkToNoFileAndAnAnchorToNoHeadingAreBrokenAndAGoodLinkIsNot() throws IOException {
        Map<String, String> files = new LinkedHashMap<>();
        files.put("docs/guide.md", """
                # Guide

                See [the server](../server/README.md#the-flags), [gone](missing.md), [bad anchor](../server/README.md#no-such),
                [here](#guide), [up](/server/), [web](https://example.com/x.md) and [mail](mailto:a@b.c).
                `[not a link](nowhere.md)`

                ```sh
                echo "[also not](nowhere.md)"
                ```
                """);
        files.put("server/README.md", "# Server\n\n## The flags\n");
        LinkChecker checker = checkerOver(files);

        List<String> problems = checker.problems("docs/guide.md");

        assertEquals(2, problems.size(), problems.toString());
        assertTrue(problems.get(0).startsWith("docs/guide.md:3: (missing.md) points to no tracked file"), problems.get(0));
        assertTrue(problems.get(1).startsWith("docs/guide.md:3: (../server/README.md#no-such) names #no-such"),
                problems.get(1));
    }

    @Test
    void aFileOnDiskThatIsNotTrackedDoesNotCount() throws IOException {
        Files.writeString(dir.resolve("untracked.md"), "# Untracked\n");
        LinkChecker checker = checkerOver(Map.of("page.md", "[x](untracked.md)\n"));

        assertEquals("points to no tracked file or directory", checker.whyBroken("page.md", "untracked.md"));
        assertEquals("leaves the repository", checker.whyBroken("page.md", "../outside.md"));
    }

    @Test
    void referenceDefinitionsAndHtmlLinksAreCheckedToo() throws IOException {
        LinkChecker checker = checkerOver(Map.of("page.md", """
                # Page
                [ref]: other.md
                <img src="img/shot.png" alt="">
                """));

        assertEquals(List.of("page.md:2: (other.md) points to no tracked file or directory",
                "page.md:3: (img/shot.png) points to no tracked file or directory"), checker.problems("page.md"));
    }

    @Test
    void anchorsFollowGithubsSlugRule() {
        assertEquals("the-flags-of-serve", Markdown.slug("The flags of `serve`"));
        assertEquals("--max-body-and---max-in-flight", Markdown.slug("`--max-body` and `--max-in-flight`"));
        assertEquals("get-__adminrequestsafterseq", Markdown.slug("GET /__admin/requests?after=SEQ"));
        assertEquals("what-it-is-for", Markdown.slug("What it is *for*"));
        assertEquals("a--b", Markdown.slug("A — B"));
        assertEquals("see-the-guide", Markdown.slug("See [the guide](guide.md)"));
        assertEquals("max_body", Markdown.slug("max_body"));
        assertEquals("café-11", Markdown.slug("Café 1.1"));
    }

    @Test
    void repeatedHeadingsGetNumberedAnchorsAndCodeBlocksHoldNone() {
        Set<String> anchors = Markdown.anchors("""
                # Flags
                ## Example
                ```sh
                # not a heading
                ```
                ## Example
                Setext heading
                --------------
                <a id="custom"></a>
                ## Example
                """);

        assertEquals(List.of("flags", "example", "example-1", "setext-heading", "custom", "example-2"),
                List.copyOf(anchors));
    }

    @Test
    void codeSpansAreReadOutsideCodeBlocksOnly() {
        assertEquals(List.of("--port N", "x"), Markdown.codeSpans("""
                | `--port N` | the port |
                ```
                `--not-this`
                ```
                and `x`.
                """));
    }

    @Test
    void wordsAreWhitespaceSeparatedTokens() {
        assertEquals(0, Markdown.words("  \n\t"));
        assertEquals(7, Markdown.words("# Title\n\n| a | b |\n"));
    }

    @Test
    void budgetsAndWhatCountsAsAPage() {
        assertEquals(1_500, DocsPages.budget("README.md"));
        assertEquals(2_500, DocsPages.budget("fake-server/README.md"));
        assertEquals(3_000, DocsPages.budget("CHANGELOG.md"));
        assertTrue(DocsPages.isPage("docs/reference/server.md"));
        assertTrue(!DocsPages.isPage("docs/packets/seat-grant/PROMPT.md"));
        assertTrue(!DocsPages.isPage("fake-server/src/test/equivalent-mutants.md"));
        assertTrue(!DocsPages.isPage("fake-server/src/it/basic/README.md"));
        assertTrue(!DocsPages.isPage("docs/src/test/resources/links/broken.md"));
        assertTrue(!DocsPages.isPage("docs/img/shot.png"));
        // Links are checked beyond the pages: everywhere but a test's input.
        assertTrue(DocsPages.linksChecked("docs/packets/seat-grant/PROMPT.md"));
        assertTrue(DocsPages.linksChecked("idempotent-client/core/src/test/equivalent-mutants.md"));
        assertTrue(!DocsPages.linksChecked("fake-server/src/it/basic/README.md"));
        assertTrue(!DocsPages.linksChecked("docs/src/test/resources/links/broken.md"));
        assertTrue(!DocsPages.linksChecked("docs/img/shot.png"));

        Map<String, Integer> words = new LinkedHashMap<>();
        words.put("README.md", 1_501);
        words.put("a/README.md", 2_500);
        words.put("docs/x.md", 3_001);
        assertEquals(List.of("README.md: 1501 words, budget 1500", "docs/x.md: 3001 words, budget 3000"),
                DocsPages.overBudget(words));
        words.put("docs/y.md", 3_000);
        words.put("docs/z.md", 24_000);
        assertEquals("all pages: 34002 words, budget 34000", DocsPages.overBudget(words).get(3));
    }

    @Test
    void onlyShellBlocksRightAfterTheMarkerAreRun() {
        String page = """
                <!-- docs-test: run -->
                ```sh
                java -jar fake-server/target/fake-server.jar grade --list
                ```

                ```sh
                java -jar fake-server/target/fake-server.jar serve
                ```
                <!-- docs-test: run -->

                ```sh
                echo marker and block apart
                ```
                <!-- docs-test: run -->
                ```json
                {}
                ```
                """;

        assertEquals(List.of(new RunBlocks.Block(2, "java -jar fake-server/target/fake-server.jar grade --list\n")),
                RunBlocks.marked(page));
        assertEquals(List.of(9, 14), RunBlocks.strayMarkers(page));
    }

    @Test
    void theJarsAScriptRunsAreNamed() {
        assertEquals(List.of("fake-server/target/fake-server.jar", "seat-grant-worker/lab/target/seat-grant-worker.jar"),
                RunBlocks.jars("java -jar fake-server/target/fake-server.jar grade -- java -jar "
                        + "seat-grant-worker/lab/target/seat-grant-worker.jar deliver\n"
                        + "ls fake-server/target/fake-server.jar\n"));
    }

    @Test
    void aBlockRunsWithStrictBashAndItsExitAndOutputAreKept() {
        RunBlocks.Outcome ok = RunBlocks.run(dir, "echo one\necho two\n", Duration.ofSeconds(30));
        assertEquals(new RunBlocks.Outcome(0, false, "one\ntwo\n"), ok);

        // -e: a failing command ends the block; pipefail: a failure inside a pipe counts.
        RunBlocks.Outcome failed = RunBlocks.run(dir, "false | cat\necho not reached\n", Duration.ofSeconds(30));
        assertEquals(new RunBlocks.Outcome(1, false, ""), failed);

        // -u: an unset variable is an error, not an empty word.
        assertEquals(1, RunBlocks.run(dir, "echo \"$NO_SUCH_VARIABLE_HERE\"\n", Duration.ofSeconds(30)).exit());
    }

    @Test
    void aBlockPastItsBoundIsKilled() {
        long started = System.nanoTime();
        RunBlocks.Outcome outcome = RunBlocks.run(dir, "echo started\nsleep 30\n", Duration.ofMillis(500));

        assertTrue(outcome.timedOut());
        assertEquals(-1, outcome.exit());
        assertEquals("started\n", outcome.output());
        assertTrue(Duration.ofNanos(System.nanoTime() - started).compareTo(Duration.ofSeconds(20)) < 0,
                "killed, not waited for");
    }

    @Test
    void helpTextsNameDocsPaths() {
        assertEquals(Set.of("docs/any-language.md", "fake-server/README.md", "docs/reference/"),
                DocsTest.docsPaths("See docs/any-language.md, fake-server/README.md and docs/reference/. Not x.mdx."));
    }

    @Test
    void markdownProseKeepsLinesAndDropsCode() {
        String prose = Markdown.prose("a `[x](y)` b\n```\n[z](w)\n```\nc\n");
        assertEquals("c", prose.split("\n", -1)[4], "each line stays on its line");
        assertTrue(!prose.contains("[x]") && !prose.contains("[z]"), prose);
    }
}
