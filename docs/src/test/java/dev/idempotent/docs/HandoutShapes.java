package dev.idempotent.docs;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The shape rule for handouts (issue 46): no handout Java file of {@value #MIN_TOKENS} or more tokens has the
 * same token sequence as a Java file of this repository once every identifier, string, character and number is
 * masked (keywords, operators and punctuation stay; comments and whitespace go). The packets' starters are
 * repository files, so a handout laid out exactly as its template is found.
 */
final class HandoutShapes {

    static final int MIN_TOKENS = 40;

    private static final Set<String> KEYWORDS = Set.of("abstract", "assert", "boolean", "break", "byte", "case",
            "catch", "char", "class", "const", "continue", "default", "do", "double", "else", "enum", "extends",
            "final", "finally", "float", "for", "goto", "if", "implements", "import", "instanceof", "int",
            "interface", "long", "native", "new", "package", "private", "protected", "public", "return", "short",
            "static", "strictfp", "super", "switch", "synchronized", "this", "throw", "throws", "transient", "try",
            "void", "volatile", "while", "var", "record", "yield", "sealed", "permits", "non-sealed", "true", "false",
            "null");

    private final Map<String, String> byShape;

    private HandoutShapes(Map<String, String> byShape) {
        this.byShape = byShape;
    }

    /** Every tracked Java file of the repository under {@code root}, by its masked token sequence. */
    static HandoutShapes of(Path root) {
        Map<String, String> byShape = new HashMap<>();
        for (Path file : RepositoryText.trackedFiles(root)) {
            if (!file.toString().endsWith(".java")) {
                continue;
            }
            try {
                String text = Files.readString(file, StandardCharsets.UTF_8);
                byShape.putIfAbsent(shape(text), root.relativize(file).toString().replace('\\', '/'));
            } catch (IOException | RuntimeException e) {
                // not text: not a shape anyone can search
            }
        }
        return new HandoutShapes(byShape);
    }

    /** The repository file whose shape a Java file of {@value #MIN_TOKENS}+ tokens has, if any. */
    Optional<String> whereIs(String javaText) {
        List<String> tokens = tokens(javaText);
        if (tokens.size() < MIN_TOKENS) {
            return Optional.empty();
        }
        return Optional.ofNullable(byShape.get(String.join(" ", tokens)));
    }

    /** Each handout Java file whose shape is a repository file's, as "path (repository file)". */
    List<String> findings(Map<String, String> files) {
        List<String> out = new ArrayList<>();
        files.forEach((path, text) -> {
            if (path.endsWith(".java")) {
                whereIs(text).ifPresent(where -> out.add(path + " (" + where + ")"));
            }
        });
        return out;
    }

    static String shape(String javaText) {
        return String.join(" ", tokens(javaText));
    }

    /** The masked tokens: ID, STR, CHR, NUM, keywords and single operator or punctuation characters. */
    static List<String> tokens(String text) {
        List<String> out = new ArrayList<>();
        int i = 0;
        int n = text.length();
        while (i < n) {
            char c = text.charAt(i);
            if (Character.isWhitespace(c)) {
                i++;
            } else if (text.startsWith("//", i)) {
                int end = text.indexOf('\n', i);
                i = end < 0 ? n : end;
            } else if (text.startsWith("/*", i)) {
                int end = text.indexOf("*/", i + 2);
                i = end < 0 ? n : end + 2;
            } else if (text.startsWith("\"\"\"", i)) {
                int end = text.indexOf("\"\"\"", i + 3);
                i = end < 0 ? n : end + 3;
                out.add("STR");
            } else if (c == '"' || c == '\'') {
                int j = i + 1;
                while (j < n && text.charAt(j) != c) {
                    j += text.charAt(j) == '\\' ? 2 : 1;
                }
                i = Math.min(n, j + 1);
                out.add(c == '"' ? "STR" : "CHR");
            } else if (Character.isJavaIdentifierStart(c)) {
                int j = i + 1;
                while (j < n && Character.isJavaIdentifierPart(text.charAt(j))) {
                    j++;
                }
                String word = text.substring(i, j);
                out.add(KEYWORDS.contains(word) ? word : "ID");
                i = j;
            } else if (Character.isDigit(c)) {
                int j = i + 1;
                while (j < n && (Character.isLetterOrDigit(text.charAt(j)) || text.charAt(j) == '_'
                        || text.charAt(j) == '.' && j + 1 < n && Character.isDigit(text.charAt(j + 1)))) {
                    j++;
                }
                out.add("NUM");
                i = j;
            } else {
                out.add(String.valueOf(c));
                i++;
            }
        }
        return out;
    }
}
