package dev.idempotent.seatgrant.worker.cli;

import dev.idempotent.seatgrant.worker.GrantRejectedException;
import dev.idempotent.seatgrant.worker.SeatRequested;
import dev.idempotent.seatgrant.worker.variants.GrantHandler;
import dev.idempotent.seatgrant.worker.variants.Variant;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One delivery from an at-least-once bus, the way {@code fake-server grade} hands it to any worker: one
 * {@code seat.requested} JSON line on stdin, the API root in {@code SEATS_BASE_URL}, and the verdict as the exit
 * code (0 acknowledge, 3 reject, anything else redeliver).
 *
 * <p>Only the answer key can reject: its {@link GrantRejectedException} means "this event can never succeed".
 * The interview variants have no such notion (the take-home's handler either returns or throws), so whatever
 * they throw is a nack and the bus redelivers it, as a queue consumer built on them would.
 */
final class DeliverCommand {

    /** The variable that holds the API root, with no trailing slash; the worker appends {@code /v1/seats}. */
    static final String BASE_URL_VARIABLE = "SEATS_BASE_URL";

    static final int ACK = 0;
    static final int NACK = 1;
    static final int BAD_COMMAND_LINE = 2;
    static final int REJECT = 3;

    static final String USAGE = """
      usage: seat-grant-worker deliver [--variant NAME]
        one delivery: reads one JSON line {"requestId", "workspaceId", "userId", "role"} on stdin and grants it
        against $SEATS_BASE_URL (e.g. http://127.0.0.1:8080, no trailing slash)
        --variant NAME     %s (default answer-key)
      exit: 0 acknowledge, 3 reject (the event can never succeed), 1 redeliver, 2 bad command line
      stderr: the structured events, one JSON object per line
      """.formatted(String.join(" | ", Variant.cliNames()));

    private static final Logger log = LoggerFactory.getLogger("dev.idempotent.seatgrant.worker.deliver");

    private DeliverCommand() {
    }

    /** Runs {@code deliver} with the arguments after the command name; returns the exit code. */
    static int run(String[] args, InputStream stdin, PrintStream out, PrintStream err, Map<String, String> env) {
        Variant variant = Variant.ANSWER_KEY;
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--help")) {
                out.print(USAGE);
                return ACK;
            }
            if (!args[i].equals("--variant")) {
                err.println("seat-grant-worker deliver: unknown flag " + args[i] + " (see deliver --help)");
                return BAD_COMMAND_LINE;
            }
            if (i + 1 >= args.length) {
                err.println("seat-grant-worker deliver: --variant needs a value (see deliver --help)");
                return BAD_COMMAND_LINE;
            }
            String name = args[++i];
            Optional<Variant> named = Variant.byName(name);
            if (named.isEmpty()) {
                err.println("seat-grant-worker deliver: unknown variant '" + name + "' (see deliver --help)");
                return BAD_COMMAND_LINE;
            }
            variant = named.get();
        }
        Optional<URI> base = baseUri(env.get(BASE_URL_VARIABLE));
        if (base.isEmpty()) {
            // Not the event's fault: exit 2 is a nack, so the bus keeps the event for a correctly configured worker.
            err.println("seat-grant-worker deliver: " + BASE_URL_VARIABLE + " must be an absolute http or https URL");
            return BAD_COMMAND_LINE;
        }
        Optional<SeatRequested> event = readEvent(stdin);
        if (event.isEmpty()) {
            // parseEvent has logged why; a line that is not an event will not become one on redelivery.
            return REJECT;
        }
        try (GrantHandler handler = variant.create(base.get())) {
            return grant(handler, event.get());
        }
    }

    private static int grant(GrantHandler handler, SeatRequested event) {
        try {
            handler.handle(event);
            return ACK;
        } catch (GrantRejectedException rejected) {
            return REJECT;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return NACK;
        } catch (Exception gaveUpForNow) {
            // Exhausted, interrupted, or a variant's plain exception: not done, so the bus must try again.
            log.atWarn().setMessage("seat.grant.nack")
                    .addKeyValue("requestId", event.requestId())
                    .addKeyValue("error", gaveUpForNow.getClass().getSimpleName())
                    .log();
            return NACK;
        }
    }

    private static Optional<SeatRequested> readEvent(InputStream stdin) {
        String line;
        try {
            line = new BufferedReader(new InputStreamReader(stdin, StandardCharsets.UTF_8)).readLine();
        } catch (IOException e) {
            line = null;
        }
        return Main.parseEvent(line == null ? "" : line, 1);
    }

    private static Optional<URI> baseUri(String value) {
        if (value == null || value.isBlank()) {
            return Optional.empty();
        }
        try {
            URI uri = URI.create(value);
            if (uri.getHost() != null && ("http".equals(uri.getScheme()) || "https".equals(uri.getScheme()))) {
                return Optional.of(uri);
            }
        } catch (IllegalArgumentException e) {
            // Falls through; the value is never echoed, since a base URL may carry a token.
        }
        return Optional.empty();
    }
}
