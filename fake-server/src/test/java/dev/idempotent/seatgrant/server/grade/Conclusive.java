package dev.idempotent.seatgrant.server.grade;

import java.util.Collection;

/**
 * Grades the way an inconclusive report tells a user to: again. A test that proves a verdict needs a conclusive one,
 * and on a machine loaded enough that the grader's own server is the slow party twice in a row, a second or third
 * grade gets it; a test that proves the inconclusive result itself calls the grader directly.
 */
final class Conclusive {

    private static final int GRADES = 3;

    private Conclusive() {
    }

    static GradeReport grade(Grader grader, Collection<String> only) {
        GradeReport report = grader.grade(only);
        for (int i = 1; i < GRADES && report.checks().stream().anyMatch(c -> c.result() == Result.INCONCLUSIVE); i++) {
            report = grader.grade(only);
        }
        return report;
    }
}
