package com.example.orders;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.idempotent.client.IdempotentClient;
import org.junit.jupiter.api.Test;

/** This build depends on the client alone: none of the proxy's, the worker's or a logging backend's classes. */
class ClasspathTest {

    @Test
    void onlyTheClientAndItsOwnLibrariesAreHere() {
        assertEquals("dev.idempotent.client", IdempotentClient.class.getPackageName());
        for (String absent : new String[] {"dev.idempotent.seatgrant.server.FakeProxy",
                "dev.idempotent.seatgrant.worker.SeatGrantWorker", "ch.qos.logback.classic.Logger"}) {
            assertThrows(ClassNotFoundException.class, () -> Class.forName(absent), absent);
        }
    }
}
