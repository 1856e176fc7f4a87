package dev.idempotent.docs;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds the relative links of Markdown pages that point nowhere: a path that is no tracked file or directory, or
 * an anchor that is no heading of the Markdown page it names. Links with a scheme ({@code https:}, {@code mailto:})
 * or to another host are not followed.
 */
final class LinkChecker {

    private static final Pattern INLINE = Pattern.compile(
            "!?\\[(?:[^\\[\\]]|\\[[^\\[\\]]*\\])*\\]\\(\\s*(<[^>\\n]*>|[^\\s()]+(?:\\([^\\s()]*\\)[^\\s()]*)*)"
                    + "(?:\\s+(?:\"[^\"]*\"|'[^']*'|\\([^)]*\\)))?\\s*\\)");
    private static final Pattern DEFINITION = Pattern.compile("(?m)^ {0,3}\\[[^\\]]+\\]:\\s*(<[^>\\n]*>|\\S+)");
    private static final Pattern HTML = Pattern.compile("<(?:a|img)\\s[^>]*?(?:href|src)=\"([^\"]*)\"");
    private static final Pattern SCHEME = Pattern.compile("^[A-Za-z][A-Za-z0-9+.-]*:");
    private static final Pattern LINE_ANCHOR = Pattern.compile("L\\d+(?:-L\\d+)?");

    private final Path root;
    private final Set<String> files = new HashSet<>();
    private final Set<String> directories = new HashSet<>();
    private final Map<String, Set<String>> anchorsByPage = new HashMap<>();

    /**
     * @param root    the repository root, which a link starting with {@code /} is relative to, as on GitHub
     * @param tracked the files that exist as far as a reader of the repository can see: paths relative to
     *                {@code root}, {@code /}-separated
     */
    LinkChecker(Path root, Collection<String> tracked) {
        this.root = root.toAbsolutePath().normalize();
        for (String file : tracked) {
            files.add(file);
            for (int slash = file.lastIndexOf('/'); slash > 0; slash = file.lastIndexOf('/', slash - 1)) {
                directories.add(file.substring(0, slash));
            }
        }
        directories.add("");
    }

    /** One link on a page: where it is and what it says. */
    record Link(String page, int line, String target) { }

    /** Every link of {@code page} (a tracked path), code spans and code blocks left out. */
    List<Link> links(String page) {
        String prose = Markdown.prose(read(page));
        List<Link> links = new ArrayList<>();
        for (Pattern pattern : List.of(INLINE, DEFINITION, HTML)) {
            Matcher m = pattern.matcher(prose);
            while (m.find()) {
                String target = m.group(1);
                if (target.startsWith("<") && target.endsWith(">")) {
                    target = target.substring(1, target.length() - 1);
                }
                links.add(new Link(page, lineOf(prose, m.start(1)), target));
            }
        }
        return links;
    }

    /** One line per link of {@code page} that points nowhere, naming the page, the line and why. */
    List<String> problems(String page) {
        List<String> problems = new ArrayList<>();
        for (Link link : links(page)) {
            String why = whyBroken(page, link.target());
            if (why != null) {
                problems.add(page + ":" + link.line() + ": (" + link.target() + ") " + why);
            }
        }
        return problems;
    }

    /** Why a link from {@code page} to {@code target} is broken, or null when it resolves (or is not relative). */
    String whyBroken(String page, String target) {
        if (target.isEmpty()) {
            return "is empty";
        }
        if (SCHEME.matcher(target).find() || target.startsWith("//")) {
            return null;
        }
        int hash = target.indexOf('#');
        String path = hash < 0 ? target : target.substring(0, hash);
        String anchor = hash < 0 ? null : decode(target.substring(hash + 1));
        int query = path.indexOf('?');
        if (query >= 0) {
            path = path.substring(0, query);
        }
        path = decode(path);
        String resolved;
        if (path.isEmpty()) {
            resolved = page;
        } else {
            Path base = path.startsWith("/") ? root : root.resolve(page).getParent();
            Path absolute = base.resolve(path.startsWith("/") ? path.substring(1) : path).normalize();
            if (!absolute.startsWith(root)) {
                return "leaves the repository";
            }
            resolved = root.relativize(absolute).toString().replace('\\', '/');
        }
        boolean file = files.contains(resolved);
        if (!file && !directories.contains(resolved)) {
            return "points to no tracked file or directory";
        }
        if (anchor == null || anchor.isEmpty()) {
            return null;
        }
        if (!file || !resolved.toLowerCase(java.util.Locale.ROOT).endsWith(".md")) {
            // GitHub gives a file's lines anchors; a directory's or any other file's are not checked beyond that.
            return file && !LINE_ANCHOR.matcher(anchor).matches() ? "anchors a file that has no headings" : null;
        }
        Set<String> anchors = anchorsByPage.computeIfAbsent(resolved, p -> Markdown.anchors(read(p)));
        return anchors.contains(anchor) ? null : "names #" + anchor + ", which is no heading of " + resolved;
    }

    private String read(String page) {
        try {
            return Files.readString(root.resolve(page), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static int lineOf(String text, int offset) {
        int line = 1;
        for (int i = 0; i < offset; i++) {
            if (text.charAt(i) == '\n') {
                line++;
            }
        }
        return line;
    }

    /** Percent-decoding as a browser does for a path: {@code +} stays a plus. */
    private static String decode(String s) {
        if (s.indexOf('%') < 0) {
            return s;
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        int i = 0;
        while (i < s.length()) {
            if (s.charAt(i) == '%' && i + 2 < s.length()
                    && Character.digit(s.charAt(i + 1), 16) >= 0 && Character.digit(s.charAt(i + 2), 16) >= 0) {
                bytes.write(Integer.parseInt(s.substring(i + 1, i + 3), 16));
                i += 3;
            } else {
                int end = s.offsetByCodePoints(i, 1);
                bytes.writeBytes(s.substring(i, end).getBytes(StandardCharsets.UTF_8));
                i = end;
            }
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }
}
