package dev.idempotent.docs;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a candidate could paste into a search box, read out of one handout file: the definition in
 * {@code docs/README.md} ("Handouts that cannot be searched back"), as code. It knows nothing of the generator's
 * templates or names (it shares only the word splitting and the Java lexer), so it finds whatever a handout says,
 * however the generator came to say it.
 *
 * <ul>
 *   <li>A <b>term</b> is a run of letters, digits and {@code _ . - /} (edge punctuation trimmed); in Java code,
 *       an identifier, or the whole name on a {@code package} or {@code import} line. Its <b>words</b> split at
 *       {@code _ . - /}, at a lower-to-upper change, before the last capital of a run and between letters and
 *       digits. A term is <b>searchable</b> when it has two or more words and six or more letters, and is not
 *       platform vocabulary (below). A single word ({@code quokka}, {@code Pause}) is never searchable: it
 *       matches millions of files. In prose (comments, string literals, Markdown) only a term that looks like
 *       code counts ({@code _ . /}, an inner capital, digits next to letters), except in its code spans
 *       ({@code {@code ...}}, {@code {@link ...}}, backticks), where every term counts: a hyphenated English
 *       word in a sentence is prose, and the runs judge it.</li>
 *   <li>A <b>prose run</b> is six consecutive words (runs of letters and digits, any case) of one comment, one
 *       string literal or one Markdown file. Every run is searchable, except a run inside a string literal that
 *       is made only of Java keywords and words of platform names: that is code written as a string
 *       ({@code "public static java.util.Map<...>"}), not prose.</li>
 *   <li><b>Platform vocabulary</b> is what the JDK and the starter's libraries name, not this project: every
 *       class, member and package reachable by reflection from the handout's imports, its fully qualified JDK
 *       names and {@code java.lang} (three steps through nested, field and return types), any loadable class,
 *       in XML the element and attribute names and the coordinates of declared dependencies and plugins, and
 *       the short {@link #BUILD_VOCABULARY} of file, namespace and protocol names.</li>
 * </ul>
 * Every directory and file name of a handout (without its extension) counts as a term too.
 */
final class SearchableStrings {

    static final int RUN_WORDS = 6;
    static final int MIN_LETTERS = 6;
    /** A string literal counts as a whole when it has this many words with a letter in them... */
    static final int LITERAL_WORDS = 3;
    /** ...and this many characters. */
    static final int LITERAL_CHARS = 12;

    /**
     * Names Maven, the shade plugin, logback, HTTP and Java give meaning to, which reflection cannot confirm
     * (they are not classes on this classpath). Every entry must occur in a packet's starter
     * ({@code HandoutLeakTest} checks), so the list only holds what the starters really use.
     */
    static final Set<String> BUILD_VOCABULARY = Set.of(
            "pom.xml", "logback-test", "package-info", "package-info.class", "module-info.class",
            "DskipTests",
            "maven.apache.org/POM/4.0.0", "maven.apache.org/xsd/maven-4.0.0.xsd", "www.w3.org/2001/XMLSchema-instance",
            "META-INF", "MANIFEST.MF",
            "org.apache.maven.plugins.shade.resource.ServicesResourceTransformer",
            "org.apache.maven.plugins.shade.resource.ManifestResourceTransformer",
            "content-type", "application/json", "UTF-8", "serialVersionUID");

    private static final Set<String> VOCABULARY = BUILD_VOCABULARY.stream()
            .map(name -> name.toLowerCase(Locale.ROOT)).collect(java.util.stream.Collectors.toSet());

    private static final Set<String> JAVA_KEYWORDS = Set.of("abstract", "assert", "boolean", "break", "byte", "case",
            "catch", "char", "class", "const", "continue", "default", "do", "double", "else", "enum", "extends",
            "final", "finally", "float", "for", "goto", "if", "implements", "import", "instanceof", "int",
            "interface", "long", "native", "new", "package", "private", "protected", "public", "return", "short",
            "static", "strictfp", "super", "switch", "synchronized", "this", "throw", "throws", "transient", "try",
            "void", "volatile", "while", "true", "false", "null", "var", "record");

    private static final Pattern TERM = Pattern.compile("[A-Za-z0-9_](?:[A-Za-z0-9_.\\-/]*[A-Za-z0-9_])?");
    private static final Pattern WORD = Pattern.compile("[A-Za-z0-9]+");
    private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z_$][A-Za-z0-9_$]*");
    private static final Pattern NAME_STATEMENT =
            Pattern.compile("\\b(?:package|import)\\s+(?:static\\s+)?([A-Za-z_$][\\w$.*]*)\\s*;");
    private static final Pattern MARKDOWN_CODE = Pattern.compile("```(.*?)```|`([^`\\n]*)`", Pattern.DOTALL);
    private static final Pattern JAVADOC_CODE = Pattern.compile("\\{@(?:code|link|linkplain)\\s+([^}]*)}");
    /** Matches nothing: a string literal or an XML comment has no code spans. */
    private static final Pattern NO_CODE = Pattern.compile("(?!)(.)");
    private static final Pattern CODE_LIKE = Pattern.compile("[_./]|[a-z][A-Z]|[A-Za-z][0-9]|[0-9][A-Za-z]");
    private static final Pattern QUALIFIED = Pattern.compile("\\b(?:java|javax|jdk)(?:\\.[a-z]\\w*)+\\.[A-Z]\\w*");
    private static final Pattern XML_COMMENT = Pattern.compile("<!--(.*?)-->", Pattern.DOTALL);
    private static final Pattern LOG_PATTERN = Pattern.compile("<pattern>(.*?)</pattern>", Pattern.DOTALL);
    private static final Pattern XML_NAME = Pattern.compile("</?([A-Za-z][\\w.:-]*)|\\s([A-Za-z][\\w.:-]*)=\"");
    private static final Pattern XML_COORDINATES = Pattern.compile("<(dependency|plugin)>(.*?)</\\1>", Pattern.DOTALL);
    private static final Pattern XML_COORDINATE = Pattern.compile("<(groupId|artifactId)>([^<]*)</\\1>");

    /** One searchable string: the file it is in, whether it is a term or a prose run, and its text. */
    record Found(String file, Kind kind, String text) {

        /**
         * The normalized form looked up in the repository: a term's words joined, a run's words spaced, a
         * literal's words (runs of letters and digits, lower case) spaced.
         */
        String key() {
            return switch (kind) {
                case TERM -> String.join("", PacketVariant.words(text));
                case RUN -> text;
                case LITERAL -> String.join(" ", plainWords(text));
            };
        }
    }

    /**
     * A term (looked up inside the repository's terms), a prose run (looked up among its runs), or a whole
     * string literal or log pattern (looked up as a sequence of words anywhere in one file).
     */
    enum Kind { TERM, RUN, LITERAL }

    private final Platform platform;

    private SearchableStrings(Platform platform) {
        this.platform = platform;
    }

    /** The extractor for a handout whose Java sources are {@code javaSources} (their imports set the platform). */
    static SearchableStrings forSources(Collection<String> javaSources) {
        return new SearchableStrings(Platform.of(javaSources));
    }

    /**
     * Every searchable string of a whole handout (relative path to text), in file order. The Maven wrapper's own
     * files are left out: they are the same in millions of projects, so a search for them leads nowhere.
     */
    static List<Found> ofHandout(Map<String, String> files) {
        SearchableStrings strings = forSources(files.entrySet().stream()
                .filter(e -> e.getKey().endsWith(".java")).map(Map.Entry::getValue).toList());
        List<Found> found = new ArrayList<>();
        files.forEach((path, text) -> {
            if (!isWrapper(path)) {
                found.addAll(strings.of(path, text));
            }
        });
        return found;
    }

    /** Whether {@code path} is one of the Maven wrapper's own files, in whatever folder. */
    static boolean isWrapper(String path) {
        return PacketVariant.WRAPPER.stream().anyMatch(file -> path.equals(file) || path.endsWith("/" + file));
    }

    /** Every searchable string of one file, its path included. */
    List<Found> of(String path, String text) {
        Set<Found> out = new LinkedHashSet<>();
        for (String segment : path.split("/")) {
            term(path, segment.contains(".") ? segment.substring(0, segment.lastIndexOf('.')) : segment, out);
        }
        if (path.endsWith(".java")) {
            java(path, text, out);
        } else if (path.endsWith(".xml")) {
            xml(path, text, out);
        } else {
            prose(path, text, MARKDOWN_CODE, out);
            runs(path, text, false, out);
        }
        return List.copyOf(out);
    }

    /** Whether a term counts: two or more words, six or more letters, not the platform's. */
    boolean searchable(String term) {
        List<String> words = PacketVariant.words(term);
        long letters = term.chars().filter(Character::isLetter).count();
        return words.size() >= 2 && letters >= MIN_LETTERS && !platform.names(term);
    }

    private void java(String path, String text, Set<Found> out) {
        for (JavaSource.Segment segment : JavaSource.segments(text)) {
            switch (segment.kind()) {
                case CODE -> {
                    Matcher statement = NAME_STATEMENT.matcher(segment.text());
                    StringBuilder rest = new StringBuilder();
                    while (statement.find()) {
                        term(path, statement.group(1).replaceAll("\\.\\*$", ""), out);
                        statement.appendReplacement(rest, " ");
                    }
                    statement.appendTail(rest);
                    Matcher id = IDENTIFIER.matcher(rest);
                    while (id.find()) {
                        term(path, id.group(), out);
                    }
                }
                case LITERAL -> {
                    String content = segment.text().replaceAll("^(\"\"\"|[\"'])|(\"\"\"|[\"'])$", "");
                    prose(path, content, NO_CODE, out);
                    runs(path, content, true, out);
                    if (wholeLiteralCounts(content)) {
                        out.add(new Found(path, Kind.LITERAL, content));
                    }
                }
                case COMMENT -> {
                    prose(path, segment.text(), JAVADOC_CODE, out);
                    runs(path, segment.text(), false, out);
                }
            }
        }
    }

    /**
     * Whether a string literal is searched as a whole: three or more words with a letter, twelve or more
     * characters, and not code written as a string (every token a Java keyword or a platform name, as a public
     * signature printed by {@code Method.toString()} is).
     */
    boolean wholeLiteralCounts(String content) {
        long words = plainWords(content).stream().filter(w -> w.chars().anyMatch(Character::isLetter)).count();
        if (words < LITERAL_WORDS || content.length() < LITERAL_CHARS) {
            return false;
        }
        List<String> tokens = List.of(content.strip().split("[\\s,<>()\\[\\]]+"));
        return !tokens.stream().filter(t -> !t.isEmpty())
                .allMatch(t -> JAVA_KEYWORDS.contains(t.toLowerCase(Locale.ROOT)) || platform.names(t));
    }

    /** The words of a literal or a run: runs of letters and digits, lower case. */
    static List<String> plainWords(String text) {
        List<String> words = new ArrayList<>();
        Matcher m = WORD.matcher(text);
        while (m.find()) {
            words.add(m.group().toLowerCase(Locale.ROOT));
        }
        return words;
    }

    private void xml(String path, String text, Set<Found> out) {
        Matcher pattern = LOG_PATTERN.matcher(text);
        while (pattern.find()) {
            // A log layout is as distinctive as a sentence: it is searched whole, whatever its length.
            out.add(new Found(path, Kind.LITERAL, pattern.group(1).strip()));
        }
        Matcher comment = XML_COMMENT.matcher(text);
        while (comment.find()) {
            prose(path, comment.group(1), NO_CODE, out);
            runs(path, comment.group(1), false, out);
        }
        String rest = XML_COMMENT.matcher(text).replaceAll(" ");
        Set<String> schema = new HashSet<>();
        Matcher name = XML_NAME.matcher(rest);
        while (name.find()) {
            String tag = name.group(1) != null ? name.group(1) : name.group(2);
            schema.add(tag);
            schema.addAll(List.of(tag.split(":")));
        }
        Matcher block = XML_COORDINATES.matcher(rest);
        while (block.find()) {
            Matcher coordinate = XML_COORDINATE.matcher(block.group(2));
            while (coordinate.find()) {
                schema.add(coordinate.group(2).strip());
            }
        }
        terms(path, rest, schema, out);
    }

    private void terms(String path, String text, Set<String> exempt, Set<Found> out) {
        Matcher m = TERM.matcher(text);
        while (m.find()) {
            if (!exempt.contains(m.group())) {
                term(path, m.group(), out);
            }
        }
    }

    /**
     * Prose with code in it: every term of the code spans counts; in the prose around them only a term that
     * looks like code does ({@code _ . /}, an inner capital, digits next to letters), since a hyphenated
     * English word ({@code thread-safe}) is prose and the six-word runs judge it.
     */
    private void prose(String path, String text, Pattern code, Set<Found> out) {
        Matcher span = code.matcher(text);
        StringBuilder rest = new StringBuilder();
        while (span.find()) {
            String inside = span.group(1) != null ? span.group(1) : span.group(span.groupCount());
            terms(path, inside, Set.of(), out);
            span.appendReplacement(rest, " ");
        }
        span.appendTail(rest);
        Matcher m = TERM.matcher(rest);
        while (m.find()) {
            if (CODE_LIKE.matcher(m.group()).find()) {
                term(path, m.group(), out);
            }
        }
    }

    private void term(String path, String term, Set<Found> out) {
        String trimmed = term.replaceAll("^[.\\-/]+|[.\\-/]+$", "");
        if (searchable(trimmed)) {
            out.add(new Found(path, Kind.TERM, trimmed));
        }
    }

    private void runs(String path, String text, boolean literal, Set<Found> out) {
        List<String> words = new ArrayList<>();
        Matcher m = WORD.matcher(text);
        while (m.find()) {
            words.add(m.group().toLowerCase(Locale.ROOT));
        }
        for (int i = 0; i + RUN_WORDS <= words.size(); i++) {
            List<String> run = words.subList(i, i + RUN_WORDS);
            if (literal && run.stream().allMatch(w -> JAVA_KEYWORDS.contains(w) || platform.hasWord(w))) {
                continue;
            }
            out.add(new Found(path, Kind.RUN, String.join(" ", run)));
        }
    }

    /**
     * The names the JDK and the starter's libraries define, found by reflection from a handout's imports and
     * {@code java.lang}: classes (simple and qualified), packages and their prefixes, public methods and fields
     * of every class reachable in three steps through nested, field and return types.
     */
    static final class Platform {
        private static final int DEPTH = 3;

        private static final Map<Set<String>, Platform> CACHE = new java.util.concurrent.ConcurrentHashMap<>();

        private final Set<String> names = new HashSet<>();
        private final Set<String> words = new HashSet<>();

        /** The platform of sources with these imports; cached, since every handout of a packet imports the same. */
        static Platform of(Collection<String> javaSources) {
            Set<String> statements = new java.util.TreeSet<>();
            for (String source : javaSources) {
                Matcher m = NAME_STATEMENT.matcher(source);
                while (m.find()) {
                    if (m.group().startsWith("import")) {
                        statements.add(m.group(1));
                    }
                }
            }
            return CACHE.computeIfAbsent(statements, key -> build(javaSources));
        }

        private static Platform build(Collection<String> javaSources) {
            Platform platform = new Platform();
            Deque<Class<?>> queue = new ArrayDeque<>();
            Deque<Integer> depths = new ArrayDeque<>();
            for (String source : javaSources) {
                for (JavaSource.Segment segment : JavaSource.segments(source)) {
                    if (segment.kind() != JavaSource.Kind.CODE) {
                        continue;
                    }
                    Matcher statement = NAME_STATEMENT.matcher(segment.text());
                    while (statement.find()) {
                        if (!statement.group().startsWith("import")) {
                            continue;
                        }
                        String name = statement.group(1).replaceAll("\\.\\*$", "");
                        platform.addQualified(name);
                        Class<?> type = load(name);
                        if (type == null && name.contains(".")) {
                            type = load(name.substring(0, name.lastIndexOf('.')));
                            platform.add(name.substring(name.lastIndexOf('.') + 1));
                        }
                        if (type != null) {
                            queue.add(type);
                            depths.add(0);
                        }
                    }
                    Matcher qualified = QUALIFIED.matcher(segment.text());
                    while (qualified.find()) {
                        Class<?> type = load(qualified.group());
                        if (type != null) {
                            platform.addQualified(qualified.group());
                            queue.add(type);
                            depths.add(0);
                        }
                    }
                    Matcher id = IDENTIFIER.matcher(segment.text());
                    while (id.find()) {
                        Class<?> lang = load("java.lang." + id.group());
                        if (lang != null) {
                            queue.add(lang);
                            depths.add(0);
                        }
                    }
                }
            }
            Set<Class<?>> seen = new HashSet<>();
            while (!queue.isEmpty()) {
                Class<?> type = queue.poll();
                int depth = depths.poll();
                while (type.isArray()) {
                    type = type.getComponentType();
                }
                if (type.isPrimitive() || !seen.add(type)) {
                    continue;
                }
                try {
                    platform.add(type.getSimpleName());
                    platform.addQualified(type.getName().replace('$', '.'));
                    for (Method method : type.getMethods()) {
                        platform.add(method.getName());
                        if (depth < DEPTH) {
                            queue.add(method.getReturnType());
                            depths.add(depth + 1);
                        }
                    }
                    for (Field field : type.getFields()) {
                        platform.add(field.getName());
                        if (depth < DEPTH) {
                            queue.add(field.getType());
                            depths.add(depth + 1);
                        }
                    }
                    for (Class<?> nested : type.getClasses()) {
                        queue.add(nested);
                        depths.add(depth);
                    }
                } catch (LinkageError unloadable) {
                    // A shaded library's optional part that is not on this classpath names nothing a starter uses.
                }
            }
            BUILD_VOCABULARY.forEach(platform::add);
            return platform;
        }

        /** Whether {@code term} is the platform's: a name, or a dotted chain of platform names and packages. */
        boolean names(String term) {
            if (names.contains(term) || VOCABULARY.contains(term.toLowerCase(Locale.ROOT))
                    || load(term) != null || load("java.lang." + term) != null) {
                return true;
            }
            if (term.contains("/")) {
                return List.of(term.split("/")).stream().allMatch(part -> part.isEmpty() || names(part));
            }
            return term.contains(".") && !term.contains("-")
                    && List.of(term.split("\\.")).stream().allMatch(names::contains);
        }

        /** Whether {@code word} (lower case) is a word of some platform name. */
        boolean hasWord(String word) {
            return words.contains(word);
        }

        private void add(String name) {
            if (!name.isEmpty()) {
                names.add(name);
                words.addAll(PacketVariant.words(name));
            }
        }

        private void addQualified(String name) {
            add(name);
            String[] parts = name.split("\\.");
            StringBuilder prefix = new StringBuilder();
            for (String part : parts) {
                add(part);
                prefix.append(prefix.length() == 0 ? "" : ".").append(part);
                add(prefix.toString());
            }
        }

        private static Class<?> load(String name) {
            // This project's own classes are on the test classpath too; they are never the platform.
            if (!name.matches("[A-Za-z_$][\\w$]*(\\.[A-Za-z_$][\\w$]*)*") || name.startsWith("dev.idempotent")) {
                return null;
            }
            try {
                return Class.forName(name, false, Platform.class.getClassLoader());
            } catch (ClassNotFoundException | LinkageError e) {
                int dot = name.lastIndexOf('.');
                if (dot > 0) {
                    try {
                        return Class.forName(name.substring(0, dot) + "$" + name.substring(dot + 1), false,
                                Platform.class.getClassLoader());
                    } catch (ClassNotFoundException | LinkageError again) {
                        return null;
                    }
                }
                return null;
            }
        }
    }
}
