package dev.idempotent.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idempotent.seatgrant.server.FakeSeatServer;
import dev.idempotent.seatgrant.server.Main;
import dev.idempotent.seatgrant.server.ServerConfig;
import dev.idempotent.seatgrant.server.internal.http.admin.AdminRoutes;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The docs as a reader meets them (issue 37): each page within its word budget, every relative link (of every
 * tracked Markdown file but a test's input, issue 45) and every docs path the CLI's help prints resolving, every
 * CLI flag and admin route in the reference under {@code docs/reference/}, and every command a page marks to be run
 * exiting 0 when run as printed.
 */
class DocsTest {

    /** The fake server's subcommands whose flags the reference lists. */
    private static final List<String> SUBCOMMANDS = List.of("serve", "proxy", "reproduce", "grade");
    private static final String REFERENCE = "docs/reference/";
    private static final Duration RUN_BOUND = Duration.ofSeconds(60);

    private static final Pattern DEFINED_FLAG = Pattern.compile("(?m)^\\s+(--[a-z][a-z0-9-]*)");
    private static final Pattern FLAG = Pattern.compile("(?<![\\w-])(--[a-z][a-z0-9-]*)(?![a-z0-9-])");
    private static final Pattern DOCS_PATH = Pattern.compile(
            "(?<![\\w./-])((?:docs/[\\w./-]*[\\w/])|(?:[\\w.-]+/)*[\\w.-]+\\.md)(?![\\w/])");
    private static final Pattern ADMIN_CASE = Pattern.compile("case\\s+PREFIX\\s*\\+\\s*\"(/[^\"]+)\"");
    private static final Pattern PAGE_PATH = Pattern.compile("PATH\\s*=\\s*AdminRoutes\\.PREFIX\\s*\\+\\s*\"(/[^\"]+)\"");

    private static Path root;
    private static List<String> tracked;
    private static List<String> pages;

    @BeforeAll
    static void readRepository() {
        root = ProjectRoot.get();
        List<Path> files = RepositoryText.trackedFiles(root);
        tracked = files.stream().map(f -> root.relativize(f).toString().replace('\\', '/')).toList();
        pages = DocsPages.pages(root, files);
        assertTrue(pages.contains("README.md"), "the front README is among the pages: " + pages);
    }

    @Test
    void everyPageFitsItsWordBudget() {
        Map<String, Integer> words = new LinkedHashMap<>();
        for (String page : pages) {
            words.put(page, Markdown.words(read(page)));
        }
        List<String> over = DocsPages.overBudget(words);
        assertTrue(over.isEmpty(), "over budget (words = whitespace-separated tokens):\n  " + String.join("\n  ", over));
    }

    @Test
    void everyRelativeLinkResolves() {
        LinkChecker checker = new LinkChecker(root, tracked);
        List<String> broken = new ArrayList<>();
        long relative = 0;
        List<String> checked = tracked.stream().filter(DocsPages::linksChecked).toList();
        assertTrue(checked.containsAll(pages) && checked.contains("idempotent-client/core/src/test/equivalent-mutants.md"),
                "every page, and Markdown beyond the pages, is checked: " + checked);
        for (String page : checked) {
            broken.addAll(checker.problems(page));
            relative += checker.links(page).stream().filter(l -> !l.target().matches("(?i)(https?|mailto):.*")).count();
        }
        assertTrue(relative > 0, "the pages link to each other: no relative link was found, so none was checked");
        assertTrue(broken.isEmpty(), "links that point nowhere:\n  " + String.join("\n  ", broken));
    }

    @Test
    void everyDocsPathTheHelpPrintsExists() {
        Map<String, String> help = new LinkedHashMap<>(fakeServerHelp());
        help.putAll(workerHelp());
        Set<String> files = new java.util.HashSet<>(tracked);
        List<String> missing = new ArrayList<>();
        for (Map.Entry<String, String> text : help.entrySet()) {
            for (String path : docsPaths(text.getValue())) {
                String bare = path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
                boolean isDirectory = tracked.stream().anyMatch(f -> f.startsWith(bare + "/"));
                if (!files.contains(bare) && !isDirectory) {
                    missing.add(text.getKey() + " names " + path);
                }
            }
        }
        assertTrue(missing.isEmpty(), "the help names docs that are not in the repository:\n  "
                + String.join("\n  ", missing));
    }

    @Test
    void everyFlagOfTheCliIsInTheReference() {
        Set<String> documented = new TreeSet<>();
        for (String page : referencePages()) {
            for (String span : Markdown.codeSpans(read(page))) {
                Matcher flag = FLAG.matcher(span);
                while (flag.find()) {
                    documented.add(flag.group(1));
                }
            }
        }
        List<String> missing = new ArrayList<>();
        for (Map.Entry<String, Set<String>> command : cliFlags().entrySet()) {
            for (String flag : command.getValue()) {
                if (!documented.contains(flag)) {
                    missing.add(command.getKey() + " " + flag);
                }
            }
        }
        assertTrue(missing.isEmpty(), "flags no page under " + REFERENCE + " names in backticks:\n  "
                + String.join("\n  ", missing));
    }

    @Test
    void everyAdminRouteIsInTheReference() throws Exception {
        Set<String> routes = adminRoutes();
        StringBuilder reference = new StringBuilder();
        for (String page : referencePages()) {
            reference.append(read(page)).append('\n');
        }
        List<String> missing = routes.stream()
                .filter(route -> !Pattern.compile(Pattern.quote(route) + "(?![\\w-])").matcher(reference).find())
                .toList();
        assertTrue(missing.isEmpty(), "admin routes no page under " + REFERENCE + " names: " + missing);
    }

    @Test
    void theMarkedCommandsRunAsPrinted() {
        List<String> failures = new ArrayList<>();
        // The same script from the same directory is the same check, so a command printed on several pages (the
        // front README, the incident page and the fake server's README all print `reproduce`, which takes seconds)
        // runs once, and its outcome stands for each page that prints it.
        Map<String, RunBlocks.Outcome> outcomes = new HashMap<>();
        int blocks = 0;
        for (String page : pages) {
            String text = read(page);
            for (int line : RunBlocks.strayMarkers(text)) {
                failures.add(page + ":" + line + ": " + RunBlocks.MARKER + " is not right before a ```sh block");
            }
            for (RunBlocks.Block block : RunBlocks.marked(text)) {
                String where = page + ":" + block.line();
                List<String> absent = RunBlocks.jars(block.script()).stream()
                        .filter(jar -> !Files.isRegularFile(root.resolve(jar))).toList();
                if (!absent.isEmpty()) {
                    failures.add(where + ": needs " + String.join(", ", absent)
                            + ", not built (the reactor packages fake-server and seat-grant-worker before docs)");
                    continue;
                }
                RunBlocks.Outcome outcome = outcomes.computeIfAbsent(block.script(),
                        script -> RunBlocks.run(root, script, RUN_BOUND));
                blocks++;
                if (outcome.timedOut()) {
                    failures.add(where + ": still running after " + RUN_BOUND.toSeconds() + " s, killed; it printed:\n"
                            + outcome.output());
                } else if (outcome.exit() != 0) {
                    failures.add(where + ": exit " + outcome.exit() + "; it printed:\n" + outcome.output());
                }
            }
        }
        assertTrue(failures.isEmpty(), blocks + " marked blocks (" + outcomes.size() + " different scripts) run; failed:\n"
                + String.join("\n", failures));
    }

    @Test
    void theFrontReadmeMarksItsCommandsToRun() {
        assertFalse(RunBlocks.marked(read("README.md")).isEmpty(),
                "the front README marks its commands that end by themselves with " + RunBlocks.MARKER);
    }

    @Test
    void theHelpThisTestReadsIsTheRealHelp() {
        Map<String, Set<String>> flags = cliFlags();
        assertEquals(Set.copyOf(SUBCOMMANDS), flags.keySet());
        // Flags each subcommand has had since it was written: the help was read, not an error message.
        assertTrue(flags.get("serve").containsAll(List.of("--port", "--db", "--fault-plan")), flags.toString());
        assertTrue(flags.get("proxy").containsAll(List.of("--upstream", "--route")), flags.toString());
        assertTrue(flags.get("reproduce").containsAll(List.of("--variant", "--seed")), flags.toString());
        assertTrue(flags.get("grade").containsAll(List.of("--list", "--json")), flags.toString());
    }

    /** Each subcommand's flags, as its {@code --help} defines them (one at the start of a line), in order. */
    static Map<String, Set<String>> cliFlags() {
        Map<String, Set<String>> flags = new LinkedHashMap<>();
        for (String command : SUBCOMMANDS) {
            String help = fakeServerHelp().get("fake-server " + command + " --help");
            Set<String> defined = new LinkedHashSet<>();
            Matcher m = DEFINED_FLAG.matcher(help);
            while (m.find()) {
                defined.add(m.group(1));
            }
            flags.put(command, defined);
        }
        return flags;
    }

    /** The docs paths a help text names: {@code docs/...} and any {@code *.md}. */
    static Set<String> docsPaths(String help) {
        Set<String> paths = new LinkedHashSet<>();
        Matcher m = DOCS_PATH.matcher(help);
        while (m.find()) {
            paths.add(m.group(1));
        }
        return paths;
    }

    /**
     * The admin API's routes, read from the code ({@code AdminRoutes}' switch and the page's path), each confirmed
     * on a running server: it answers anything but the 404 an unknown admin path gets.
     */
    private static Set<String> adminRoutes() throws IOException, InterruptedException {
        Path admin = root.resolve("fake-server/src/main/java/dev/idempotent/seatgrant/server/internal/http/admin");
        Set<String> routes = new TreeSet<>();
        Matcher cases = ADMIN_CASE.matcher(Files.readString(admin.resolve("AdminRoutes.java")));
        while (cases.find()) {
            routes.add(AdminRoutes.PREFIX + cases.group(1));
        }
        Matcher page = PAGE_PATH.matcher(Files.readString(admin.resolve("AdminPage.java")));
        while (page.find()) {
            routes.add(AdminRoutes.PREFIX + page.group(1));
        }
        assertTrue(routes.size() >= 5, "routes read from AdminRoutes and AdminPage: " + routes);
        HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        try (FakeSeatServer server = FakeSeatServer.start(ServerConfig.builder().port(0).db("mem").build())) {
            for (String route : routes) {
                assertTrue(get(client, server.baseUri().resolve(route)) != 404, route + " is served");
            }
            assertEquals(404, get(client, server.baseUri().resolve(AdminRoutes.PREFIX + "/no-such-route")),
                    "an unknown admin path is 404, so a served route is told apart");
        }
        return routes;
    }

    private static int get(HttpClient client, URI uri) throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10)).GET().build();
        return client.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    /** The fake server's help texts, by the command line that printed them. */
    private static Map<String, String> fakeServerHelp() {
        Map<String, String> help = new LinkedHashMap<>();
        help.put("fake-server --help", captured(out -> Main.run(new String[] {"--help"}, out, out)));
        for (String command : SUBCOMMANDS) {
            help.put("fake-server " + command + " --help",
                    captured(out -> Main.run(new String[] {command, "--help"}, out, out)));
        }
        return help;
    }

    /** The seat-grant worker's help texts, by the command line that printed them. */
    private static Map<String, String> workerHelp() {
        Map<String, String> help = new LinkedHashMap<>();
        for (List<String> args : List.of(List.of("--help"), List.of("deliver", "--help"))) {
            help.put("seat-grant-worker " + String.join(" ", args), captured(out -> dev.idempotent.seatgrant.worker.cli.Main
                    .run(args.toArray(String[]::new), new ByteArrayInputStream(new byte[0]), out, out)));
        }
        return help;
    }

    private interface Command {
        int run(PrintStream out);
    }

    /** What a help command printed; it must exit 0 and print a usage line, or this is no help text. */
    private static String captured(Command command) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        int exit = command.run(out);
        String text = bytes.toString(StandardCharsets.UTF_8);
        assertEquals(0, exit, text);
        assertTrue(text.contains("usage:"), text);
        return text;
    }

    private static List<String> referencePages() {
        List<String> reference = pages.stream().filter(p -> p.startsWith(REFERENCE)).toList();
        assertFalse(reference.isEmpty(), "no page under " + REFERENCE);
        return reference;
    }

    private static String read(String page) {
        try {
            return Files.readString(root.resolve(page), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
