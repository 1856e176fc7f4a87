package dev.idempotent.docs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Compares Java sources by their code alone, so a starter's comments can say less than its module copy's
 * (nothing about where it came from) while every token of code still has to match. Stateless.
 *
 * <p>What is ignored: {@code //} and {@code /* *}{@code /} comments (Javadoc included), trailing whitespace
 * and blank lines. String, character and text-block literals are kept exactly, so {@code "http://x"} is
 * code, not a comment. Everything else, indentation included, must be equal.
 */
public final class JavaSource {

    private JavaSource() {
    }

    /** The source with comments, trailing whitespace and blank lines removed. */
    public static String code(String source) {
        StringBuilder out = new StringBuilder(source.length());
        int i = 0;
        int n = source.length();
        while (i < n) {
            char c = source.charAt(i);
            char next = i + 1 < n ? source.charAt(i + 1) : '\0';
            if (c == '/' && next == '/') {
                while (i < n && source.charAt(i) != '\n') {
                    i++;
                }
            } else if (c == '/' && next == '*') {
                int end = source.indexOf("*/", i + 2);
                i = end < 0 ? n : end + 2;
            } else if (source.startsWith("\"\"\"", i)) {
                int end = source.indexOf("\"\"\"", i + 3);
                int stop = end < 0 ? n : end + 3;
                out.append(source, i, stop);
                i = stop;
            } else if (c == '"' || c == '\'') {
                int j = i + 1;
                while (j < n && source.charAt(j) != c && source.charAt(j) != '\n') {
                    j += source.charAt(j) == '\\' ? 2 : 1;
                }
                int stop = Math.min(n, j + 1);
                out.append(source, i, stop);
                i = stop;
            } else {
                out.append(c);
                i++;
            }
        }
        return out.toString().lines()
                .map(JavaSource::stripTrailing)
                .filter(line -> !line.isEmpty())
                .collect(Collectors.joining("\n", "", "\n"));
    }

    /** The code of one file (see {@link #code(String)}). */
    public static String code(Path file) {
        try {
            return code(Files.readString(file, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Whether two Java files hold the same code, comments aside. */
    public static boolean sameCode(Path a, Path b) {
        return code(a).equals(code(b));
    }

    /**
     * Like {@link FileTrees#differences(Path, Path)}, but {@code .java} files are compared by their code
     * alone; any other file must still match byte for byte. Empty means equal.
     */
    public static List<String> codeDifferences(Path expected, Path actual) {
        return FileTrees.differences(expected, actual, (left, right) ->
                left.toString().endsWith(".java") ? sameCode(left, right) : FileTrees.sameBytes(left, right));
    }

    private static String stripTrailing(String line) {
        int end = line.length();
        while (end > 0 && Character.isWhitespace(line.charAt(end - 1))) {
            end--;
        }
        return line.substring(0, end);
    }
}
