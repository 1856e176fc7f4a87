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
     * One line: {@code {"checks": [{"id", "signal", "passed", "result", "runs", "passes", "flaky", "evidence",
     * "deliveries": [{"exit", "killed", "ms", "output", "outputTruncated"}]}], "signals": {"timeout", "idempotency",
     * "errorClasses", "observability"}, "duplicates", "gates": {"safety", "liveness", "outcome", "integrity"},
     * each {"passed", "reason"}, "pass", "verdict"}}.
     */
    public static String json(GradeReport report) {
        return json(report, HandoutNames.none());
    }

    /**
     * As {@link #json(GradeReport)}, with each {@code evidence} and each gate's {@code reason} in a handout's names;
     * ids, keys and the workers' own output stay as they are.
     */
    public static String json(GradeReport report, HandoutNames names) {
        ObjectNode root = JSON.createObjectNode();
        ArrayNode checks = root.putArray("checks");
        for (CheckResult c : report.checks()) {
            ObjectNode check = checks.addObject()
                    .put("id", c.id())
                    .put("signal", c.signal().jsonName())
                    .put("passed", c.passed())
                    .put("result", c.result().jsonName())
                    .put("runs", c.runs())
                    .put("passes", c.passes())
                    .put("flaky", c.flaky())
                    .put("evidence", names.apply(c.evidence()));
            ArrayNode deliveries = check.putArray("deliveries");
            for (DeliveryResult d : c.deliveries()) {
                deliveries.addObject()
                        .put("exit", d.exit())
                        .put("killed", d.killed())
                        .put("ms", d.ms())
                        .put("output", d.output())
                        .put("outputTruncated", d.outputTruncated());
            }
        }
        ObjectNode signals = root.putObject("signals");
        for (Signal s : Signal.values()) {
            signals.put(s.jsonName(), report.signals().get(s));
        }
        root.put("duplicates", report.duplicates());
        ObjectNode gates = root.putObject("gates");
        gate(gates, "safety", report.safety(), names);
        gate(gates, "liveness", report.liveness(), names);
        gate(gates, "outcome", report.outcome(), names);
        gate(gates, "integrity", report.integrity(), names);
        root.put("pass", report.pass());
        root.put("verdict", report.verdict().jsonName());
        return root.toString();
    }

    private static void gate(ObjectNode gates, String name, Gate gate, HandoutNames names) {
        gates.putObject(name).put("passed", gate.passed()).put("reason", names.apply(gate.reason()));
    }

    /** One row per check, then the signals, the gates and the verdict. */
    public static String table(GradeReport report) {
        return table(report, HandoutNames.none());
    }

    /** As {@link #table(GradeReport)}, its prose in a handout's names; check ids stay as they are. */
    public static String table(GradeReport report, HandoutNames names) {
        return names.apply(packetTable(report));
    }

    private static String packetTable(GradeReport report) {
        int idWidth = Math.max("check".length(), report.checks().stream().mapToInt(c -> c.id().length()).max().orElse(0));
        int signalWidth = Math.max("signal".length(),
                report.checks().stream().mapToInt(c -> c.signal().jsonName().length()).max().orElse(0));
        int resultWidth = report.checks().stream().mapToInt(c -> word(c).length()).max().orElse(0);
        String row = "%-" + idWidth + "s  %-" + signalWidth + "s  %-" + Math.max(6, resultWidth) + "s %s%n";
        StringBuilder out = new StringBuilder();
        out.append(String.format(Locale.ROOT, row, "check", "signal", "result", "evidence"));
        for (CheckResult c : report.checks()) {
            out.append(String.format(Locale.ROOT, row, c.id(), c.signal().jsonName(), word(c), c.evidence()));
        }
        out.append(System.lineSeparator()).append("signals (2: every check passes; 1: at least half do; 0: fewer)")
                .append(System.lineSeparator());
        for (Signal s : Signal.values()) {
            List<CheckResult> behind = report.checks().stream().filter(c -> c.signal() == s).toList();
            long passed = behind.stream().filter(CheckResult::passed).count();
            long inconclusive = behind.stream().filter(c -> c.result() == Result.INCONCLUSIVE).count();
            String note = s == Signal.IDEMPOTENCY && report.duplicates() > 0
                    ? "; 0 because of " + report.duplicates() + " duplicate" + (report.duplicates() == 1 ? "" : "s")
                    : "";
            if (inconclusive > 0) {
                note += "; " + inconclusive + " inconclusive, counted as not passed";
            }
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
        out.append(gate("safety", report.safety())).append(gate("liveness", report.liveness()))
                .append(gate("outcome", report.outcome())).append(gate("integrity", report.integrity()));
        out.append(String.format(Locale.ROOT,
                "%s: Timeout semantics %d (needs 1), Idempotency %d (needs 1), sum %d of 8 (needs %d)%s%n",
                report.verdict().word().toUpperCase(Locale.ROOT), report.signals().get(Signal.TIMEOUT),
                report.signals().get(Signal.IDEMPOTENCY), report.sum(), GradeReport.PASSING_SUM, because(report)));
        return out.toString();
    }

    private static String word(CheckResult c) {
        return c.flaky() ? "FAIL (flaky)" : c.result().word();
    }

    private static String gate(String name, Gate gate) {
        return String.format(Locale.ROOT, "%s gate: %s: %s%n", name, gate.passed() ? "pass" : "FAIL", gate.reason());
    }

    /** Why the verdict is what it is, when the signals alone do not say. */
    private static String because(GradeReport report) {
        if (report.verdict() == Result.INCONCLUSIVE) {
            return "; the inconclusive checks decide it (exit 4)";
        }
        if (report.verdict() == Result.FAIL && !report.liveness().passed()) {
            return "; the liveness gate fails it";
        }
        if (report.verdict() == Result.FAIL && !report.safety().passed()) {
            return "; the safety gate fails it";
        }
        if (report.verdict() == Result.FAIL && !report.outcome().passed()) {
            return "; the outcome gate fails it";
        }
        if (report.verdict() == Result.FAIL && !report.integrity().passed()) {
            return "; the integrity gate fails it";
        }
        return "";
    }
}
