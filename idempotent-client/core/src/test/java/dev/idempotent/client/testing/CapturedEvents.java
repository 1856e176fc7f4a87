package dev.idempotent.client.testing;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.slf4j.LoggerFactory;
import org.slf4j.event.KeyValuePair;

/**
 * Captures every log event in the JVM while open, as a test-side view of what a log pipeline would receive:
 * the logger, the formatted message and the SLF4J key-value pairs.
 */
public final class CapturedEvents implements AutoCloseable {

    /** One captured event. {@code keyValues} is empty for a plain log line. */
    public record Event(String logger, String level, String message, Map<String, Object> keyValues) {
        public Object get(String key) {
            return keyValues.get(key);
        }

        /** Everything a log pipeline would store for this event, for "no URL appears" checks. */
        public String rendered() {
            return logger + " " + level + " " + message + " " + keyValues;
        }
    }

    private final ListAppender<ILoggingEvent> appender = new ListAppender<>();
    private final Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);

    public CapturedEvents() {
        appender.start();
        root.addAppender(appender);
    }

    public synchronized List<Event> all() {
        List<Event> out = new ArrayList<>();
        for (ILoggingEvent e : List.copyOf(appender.list)) {
            Map<String, Object> kv = new LinkedHashMap<>();
            List<KeyValuePair> pairs = e.getKeyValuePairs();
            if (pairs != null) {
                for (KeyValuePair p : pairs) {
                    kv.put(p.key, p.value);
                }
            }
            out.add(new Event(e.getLoggerName(), e.getLevel().toString(), e.getFormattedMessage(), kv));
        }
        return out;
    }

    /** Events carrying {@code key} as a key-value pair. */
    public List<Event> forKey(String key) {
        return all().stream().filter(e -> Objects.equals(key, e.get("key"))).toList();
    }

    public void clear() {
        appender.list.clear();
    }

    @Override
    public void close() {
        root.detachAppender(appender);
        appender.stop();
    }
}
