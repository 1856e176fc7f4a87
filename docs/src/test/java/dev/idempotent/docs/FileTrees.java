package dev.idempotent.docs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeSet;
import java.util.function.BiPredicate;
import java.util.stream.Stream;

/**
 * Byte-for-byte comparison of files and directory trees, for the checks that keep a packet and its
 * answer-key module from drifting apart. Stateless.
 */
public final class FileTrees {

    private FileTrees() {
    }

    /**
     * Every difference between the regular files under {@code expected} and under {@code actual}: a file
     * only on one side, or a file whose bytes differ. Paths in the messages are relative. Empty means equal.
     */
    public static List<String> differences(Path expected, Path actual) {
        return differences(expected, actual, FileTrees::sameBytes);
    }

    /**
     * Every difference between the regular files under {@code expected} and under {@code actual}, where two files
     * on both sides count as equal when {@code same} says so. Paths in the messages are relative.
     */
    static List<String> differences(Path expected, Path actual, BiPredicate<Path, Path> same) {
        TreeSet<Path> all = new TreeSet<>();
        all.addAll(relativeFiles(expected));
        all.addAll(relativeFiles(actual));
        List<String> problems = new ArrayList<>();
        for (Path relative : all) {
            Path left = expected.resolve(relative);
            Path right = actual.resolve(relative);
            if (!Files.isRegularFile(left)) {
                problems.add(relative + ": only in " + actual);
            } else if (!Files.isRegularFile(right)) {
                problems.add(relative + ": only in " + expected);
            } else if (!same.test(left, right)) {
                problems.add(relative + ": differs between " + expected + " and " + actual);
            }
        }
        return problems;
    }

    /** Whether two files hold exactly the same bytes. */
    public static boolean sameBytes(Path a, Path b) {
        try {
            return Arrays.equals(Files.readAllBytes(a), Files.readAllBytes(b));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Copies the tree under {@code from} into {@code to}, which may exist. */
    public static void copy(Path from, Path to) {
        try (Stream<Path> paths = Files.walk(from)) {
            for (Path source : (Iterable<Path>) paths::iterator) {
                Path target = to.resolve(from.relativize(source).toString());
                if (Files.isDirectory(source)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(source, target);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Deletes a tree, deepest first; a missing tree is fine. */
    public static void delete(Path root) {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path path : (Iterable<Path>) paths.sorted((a, b) -> b.getNameCount() - a.getNameCount())::iterator) {
                Files.deleteIfExists(path);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static List<Path> relativeFiles(Path root) {
        if (!Files.isDirectory(root)) {
            return List.of();
        }
        try (Stream<Path> paths = Files.walk(root)) {
            return paths.filter(Files::isRegularFile).map(root::relativize).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
