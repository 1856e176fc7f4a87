package dev.idempotent.seatgrant.server.lab;

import dev.idempotent.seatgrant.worker.SeatRequested;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;

/**
 * What an at-least-once bus does to one batch of events, decided up front from a seed so every variant meets
 * exactly the same deliveries and the same seed gives the same table.
 *
 * @param events  the batch, one distinct grant each
 * @param twins   indexes of events the bus delivers twice at the same moment
 * @param inFlight indexes of events whose ack was lost when the worker crashed, so they are redelivered to the
 *                 restarted worker even though they were handled
 */
record DeliveryPlan(List<SeatRequested> events, Set<Integer> twins, Set<Integer> inFlight) {

    /** A quarter of events are delivered twice at once, a fifth are in flight at the crash: enough to see. */
    private static final double TWIN_SHARE = 0.25;
    private static final double IN_FLIGHT_SHARE = 0.2;

    DeliveryPlan {
        events = List.copyOf(events);
        twins = Set.copyOf(twins);
        inFlight = Set.copyOf(inFlight);
    }

    static DeliveryPlan of(int count, long seed) {
        Random random = new Random(seed);
        List<SeatRequested> events = new ArrayList<>();
        Set<Integer> twins = new TreeSet<>();
        Set<Integer> inFlight = new TreeSet<>();
        for (int i = 0; i < count; i++) {
            String n = String.format("%04d", i + 1);
            events.add(new SeatRequested("req_" + n, "ws_" + n, "user_" + n));
            if (random.nextDouble() < TWIN_SHARE) {
                twins.add(i);
            }
            if (random.nextDouble() < IN_FLIGHT_SHARE) {
                inFlight.add(i);
            }
        }
        return new DeliveryPlan(events, twins, inFlight);
    }
}
