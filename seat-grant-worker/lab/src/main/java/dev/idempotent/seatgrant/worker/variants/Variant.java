package dev.idempotent.seatgrant.worker.variants;

import dev.idempotent.seatgrant.worker.GrantOutcome;
import dev.idempotent.seatgrant.worker.SeatGrantConfig;
import dev.idempotent.seatgrant.worker.SeatGrantWorker;
import dev.idempotent.seatgrant.worker.SeatRequested;
import dev.idempotent.seatgrant.worker.Sleeper;
import dev.idempotent.seatgrant.worker.fixture.AgentSeatGrantWorker;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Every seat-grant worker the lab and the {@code run} command can drive, by the name a user types.
 *
 * <p>Four are the failure modes of the take-home made runnable, one is the interview key's minimal patch,
 * and one is the answer key. {@link #expectedToDuplicate()} and {@link #expectedToBeSafe()} say what each is
 * there to show.
 */
public enum Variant {

    /** The agent-written fixture: no key, every error into one sleep loop. */
    FIXTURE("fixture", "no key; retries every error, so a lost answer becomes a second POST"),
    /** GET first, POST if absent, no key. */
    CHECK_THEN_POST("check-then-post", "no key; looks before it POSTs, which two deliveries at once both pass"),
    /** A process-local map of requestIds, no key, no retry. */
    LOCAL_MAP("local-map", "no key; remembers requestIds in memory, which a restart forgets"),
    /** Sends the key but reads the 409 replay as an error. */
    CONFLICT_IS_FAILURE("409-is-failure", "sends the key, then reads the 409 replay as a failure"),
    /** The fixture with the interview key's minimal patch. */
    MINIMAL_PATCH("minimal-patch", "the fixture plus the key, 409 as replay and classified retries"),
    /** The module's answer-key worker. */
    ANSWER_KEY("answer-key", "the answer key: key, replay, classified retries, Retry-After, deadline");

    private final String cliName;
    private final String summary;

    Variant(String cliName, String summary) {
        this.cliName = cliName;
        this.summary = summary;
    }

    /** The name on the command line and in reports, e.g. {@code 409-is-failure}. */
    public String cliName() {
        return cliName;
    }

    /** One line on what the variant does differently. */
    public String summary() {
        return summary;
    }

    /** Whether this variant exists to show duplicate seats under the incident. */
    public boolean expectedToDuplicate() {
        return this == FIXTURE || this == CHECK_THEN_POST || this == LOCAL_MAP;
    }

    /** Whether this variant must grant every event exactly one seat under the incident. */
    public boolean expectedToBeSafe() {
        return this == MINIMAL_PATCH || this == ANSWER_KEY;
    }

    /** Every variant's command-line name, in declaration order, for usage text and error messages. */
    public static List<String> cliNames() {
        return Arrays.stream(values()).map(Variant::cliName).toList();
    }

    /** The variant with this command-line name, if there is one. */
    public static Optional<Variant> byName(String cliName) {
        return Arrays.stream(values()).filter(v -> v.cliName.equals(cliName)).findFirst();
    }

    /** A new worker of this variant that sleeps for real: one "process" worth of state; close it when done. */
    public GrantHandler create(URI baseUri) {
        return create(baseUri, Sleeper.SYSTEM, event -> { });
    }

    /**
     * A new worker of this variant. Each call is a fresh process as far as in-memory state goes, which is how the
     * lab simulates a restart; close it when that process would exit.
     *
     * @param baseUri             the seat API's base URI
     * @param sleeper             how the worker waits between attempts
     * @param betweenCheckAndPost used by {@link #CHECK_THEN_POST} only; see {@link CheckThenPostWorker}
     */
    public GrantHandler create(URI baseUri, Sleeper sleeper, Consumer<SeatRequested> betweenCheckAndPost) {
        return switch (this) {
            case FIXTURE -> fixture(new AgentSeatGrantWorker(baseUri, ms -> sleeper.sleep(Duration.ofMillis(ms))));
            case CHECK_THEN_POST -> new CheckThenPostWorker(baseUri, sleeper, betweenCheckAndPost);
            case LOCAL_MAP -> new LocalMapWorker(baseUri);
            case CONFLICT_IS_FAILURE -> new ConflictIsFailureWorker(baseUri, sleeper);
            case MINIMAL_PATCH -> minimalPatch(new dev.idempotent.seatgrant.worker.minimalpatch.AgentSeatGrantWorker(
                    baseUri, ms -> sleeper.sleep(Duration.ofMillis(ms))));
            case ANSWER_KEY -> answerKey(new SeatGrantWorker(SeatGrantConfig.defaults(baseUri), sleeper, Clock.systemUTC()));
        };
    }

    // The fixture and the minimal patch return nothing, so a handled event is all they can report.
    private static GrantHandler fixture(AgentSeatGrantWorker worker) {
        return event -> {
            worker.handleSeatRequested(
                    new AgentSeatGrantWorker.SeatEvent(event.requestId(), event.workspaceId(), event.userId()));
            return GrantHandler.Handled.GRANTED;
        };
    }

    // Both interview classes are called AgentSeatGrantWorker, as in the packet; the patched one goes by its full name.
    private static GrantHandler minimalPatch(dev.idempotent.seatgrant.worker.minimalpatch.AgentSeatGrantWorker worker) {
        return event -> {
            worker.handleSeatRequested(new dev.idempotent.seatgrant.worker.minimalpatch.AgentSeatGrantWorker.SeatEvent(
                    event.requestId(), event.workspaceId(), event.userId()));
            return GrantHandler.Handled.GRANTED;
        };
    }

    private static GrantHandler answerKey(SeatGrantWorker worker) {
        return new GrantHandler() {
            @Override
            public Handled handle(SeatRequested event) {
                return worker.handle(event) instanceof GrantOutcome.Replayed ? Handled.REPLAYED : Handled.GRANTED;
            }

            @Override
            public void close() {
                worker.close();
            }
        };
    }
}
