package dev.idempotent.docs;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

/**
 * Scores a hand-in with a handout's scoring kit alone: a JDK (17 and up) is all it needs, neither Maven nor a
 * checkout of this project, and nothing is fetched. {@link PacketVariant} copies this file into
 * {@code interviewer/kit/} beside the jars it runs with; run it inside that {@code interviewer/} folder with the
 * JDK's source launcher:
 * <pre>{@code java kit/ScoringKit.java PATH/TO/HANDED-IN/starter [--reports DIR] [--no-grade | --grade-only CHECK,...]}</pre>
 *
 * <p>It checks the kit's jars against {@code kit/SHA256SUMS}; refuses a hand-in whose build names a dependency
 * the kit lacks ("the kit cannot score this"); for a fenced packet, compares the frozen tests and pom with
 * {@code handed-out/}; compiles the hand-in and the interviewer's tests with {@code javac}; runs them with the
 * JUnit console launcher; and, where the kit holds fake-server's jar, runs {@code grade --handout .} on the worker.
 * Every name it prints is the hand-in's or the handout's. Exit 0 when the fence held and every test passed, 1
 * otherwise, 2 when it could not score.
 */
public final class ScoringKit {

    private ScoringKit() {
    }

    public static void main(String[] args) {
        System.exit(run(args, System.out));
    }

    /** The kit's description, relative to interviewer/. */
    static final String PROPERTIES = "kit/kit.properties";

    /** The kit's checksums, relative to interviewer/, in {@code sha256sum}'s format. */
    static final String SUMS = "kit/SHA256SUMS";

    /** What a hand-in that cannot be scored with the kit is told, at the start of its line. */
    static final String CANNOT = "the kit cannot score this";

    static int run(String[] args, PrintStream out) {
        List<String> rest = new ArrayList<>(List.of(args));
        boolean grade = !rest.remove("--no-grade");
        String gradeOnly = null;
        int only = rest.indexOf("--grade-only");
        if (only >= 0 && only + 1 < rest.size()) {
            gradeOnly = rest.remove(only + 1);
            rest.remove(only);
        }
        Path reports = null;
        int at = rest.indexOf("--reports");
        if (at >= 0 && at + 1 < rest.size()) {
            reports = Path.of(rest.remove(at + 1)).toAbsolutePath();
            rest.remove(at);
        }
        Path here = Path.of("").toAbsolutePath();
        if (rest.size() != 1 || !Files.isRegularFile(here.resolve(PROPERTIES))) {
            out.println("usage, inside a handout's interviewer/ folder: java kit/ScoringKit.java HANDED-IN-STARTER"
                    + " [--reports DIR] [--no-grade | --grade-only CHECK,...]");
            return 2;
        }
        Path handIn = Path.of(rest.get(0)).toAbsolutePath();
        Path work = null;
        try {
            Properties kit = new Properties();
            try (InputStream in = Files.newInputStream(here.resolve(PROPERTIES))) {
                kit.load(in);
            }
            String damaged = verify(here);
            if (damaged != null) {
                out.println("the kit is damaged (" + damaged + "): generate the handout's folder again");
                return 2;
            }
            String refused = refusal(handIn, Set.of(kit.getProperty("dependencies").split(",")));
            if (refused != null) {
                out.println(CANNOT + ": " + refused + "; score it with Maven, from a checkout of the project");
                return 2;
            }
            boolean fence = true;
            if (Boolean.parseBoolean(kit.getProperty("fenced"))) {
                out.println("== 1. the fence: frozen tests and pom.xml as handed out");
                fence = fence(here.resolve("handed-out"), handIn, out);
            }
            work = Files.createTempDirectory("scoring-kit-");
            Path tree = work.resolve("tree");
            copy(handIn, tree);
            copy(here.resolve(kit.getProperty("tests")), tree.resolve("src/test/java"));
            List<Path> compile = jars(here, kit.getProperty("compile"));
            List<Path> runtime = jars(here, kit.getProperty("runtime"));
            List<Path> test = jars(here, kit.getProperty("test"));
            Path main = work.resolve("main");
            Path tests = work.resolve("tests");
            out.println("== " + (Boolean.parseBoolean(kit.getProperty("fenced")) ? "2" : "1")
                    + ". the tests: the hand-in's and this folder's " + kit.getProperty("tests") + "/");
            boolean compiled = compile(tree.resolve("src/main/java"), compile, main, out)
                    && compile(tree.resolve("src/test/java"),
                            concat(List.of(main), compile, runtime, test, List.of(here.resolve("kit/lib").resolve(launcher(here)))),
                            tests, out);
            copy(tree.resolve("src/main/resources"), main);
            copy(tree.resolve("src/test/resources"), tests);
            boolean green = compiled && test(here, tree, tests, concat(List.of(tests, main), compile, runtime, test), reports,
                    out);
            String graded = "not part of this packet";
            if (kit.getProperty("grader") != null) {
                graded = !grade ? "skipped (--no-grade)" : !compiled ? "skipped: the hand-in does not compile"
                        : grade(here, handIn, kit, concat(List.of(main), compile, runtime), gradeOnly, out);
            }
            out.println("== " + (Boolean.parseBoolean(kit.getProperty("fenced")) ? "fence: " + (fence ? "kept" : "broken")
                    + "; " : "") + "tests: " + (green ? "all green" : "some red, see above")
                    + (kit.getProperty("grader") != null ? "; grade: " + graded : ""));
            return fence && green ? 0 : 1;
        } catch (IOException | RuntimeException e) {
            out.println("could not score: " + e);
            return 2;
        } finally {
            if (work != null) {
                delete(work);
            }
        }
    }

    /** Null when every file in {@link #SUMS} has its checksum and the kit's lib/ holds nothing unlisted. */
    static String verify(Path here) throws IOException {
        Set<String> listed = new TreeSet<>();
        for (String line : Files.readAllLines(here.resolve(SUMS), StandardCharsets.UTF_8)) {
            if (line.isBlank()) {
                continue;
            }
            String sum = line.substring(0, line.indexOf(' '));
            String file = line.substring(line.indexOf(' ')).strip().replaceFirst("^\\*", "");
            listed.add(file);
            Path path = here.resolve(file);
            if (!Files.isRegularFile(path) || !sum.equals(sha256(path))) {
                return file + " does not match its checksum";
            }
        }
        try (Stream<Path> files = Files.list(here.resolve("kit/lib"))) {
            for (Path file : files.toList()) {
                String name = here.relativize(file).toString().replace('\\', '/');
                if (!listed.contains(name)) {
                    return name + " is not in " + SUMS;
                }
            }
        }
        return null;
    }

    static String sha256(Path file) throws IOException {
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            try (InputStream in = Files.newInputStream(file)) {
                byte[] buffer = new byte[1 << 16];
                for (int n; (n = in.read(buffer)) > 0; ) {
                    digest.update(buffer, 0, n);
                }
            }
            return HexFormat.of().formatHex(digest.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Why the kit cannot build the hand-in, or null: another build tool, no pom, or a dependency (of the project
     * or of a profile; the imported BOMs of dependencyManagement aside) that is not in {@code allowed}.
     */
    static String refusal(Path handIn, Set<String> allowed) {
        for (String other : List.of("build.gradle", "build.gradle.kts", "settings.gradle", "build.xml")) {
            if (Files.exists(handIn.resolve(other))) {
                return "the hand-in is built with " + other;
            }
        }
        if (!Files.isRegularFile(handIn.resolve("pom.xml"))) {
            return "the hand-in has no pom.xml";
        }
        Set<String> added = new TreeSet<>();
        try {
            DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
            factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            NodeList dependencies = factory.newDocumentBuilder().parse(handIn.resolve("pom.xml").toFile())
                    .getElementsByTagName("dependency");
            for (int i = 0; i < dependencies.getLength(); i++) {
                Element dependency = (Element) dependencies.item(i);
                if (under(dependency, "dependencyManagement") || under(dependency, "plugin")) {
                    continue;
                }
                String coordinates = child(dependency, "groupId") + ":" + child(dependency, "artifactId");
                if (!allowed.contains(coordinates)) {
                    added.add(coordinates);
                }
            }
        } catch (Exception e) {
            return "its pom.xml cannot be read (" + e.getMessage() + ")";
        }
        return added.isEmpty() ? null : "its pom.xml adds " + String.join(", ", added) + ", which the kit lacks";
    }

    private static boolean under(Node node, String name) {
        for (Node up = node.getParentNode(); up != null; up = up.getParentNode()) {
            if (name.equals(up.getNodeName())) {
                return true;
            }
        }
        return false;
    }

    private static String child(Element element, String name) {
        for (Node n = element.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (name.equals(n.getNodeName())) {
                return n.getTextContent().strip();
            }
        }
        return "";
    }

    /** The fence: true when every frozen file is in the hand-in unchanged; prints what broke it. */
    static boolean fence(Path frozen, Path handIn, PrintStream out) throws IOException {
        boolean kept = true;
        for (String file : files(frozen.resolve("src/test"))) {
            Path theirs = handIn.resolve("src/test").resolve(file);
            if (!Files.isRegularFile(theirs)) {
                out.println("FROZEN TEST DELETED: src/test/" + file + " (Honesty 0)");
                kept = false;
            } else if (Files.mismatch(frozen.resolve("src/test").resolve(file), theirs) >= 0) {
                out.println("FROZEN TEST CHANGED: src/test/" + file + " (Honesty 0)");
                kept = false;
            }
        }
        if (kept) {
            out.println("frozen tests untouched");
        }
        for (String file : files(handIn.resolve("src/test"))) {
            if (!Files.exists(frozen.resolve("src/test").resolve(file))) {
                out.println("added by the candidate (allowed; read it: does it test the asked behaviour?): src/test/" + file);
            }
        }
        if (Files.mismatch(frozen.resolve("pom.xml"), handIn.resolve("pom.xml")) < 0) {
            out.println("pom untouched");
        } else {
            out.println("POM CHANGED: Contract 0");
            kept = false;
        }
        return kept;
    }

    private static boolean compile(Path sources, List<Path> classpath, Path classes, PrintStream out) throws IOException {
        Files.createDirectories(classes);
        List<String> files = files(sources).stream().filter(f -> f.endsWith(".java"))
                .map(f -> sources.resolve(f).toString()).toList();
        if (files.isEmpty()) {
            return true;
        }
        List<String> options = new ArrayList<>(List.of("--release", "17", "-encoding", "UTF-8", "-proc:none",
                "-nowarn", "-d", classes.toString(), "-cp", path(classpath)));
        options.addAll(files);
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        if (javac == null) {
            throw new IllegalStateException("no javac: run this with a JDK, not a JRE");
        }
        int code = javac.run(null, out, out, options.toArray(String[]::new));
        if (code != 0) {
            out.println("does not compile: " + sources.getParent().getFileName() + "/" + sources.getFileName());
        }
        return code == 0;
    }

    private static boolean test(Path here, Path tree, Path tests, List<Path> classpath, Path reports, PrintStream out)
            throws IOException {
        List<String> command = new ArrayList<>(List.of(java(), "-Djdk.net.hosts.file=" + here.resolve("kit/jdk-hosts"),
                "-jar", here.resolve("kit/lib").resolve(launcher(here)).toString(), "execute", "--disable-banner",
                "--details=tree", "--disable-ansi-colors", "--class-path", path(classpath), "--scan-class-path", tests.toString()));
        if (reports != null) {
            command.addAll(List.of("--reports-dir", reports.toString()));
        }
        return exec(command, tree, out, 20) == 0;
    }

    private static String launcher(Path here) throws IOException {
        try (Stream<Path> files = Files.list(here.resolve("kit/lib"))) {
            return files.map(f -> f.getFileName().toString()).filter(f -> f.startsWith("junit-platform-console-standalone"))
                    .findFirst().orElseThrow(() -> new IllegalStateException("no console launcher in kit/lib"));
        }
    }

    private static String grade(Path here, Path handIn, Properties kit, List<Path> classpath, String only,
            PrintStream out) throws IOException {
        String main = mainClass(handIn);
        if (main == null) {
            main = kit.getProperty("main");
        }
        out.println("== grade --handout . (in " + here + "): the worker as the hand-in's " + main
                + "; every FAIL row is a question for the debrief, not a point");
        List<String> command = new ArrayList<>(List.of(java(), "-jar", here.resolve(kit.getProperty("grader")).toString(),
                "grade", "--handout", "."));
        if (only != null) {
            command.addAll(List.of("--only", only));
        }
        command.addAll(List.of("--", java(), "-cp", path(classpath), main));
        int code = exec(command, here, out, 10);
        return "exit " + code;
    }

    /** The hand-in's own main class, as its pom names it for its runnable jar; null when it names none. */
    private static String mainClass(Path handIn) throws IOException {
        String pom = Files.readString(handIn.resolve("pom.xml"), StandardCharsets.UTF_8);
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("<mainClass>\\s*([\\w.$]+)\\s*</mainClass>").matcher(pom);
        return m.find() ? m.group(1) : null;
    }

    private static int exec(List<String> command, Path dir, PrintStream out, int minutes) throws IOException {
        Process process = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
        Thread copy = new Thread(() -> {
            try (InputStream in = process.getInputStream()) {
                in.transferTo(out);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        copy.start();
        try {
            if (!process.waitFor(minutes, TimeUnit.MINUTES)) {
                process.descendants().forEach(ProcessHandle::destroyForcibly);
                process.destroyForcibly();
                out.println("stopped after " + minutes + " minutes");
                return 124;
            }
            copy.join();
            return process.exitValue();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
            return 130;
        }
    }

    private static String java() {
        return ProcessHandle.current().info().command().orElse("java");
    }

    private static List<Path> jars(Path here, String list) {
        List<Path> jars = new ArrayList<>();
        if (list != null && !list.isBlank()) {
            for (String jar : list.split(",")) {
                jars.add(here.resolve("kit/lib").resolve(jar.strip()));
            }
        }
        return jars;
    }

    @SafeVarargs
    private static List<Path> concat(List<Path>... lists) {
        List<Path> all = new ArrayList<>();
        for (List<Path> list : lists) {
            all.addAll(list);
        }
        return all;
    }

    private static String path(List<Path> entries) {
        return String.join(java.io.File.pathSeparator, entries.stream().map(Path::toString).toList());
    }

    /** The files under {@code dir}, relative, with '/', sorted; none when it does not exist. */
    private static List<String> files(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> walk = Files.walk(dir)) {
            return walk.filter(Files::isRegularFile).map(p -> dir.relativize(p).toString().replace('\\', '/')).sorted()
                    .toList();
        }
    }

    private static void copy(Path from, Path to) throws IOException {
        for (String file : files(from)) {
            Path target = to.resolve(file);
            Files.createDirectories(target.getParent());
            Files.copy(from.resolve(file), target, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        }
    }

    private static void delete(Path dir) {
        try (Stream<Path> walk = Files.walk(dir)) {
            walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // a temporary folder left behind is harmless
        }
    }
}
