package dev.idempotent.seatgrant.server.grade;

/**
 * The four signals of the seat-grant rubric that a worker's behaviour can show. The fifth, Patch size, needs a
 * human reading the diff, so the grader never scores it.
 */
public enum Signal {
    TIMEOUT("timeout", "Timeout semantics"),
    IDEMPOTENCY("idempotency", "Idempotency"),
    ERROR_CLASSES("errorClasses", "Error classes"),
    OBSERVABILITY("observability", "Observability");

    private final String jsonName;
    private final String title;

    Signal(String jsonName, String title) {
        this.jsonName = jsonName;
        this.title = title;
    }

    /** The field name in {@code --json} output, e.g. {@code errorClasses}. */
    public String jsonName() {
        return jsonName;
    }

    /** The rubric's name for it, e.g. {@code Error classes}. */
    public String title() {
        return title;
    }
}
