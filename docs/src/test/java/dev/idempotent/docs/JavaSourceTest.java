package dev.idempotent.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import org.junit.jupiter.api.Test;

class JavaSourceTest {

    @Test
    void commentsAndBlankLinesDoNotCount() {
        String a = "// header\npackage p;\n\n/** Doc. */\nclass A { // trailing\n    int x = 1; /* inline */\n}\n";
        String b = "package p;\nclass A {\n    int x = 1;\n}\n";
        assertEquals(JavaSource.code(b), JavaSource.code(a));
    }

    @Test
    void codeStillCountsToTheLastToken() {
        assertNotEquals(JavaSource.code("class A { int x = 1; }\n"), JavaSource.code("class A { int x = 2; }\n"));
        assertNotEquals(JavaSource.code("class A {\n    int x;\n}\n"), JavaSource.code("class A {\n  int x;\n}\n"));
    }

    @Test
    void commentMarkersInsideLiteralsAreCode() {
        String source = "class A { String u = \"http://h/*x*/\"; char c = '/'; String t = \"\"\"\n  // kept\n  \"\"\"; }\n";
        assertEquals(source, JavaSource.code(source));
        assertNotEquals(JavaSource.code("class A { String u = \"http://a\"; }\n"),
                JavaSource.code("class A { String u = \"http://b\"; }\n"));
    }

    @Test
    void anEscapedQuoteDoesNotEndAString() {
        String source = "class A { String s = \"a\\\"//b\"; }\n";
        assertEquals(source, JavaSource.code(source));
    }
}
