package dev.idempotent.docs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A strict unified-diff applier, so a packet's {@code reference.patch} can be checked with the JDK
 * alone (no {@code patch} or {@code git} on the build machine).
 *
 * <p>Strict means no fuzz and no offset: every hunk must start at the line it names, and every context
 * and removed line must match the file byte for byte, or {@link #applyTo(Path)} throws
 * {@link PatchException} and leaves the tree as far as it got. That is the point: a patch that only
 * applies "approximately" is a packet that has drifted.
 *
 * <p>Understands what {@code diff -u} and {@code git diff} write: {@code ---}/{@code +++} headers
 * (paths taken with one leading component stripped, like {@code patch -p1}, and {@code /dev/null} for a
 * created or deleted file), {@code @@ -a,b +c,d @@} hunks, and {@code \ No newline at end of file}.
 * Anything outside a file section ({@code diff --git}, {@code index}) is skipped. Paths that are
 * absolute or climb out with {@code ..} are refused.
 *
 * <p>Immutable and thread-safe once parsed. Null arguments throw {@link NullPointerException}.
 */
public final class UnifiedDiff {

    private static final Pattern HUNK = Pattern.compile("^@@ -(\\d+)(?:,(\\d+))? \\+(\\d+)(?:,(\\d+))? @@.*$");
    private static final String DEV_NULL = "/dev/null";
    private static final String NO_NEWLINE = "\\ No newline at end of file";

    /** One file's section of the diff. A {@code null} path means the file is created or deleted. */
    public record FilePatch(String oldPath, String newPath, List<Hunk> hunks) {
        public FilePatch {
            hunks = List.copyOf(hunks);
        }
    }

    /**
     * One hunk. {@code lines} keep their one-character prefix (' ', '-', '+'); the two flags say
     * whether the old or new side's last line in this hunk lacks a trailing newline.
     */
    public record Hunk(int oldStart, int oldCount, int newStart, int newCount, List<String> lines,
            boolean oldMissingNewline, boolean newMissingNewline) {
        public Hunk {
            lines = List.copyOf(lines);
        }
    }

    /** Thrown when a diff cannot be parsed or does not match the tree it is applied to. */
    public static final class PatchException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        PatchException(String message) {
            super(message);
        }
    }

    private final List<FilePatch> files;

    private UnifiedDiff(List<FilePatch> files) {
        this.files = List.copyOf(files);
    }

    /** The file sections, in the order the diff lists them. */
    public List<FilePatch> files() {
        return files;
    }

    /** Reads and parses a UTF-8 diff file. */
    public static UnifiedDiff read(Path patchFile) {
        try {
            return parse(Files.readString(patchFile, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Parses diff text; throws {@link PatchException} when it is malformed or names no file. */
    public static UnifiedDiff parse(String text) {
        List<String> lines = splitLines(text).lines();
        List<FilePatch> files = new ArrayList<>();
        int i = 0;
        while (i < lines.size()) {
            if (!lines.get(i).startsWith("--- ")) {
                i++;
                continue;
            }
            if (i + 1 >= lines.size() || !lines.get(i + 1).startsWith("+++ ")) {
                throw new PatchException("line " + (i + 1) + ": '---' header without '+++'");
            }
            String oldPath = headerPath(lines.get(i));
            String newPath = headerPath(lines.get(i + 1));
            i += 2;
            List<Hunk> hunks = new ArrayList<>();
            while (i < lines.size() && lines.get(i).startsWith("@@")) {
                Matcher m = HUNK.matcher(lines.get(i));
                if (!m.matches()) {
                    throw new PatchException("line " + (i + 1) + ": malformed hunk header");
                }
                int oldStart = Integer.parseInt(m.group(1));
                int oldCount = m.group(2) == null ? 1 : Integer.parseInt(m.group(2));
                int newStart = Integer.parseInt(m.group(3));
                int newCount = m.group(4) == null ? 1 : Integer.parseInt(m.group(4));
                i++;
                List<String> body = new ArrayList<>();
                int oldSeen = 0;
                int newSeen = 0;
                boolean oldMissing = false;
                boolean newMissing = false;
                while (oldSeen < oldCount || newSeen < newCount) {
                    if (i >= lines.size()) {
                        throw new PatchException("hunk at old line " + oldStart + " ends early");
                    }
                    String line = lines.get(i);
                    char kind = line.isEmpty() ? ' ' : line.charAt(0);
                    // Some tools drop the space of an empty context line; treat "" as " ".
                    String normalized = line.isEmpty() ? " " : line;
                    switch (kind) {
                        case ' ' -> { oldSeen++; newSeen++; }
                        case '-' -> oldSeen++;
                        case '+' -> newSeen++;
                        default -> throw new PatchException("line " + (i + 1) + ": unexpected '" + kind + "' in hunk");
                    }
                    body.add(normalized);
                    i++;
                    if (i < lines.size() && lines.get(i).equals(NO_NEWLINE)) {
                        oldMissing |= kind != '+';
                        newMissing |= kind != '-';
                        i++;
                    }
                }
                if (oldSeen != oldCount || newSeen != newCount) {
                    throw new PatchException("hunk at old line " + oldStart + " does not match its counts");
                }
                hunks.add(new Hunk(oldStart, oldCount, newStart, newCount, body, oldMissing, newMissing));
            }
            if (hunks.isEmpty()) {
                throw new PatchException("file section for " + (newPath != null ? newPath : oldPath) + " has no hunk");
            }
            files.add(new FilePatch(oldPath, newPath, hunks));
        }
        if (files.isEmpty()) {
            throw new PatchException("the diff names no file");
        }
        return new UnifiedDiff(files);
    }

    /**
     * Applies every file section under {@code root}: modifies, creates or deletes files.
     *
     * @throws PatchException when a hunk does not match the file exactly, a file to create exists, or a
     *     file to modify is missing
     */
    public void applyTo(Path root) {
        for (FilePatch file : files) {
            try {
                applyFile(root, file);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    private static void applyFile(Path root, FilePatch file) throws IOException {
        String name = file.newPath() != null ? file.newPath() : file.oldPath();
        Path target = resolveInside(root, name);
        Content old;
        if (file.oldPath() == null) {
            if (Files.exists(target)) {
                throw new PatchException(name + ": the diff creates it, but it exists");
            }
            old = new Content(List.of(), true);
        } else {
            if (!Files.isRegularFile(target)) {
                throw new PatchException(name + ": the diff modifies it, but it is missing");
            }
            old = splitLines(Files.readString(target, StandardCharsets.UTF_8));
        }

        List<String> result = new ArrayList<>();
        int cursor = 0;
        boolean newEndsWithNewline = old.endsWithNewline();
        for (Hunk hunk : file.hunks()) {
            // A hunk that only adds lines names the line it follows; any other names its first line.
            int start = hunk.oldCount() == 0 ? hunk.oldStart() : hunk.oldStart() - 1;
            if (start < cursor || start + hunk.oldCount() > old.lines().size()) {
                throw new PatchException(name + ": hunk at old line " + hunk.oldStart() + " is out of place");
            }
            result.addAll(old.lines().subList(cursor, start));
            int at = start;
            for (String line : hunk.lines()) {
                char kind = line.charAt(0);
                String text = line.substring(1);
                if (kind != '+') {
                    if (!old.lines().get(at).equals(text)) {
                        throw new PatchException(name + ": line " + (at + 1) + " does not match the diff's "
                                + (kind == '-' ? "removed" : "context") + " line");
                    }
                    at++;
                }
                if (kind != '-') {
                    result.add(text);
                }
            }
            boolean touchesOldEnd = at == old.lines().size();
            if (touchesOldEnd && hunk.oldCount() > 0 && hunk.oldMissingNewline() == old.endsWithNewline()) {
                throw new PatchException(name + ": the diff disagrees about the newline at the end of the file");
            }
            if (touchesOldEnd) {
                newEndsWithNewline = !hunk.newMissingNewline();
            }
            cursor = at;
        }
        result.addAll(old.lines().subList(cursor, old.lines().size()));

        if (file.newPath() == null) {
            if (!result.isEmpty()) {
                throw new PatchException(name + ": the diff deletes it, but lines would remain");
            }
            Files.delete(target);
            return;
        }
        String text = String.join("\n", result) + (newEndsWithNewline && !result.isEmpty() ? "\n" : "");
        Files.createDirectories(target.getParent());
        Files.writeString(target, text, StandardCharsets.UTF_8);
    }

    private static String headerPath(String header) {
        String path = header.substring(4);
        int tab = path.indexOf('\t');
        if (tab >= 0) {
            path = path.substring(0, tab);
        }
        path = path.strip();
        if (path.equals(DEV_NULL)) {
            return null;
        }
        int slash = path.indexOf('/');
        if (slash < 0) {
            throw new PatchException("header path '" + path + "' has no leading component to strip");
        }
        return path.substring(slash + 1);
    }

    private static Path resolveInside(Path root, String relative) {
        Path path = Path.of(relative);
        if (path.isAbsolute() || path.normalize().startsWith("..") || relative.contains("/../")) {
            throw new PatchException("refusing to write outside the tree: " + relative);
        }
        return root.resolve(path).normalize();
    }

    private record Content(List<String> lines, boolean endsWithNewline) {
    }

    private static Content splitLines(String text) {
        if (text.isEmpty()) {
            return new Content(List.of(), true);
        }
        List<String> lines = new ArrayList<>(List.of(text.split("\n", -1)));
        boolean endsWithNewline = lines.get(lines.size() - 1).isEmpty();
        if (endsWithNewline) {
            lines.remove(lines.size() - 1);
        }
        return new Content(lines, endsWithNewline);
    }
}
