package dev.idempotent.docs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Reads Java sources as code, comments and literals, so a starter's comments can say less than its module
 * copy's (nothing about where it came from) while every token of code still has to match, and so the handout
 * check can tell prose from identifiers. Stateless.
 *
 * <p>{@link #code(String)} ignores {@code //} and {@code /* *}{@code /} comments (Javadoc included), trailing
 * whitespace and blank lines. String, character and text-block literals are kept exactly, so
 * {@code "http://x"} is code, not a comment. Everything else, indentation included, must be equal.
 */
public final class JavaSource {

    /** What a piece of source is. */
    public enum Kind { CODE, COMMENT, LITERAL }

    /** One piece of a source, as written (a literal keeps its quotes, a comment its markers). */
    public record Segment(Kind kind, String text) {
    }

    private JavaSource() {
    }

    /**
     * The source cut into code, comments and literals, in order; joining the texts gives the source back. The
     * lexer is the handout generator's, which must stay a single file, so there is one Java lexer in the project.
     */
    public static List<Segment> segments(String source) {
        return PacketVariant.Transform.lex(source).stream()
                .map(piece -> new Segment(Kind.valueOf(piece.kind().name()), piece.text()))
                .toList();
    }

    /** The source with comments, trailing whitespace and blank lines removed. */
    public static String code(String source) {
        return segments(source).stream()
                .filter(s -> s.kind() != Kind.COMMENT)
                .map(Segment::text)
                .collect(Collectors.joining())
                .lines()
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
