package dev.idempotent.seatgrant.worker.internal;

import java.util.Arrays;
import java.util.Objects;

/**
 * A grant request built once per event and resent unchanged on every attempt: the same key and the same
 * bytes, so the server can recognise the resend as the same operation (a different payload under one key
 * is a 422).
 */
public final class PreparedGrant {

    private final String idempotencyKey;
    private final byte[] body;

    PreparedGrant(String idempotencyKey, byte[] body) {
        this.idempotencyKey = Objects.requireNonNull(idempotencyKey, "idempotencyKey");
        this.body = body.clone();
    }

    /** {@return the Idempotency-Key header value: the event's requestId} */
    public String idempotencyKey() {
        return idempotencyKey;
    }

    byte[] body() {
        return body.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof PreparedGrant p && idempotencyKey.equals(p.idempotencyKey) && Arrays.equals(body, p.body);
    }

    @Override
    public int hashCode() {
        return 31 * idempotencyKey.hashCode() + Arrays.hashCode(body);
    }

    @Override
    public String toString() {
        return "PreparedGrant[bodyBytes=" + body.length + "]";
    }
}
