package dev.idempotent.client.testing;

import dev.idempotent.client.IdempotentListener;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** A listener that keeps every attempt and outcome it is told of, in order. Thread-safe. */
public final class RecordingListener implements IdempotentListener {

    public final List<AttemptEvent> attempts = new CopyOnWriteArrayList<>();
    public final List<OutcomeEvent> outcomes = new CopyOnWriteArrayList<>();

    @Override
    public void onAttempt(AttemptEvent attempt) {
        attempts.add(attempt);
    }

    @Override
    public void onOutcome(OutcomeEvent outcome) {
        outcomes.add(outcome);
    }
}
