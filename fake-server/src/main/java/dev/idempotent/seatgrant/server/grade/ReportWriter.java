package dev.idempotent.seatgrant.server.grade;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Locale;

/** Prints a {@link GradeReport}: the table a person reads, or the JSON a script reads. */
public final class ReportWriter {

    private static final ObjectMapper JSON = new ObjectMapper();

    private ReportWriter() {
    }

    /**
     * {@code {"checks": [{"id", "signal", "passed", "evidence"}], "signals": {"timeout", "idempotency",
     * "errorClasses", "observability"}, "duplicates": n, "pass": bool}} on one line.
     */
    public static String json(GradeReport report) {
        ObjectNode root = JSON.createObjectNode();
        ArrayNode checks = root.putArray("checks");
        for (CheckResult c : report.checks()) {
            checks.addObject()
                    .put("id", c.id())
                    .put("signal", c.signal().jsonName())
                    .put("passed", c.passed())
                    .put("evidence", c.evidence());
        }
        ObjectNode signals = root.putObject("signals");
        for (Signal s : Signal.values()) {
            signals.put(s.jsonName(), report.signals().get(s));
        }
        root.put("duplicates", report.duplicates());
        root.put("pass", report.pass());
        return root.toString();
    }

    /** One row per check, then the signals and the verdict. */
    public static String table(GradeReport report) {
        int idWidth = Math.max("check".length(), report.checks().stream().mapToInt(c -> c.id().length()).max().orElse(0));
        int signalWidth = Math.max("signal".length(),
                report.checks().stream().mapToInt(c -> c.signal().jsonName().length()).max().orElse(0));
        String row = "%-" + idWidth + "s  %-" + signalWidth + "s  %-6s %s%n";
        StringBuilder out = new StringBuilder();
        out.append(String.format(Locale.ROOT, row, "check", "signal", "result", "evidence"));
        for (CheckResult c : report.checks()) {
            out.append(String.format(Locale.ROOT, row, c.id(), c.signal().jsonName(), c.passed() ? "pass" : "FAIL",
                    c.evidence()));
        }
        out.append(System.lineSeparator()).append("signals (2: every check passes; 1: at least half do; 0: fewer)")
                .append(System.lineSeparator());
        for (Signal s : Signal.values()) {
            List<CheckResult> behind = report.checks().stream().filter(c -> c.signal() == s).toList();
            long passed = behind.stream().filter(CheckResult::passed).count();
            String note = s == Signal.IDEMPOTENCY && report.duplicates() > 0
                    ? "; 0 because of " + report.duplicates() + " duplicate" + (report.duplicates() == 1 ? "" : "s")
                    : "";
            out.append(String.format(Locale.ROOT, "  %-18s %d   %d of %d checks: %s%s%n", s.title(),
                    report.signals().get(s), passed, behind.size(),
                    behind.isEmpty() ? "none ran" : String.join(", ", behind.stream().map(CheckResult::id).toList()),
                    note));
        }
        out.append(String.format(Locale.ROOT, "  %-18s -   needs a human reading the diff; not scored here%n",
                "Patch size"));
        out.append(System.lineSeparator());
        out.append(String.format(Locale.ROOT, "duplicates: %d (users left with more than one seat, over all checks)%n",
                report.duplicates()));
        out.append(String.format(Locale.ROOT,
                "%s: Timeout semantics %d (needs 1), Idempotency %d (needs 1), sum %d of 8 (needs %d)%n",
                report.pass() ? "PASS" : "FAIL", report.signals().get(Signal.TIMEOUT),
                report.signals().get(Signal.IDEMPOTENCY), report.sum(), GradeReport.PASSING_SUM));
        return out.toString();
    }
}
