package dev.idempotent.seatgrant.server.internal.cli;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;

/** The command line's flag grammar, shared by every subcommand: {@code --flag value} or {@code --flag=value}. */
final class Flags {

    private Flags() {
    }

    /** The arguments as a queue of tokens, with {@code --flag=value} split in two. */
    static Deque<String> tokens(List<String> args) {
        Deque<String> queue = new ArrayDeque<>();
        for (String arg : args) {
            int eq = arg.indexOf('=');
            if (arg.startsWith("--") && eq > 2) {
                queue.add(arg.substring(0, eq));
                queue.add(arg.substring(eq + 1));
            } else {
                queue.add(arg);
            }
        }
        return queue;
    }

    /**
     * The value after {@code flag}.
     *
     * @throws UsageException if there is none
     */
    static String value(Deque<String> queue, String flag) throws UsageException {
        String value = queue.poll();
        if (value == null || (value.startsWith("--") && !value.equals("--"))) {
            throw new UsageException(flag + " needs a value");
        }
        return value;
    }
}
