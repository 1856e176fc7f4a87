package dev.idempotent.seatgrant.server.grade;

/**
 * How a check, or the whole grade, came out. {@code INCONCLUSIVE} means the grader could not tell: its own server
 * was the slow party twice, or the twins it delivered at once never overlapped, twice. It is never the worker's
 * failure, and never its pass.
 */
public enum Result {
    PASS("pass", "pass"),
    FAIL("fail", "FAIL"),
    INCONCLUSIVE("inconclusive", "INCONCLUSIVE");

    private final String jsonName;
    private final String word;

    Result(String jsonName, String word) {
        this.jsonName = jsonName;
        this.word = word;
    }

    /** The value in {@code --json} output: {@code pass}, {@code fail} or {@code inconclusive}. */
    public String jsonName() {
        return jsonName;
    }

    /** The word in the table: {@code pass}, {@code FAIL} or {@code INCONCLUSIVE}. */
    public String word() {
        return word;
    }
}
