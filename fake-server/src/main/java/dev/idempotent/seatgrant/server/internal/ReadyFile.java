package dev.idempotent.seatgrant.server.internal;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;

/**
 * {@code --ready-file PATH}, the readiness signal of {@code serve} and {@code proxy} for a script that must not
 * guess how long a start takes (18.7 s on a loaded machine where it took 0.4 s idle): the file holds the base URL
 * and a newline once the port accepts connections, and not before. It is written aside and renamed into place, so a
 * reader sees the whole line or no file; a file left by an earlier run is deleted at start, and the file is removed
 * when the server stops (not when it is killed with {@code kill -9}). Stateless.
 */
public final class ReadyFile {

    /** The flag's name, as {@code serve} and {@code proxy} take it. */
    public static final String FLAG = "--ready-file";

    private ReadyFile() {
    }

    /**
     * The {@code --ready-file} among command-line arguments, read as the parsers read it; null when none. A light
     * look for the launcher, which deletes a stale file before its child JVM starts.
     */
    static Path named(List<String> args) {
        String file = null;
        for (int i = 0; i < args.size(); i++) {
            String arg = args.get(i);
            if (arg.equals(FLAG) && i + 1 < args.size()) {
                file = args.get(++i);
            } else if (arg.startsWith(FLAG + "=")) {
                file = arg.substring(FLAG.length() + 1);
            }
        }
        try {
            return file == null ? null : Path.of(file);
        } catch (InvalidPathException e) {
            return null; // the child's parser refuses it, in one line
        }
    }

    /** Deletes {@code file} if it exists; quietly does nothing for null or a file that cannot be deleted. */
    public static void delete(Path file) {
        if (file == null) {
            return;
        }
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            // Writing it later fails too, and says so; a file that stays is the older run's, not a signal.
        }
    }

    /**
     * Writes {@code base} and a newline to {@code file}: to a file of its own beside it first, then renamed over it.
     *
     * @throws IOException when it cannot be written (no such directory, no permission)
     */
    public static void write(Path file, URI base) throws IOException {
        Path aside = file.resolveSibling("." + file.getFileName() + ".tmp-" + ProcessHandle.current().pid());
        try {
            Files.writeString(aside, base + "\n", StandardCharsets.UTF_8);
            try {
                Files.move(aside, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(aside, file, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(aside);
        }
    }
}
