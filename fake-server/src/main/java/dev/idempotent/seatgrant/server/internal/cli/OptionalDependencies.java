package dev.idempotent.seatgrant.server.internal.cli;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import org.slf4j.LoggerFactory;

/**
 * The optional dependencies of the fake-server artifact that the commands use, which the runnable jar bundles and a
 * service's test classpath lacks: the worker lab ({@code reproduce} needs it) and logback (the commands only turn
 * its levels down). A command that needs what is missing says so in one line, instead of a
 * {@link NoClassDefFoundError}. The database drivers and the pool, optional too, are checked by the store that
 * needs them ({@code internal.store.StoreDrivers}).
 */
public final class OptionalDependencies {

    /** What {@code reproduce} needs and the error line says when it is missing. */
    public static final String LAB_ARTIFACT = "dev.idempotent:seat-grant-worker-lab";

    private static final boolean LAB = present("dev.idempotent.seatgrant.worker.variants.Variant");
    private static final boolean LOGBACK = present("ch.qos.logback.classic.LoggerContext");

    private OptionalDependencies() {
    }

    /** Whether the worker variants the incident lab runs are on the classpath. */
    public static boolean hasLab() {
        return LAB;
    }

    /** Holds a logger to WARN when logback is the SLF4J backend; without logback, does nothing. */
    static void warnOnly(String loggerName) {
        if (LOGBACK) {
            Logback.warnOnly(loggerName);
        }
    }

    private static boolean present(String className) {
        try {
            Class.forName(className, false, OptionalDependencies.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    /** Apart, so logback's classes are resolved only once it is known they are there. */
    private static final class Logback {
        static void warnOnly(String loggerName) {
            if (LoggerFactory.getILoggerFactory() instanceof LoggerContext context) {
                context.getLogger(loggerName).setLevel(Level.WARN);
            }
        }
    }
}
