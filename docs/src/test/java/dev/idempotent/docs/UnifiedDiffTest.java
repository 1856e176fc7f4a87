package dev.idempotent.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idempotent.docs.PacketVariant.UnifiedDiff;
import dev.idempotent.docs.PacketVariant.UnifiedDiff.PatchException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The applier is strict: it changes what a diff says and refuses anything that does not match exactly; the
 * writer's diffs apply back.
 */
class UnifiedDiffTest {

    @TempDir
    Path root;

    private void write(String name, String text) throws Exception {
        Files.createDirectories(root.resolve(name).getParent());
        Files.writeString(root.resolve(name), text);
    }

    private String read(String name) throws Exception {
        return Files.readString(root.resolve(name));
    }

    @Test
    void appliesHunksInPlace() throws Exception {
        write("src/A.java", "one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\n");

        UnifiedDiff.parse("""
                diff --git a/src/A.java b/src/A.java
                --- a/src/A.java
                +++ b/src/A.java
                @@ -1,3 +1,3 @@
                 one
                -two
                +TWO
                 three
                @@ -7,2 +7,3 @@
                 seven
                 eight
                +nine
                """).applyTo(root);

        assertEquals("one\nTWO\nthree\nfour\nfive\nsix\nseven\neight\nnine\n", read("src/A.java"));
    }

    @Test
    void refusesAContextLineThatDoesNotMatch() throws Exception {
        write("A.txt", "one\ntwo\nthree\n");
        UnifiedDiff diff = UnifiedDiff.parse("""
                --- a/A.txt
                +++ b/A.txt
                @@ -1,3 +1,3 @@
                 one
                -two
                +2
                 tree
                """);

        assertThrows(PatchException.class, () -> diff.applyTo(root));
    }

    @Test
    void refusesAHunkAtTheWrongLineEvenIfItsTextExistsElsewhere() throws Exception {
        write("A.txt", "x\none\ntwo\n");
        UnifiedDiff diff = UnifiedDiff.parse("""
                --- a/A.txt
                +++ b/A.txt
                @@ -1,2 +1,2 @@
                 one
                -two
                +2
                """);

        assertThrows(PatchException.class, () -> diff.applyTo(root));
    }

    @Test
    void createsAndDeletesFilesAndKeepsAMissingFinalNewline() throws Exception {
        write("old.txt", "bye\n");

        UnifiedDiff.parse("""
                --- /dev/null
                +++ b/new/dir/N.txt
                @@ -0,0 +1,2 @@
                +hello
                +world
                \\ No newline at end of file
                --- a/old.txt
                +++ /dev/null
                @@ -1 +0,0 @@
                -bye
                """).applyTo(root);

        assertEquals("hello\nworld", read("new/dir/N.txt"));
        assertFalse(Files.exists(root.resolve("old.txt")));
    }

    @Test
    void refusesPathsOutsideTheTreeAndDiffsWithoutFiles() {
        UnifiedDiff escape = UnifiedDiff.parse("""
                --- /dev/null
                +++ b/../escape.txt
                @@ -0,0 +1 @@
                +x
                """);

        assertThrows(PatchException.class, () -> escape.applyTo(root));
        assertThrows(PatchException.class, () -> UnifiedDiff.parse("just prose\n"));
    }

    @Test
    void writesADiffThatTurnsOneTreeIntoTheOther() {
        Map<String, String> before = Map.of(
                "a.txt", "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n",
                "gone.txt", "x\n");
        Map<String, String> after = Map.of(
                "a.txt", "1\n2\nthree\n4\n5\n6\n7\n8\n9\n10\n11\ntwelve\nthirteen\n",
                "new/b.txt", "b\n");

        String diff = UnifiedDiff.write(before, after);

        assertEquals(after, UnifiedDiff.parse(diff).applyTo(before));
        assertEquals(4, diff.split("@@ -", -1).length - 1, "two hunks in a.txt (far apart), one per other file:\n" + diff);
        assertTrue(diff.contains("-3\n+three\n"), "a change reads removed, then added:\n" + diff);
        assertTrue(diff.contains("--- a/gone.txt\n+++ /dev/null\n") && diff.contains("--- /dev/null\n+++ b/new/b.txt\n"), diff);
        assertEquals("", UnifiedDiff.write(before, before));
    }
}
