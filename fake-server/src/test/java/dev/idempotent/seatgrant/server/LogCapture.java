package dev.idempotent.seatgrant.server;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.classic.spi.StackTraceElementProxy;
import ch.qos.logback.core.AppenderBase;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.LoggerFactory;

/**
 * Captures every log event of the whole process, at INFO and above (this project's own loggers at DEBUG), while open: the message as it would be
 * printed plus each throwable's class, message and stack frames, so a test can say "no line holds X".
 */
final class LogCapture implements AutoCloseable {

    private final Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
    private final Logger ours = (Logger) LoggerFactory.getLogger("dev.idempotent");
    private final Level rootLevel = root.getLevel();
    private final Level ourLevel = ours.getLevel();
    private final List<String> lines = new ArrayList<>();
    private final AppenderBase<ILoggingEvent> appender = new AppenderBase<>() {
        @Override
        protected void append(ILoggingEvent event) {
            StringBuilder text = new StringBuilder(event.getLevel() + " " + event.getLoggerName() + " - "
                    + event.getFormattedMessage());
            for (IThrowableProxy t = event.getThrowableProxy(); t != null; t = t.getCause()) {
                text.append("\n").append(t.getClassName()).append(": ").append(t.getMessage());
                for (StackTraceElementProxy frame : t.getStackTraceElementProxyArray()) {
                    text.append("\n\tat ").append(frame.getSTEAsString());
                }
            }
            synchronized (lines) {
                lines.add(text.toString());
            }
        }
    };

    LogCapture() {
        appender.setContext((LoggerContext) LoggerFactory.getILoggerFactory());
        appender.start();
        root.addAppender(appender);
        root.setLevel(Level.INFO);
        // This project's DEBUG lines go to the capture only, not to the console: a test may make thousands.
        ours.addAppender(appender);
        ours.setAdditive(false);
        ours.setLevel(Level.DEBUG);
    }

    /** Every event so far, each as one string (a throwable's frames on further lines of the same string). */
    List<String> lines() {
        synchronized (lines) {
            return List.copyOf(lines);
        }
    }

    /** The events that contain {@code text}. */
    List<String> containing(String text) {
        return lines().stream().filter(l -> l.contains(text)).toList();
    }

    @Override
    public void close() {
        root.setLevel(rootLevel);
        ours.setLevel(ourLevel);
        ours.setAdditive(true);
        ours.detachAppender(appender);
        root.detachAppender(appender);
        appender.stop();
    }
}
