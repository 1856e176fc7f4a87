package dev.idempotent.seatgrant.server.internal.cli;

/** A bad command line; the message is one line for the user, and the process exits 2. */
public final class UsageException extends Exception {

    private final String see;

    public UsageException(String message) {
        this(message, null);
    }

    /**
     * @param see where to look instead of the subcommand's {@code --help}, e.g. {@code fake-server grade --list};
     *            nullable: the help
     */
    public UsageException(String message, String see) {
        super(message, null, false, false);
        this.see = see;
    }

    /** The one line to print: the message and one "see" hint, this exception's own or {@code help}. */
    public String line(String help) {
        return getMessage() + " (see " + (see != null ? see : help) + ")";
    }
}
