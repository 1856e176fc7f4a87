package dev.idempotent.seatgrant.server.internal.http;

import java.util.concurrent.CompletableFuture;

/**
 * A response body produced a part at a time, for answers too large to build whole ({@code GET /__admin/requests}
 * on a full journal: tens of megabytes). The connection layer asks for the next part only once the part before it
 * has reached the socket, so a body holds one part in memory however large it is and however slowly its client
 * reads. See {@link Exchange#stream}.
 *
 * <p>Called on the connection's event loop, one call at a time; {@link #next()} should do its work elsewhere and
 * complete the future from there.
 */
public interface BodyStream {

    /**
     * The next part of the body, or null once the body is complete. A failed future ends the connection
     * without the rest: the status is already sent, so the client sees a body cut short, never a false end.
     */
    CompletableFuture<byte[]> next();

    /** The connection went away before the end; nothing more will be asked. By default nothing is done. */
    default void abandon() {
    }
}
