package dev.idempotent.seatgrant.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.URI;
import java.util.Optional;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * Without a token the admin API refuses anyone who is not on loopback. The "remote" client here is this same
 * host connecting through its own non-loopback address, so no packet leaves the machine.
 */
class AdminLoopbackOnlyTest {

    private static Optional<InetAddress> ownNonLoopbackAddress() throws SocketException {
        return NetworkInterface.networkInterfaces()
                .filter(i -> {
                    try {
                        return i.isUp() && !i.isLoopback();
                    } catch (SocketException e) {
                        return false;
                    }
                })
                .flatMap(NetworkInterface::inetAddresses)
                .filter(a -> a instanceof Inet4Address && !a.isLoopbackAddress() && !a.isLinkLocalAddress())
                .findFirst();
    }

    @Test
    void aNonLoopbackClientGets403FromAdminButTheSeatApiServesIt() throws Exception {
        Optional<InetAddress> own = ownNonLoopbackAddress();
        Assumptions.assumeTrue(own.isPresent(), "this host has no non-loopback IPv4 address to connect through");
        // The address is an allowed name, so what refuses the remote client is who it is, not what it calls us.
        try (FakeSeatServer server = FakeSeatServer.start(ServerConfig.builder().host("0.0.0.0")
                .allowedHost(own.get().getHostAddress()).build())) {
            Http remote = new Http(URI.create("http://" + own.get().getHostAddress() + ":" + server.port() + "/"));
            Http local = new Http(server);

            for (String path : new String[] {"/__admin/ledger", "/__admin/requests"}) {
                var refused = remote.get(path);
                assertEquals(403, refused.statusCode());
                assertTrue(refused.body().contains("problem:admin-loopback-only"), refused.body());
            }
            assertEquals(200, local.get("/__admin/ledger").statusCode());
            assertEquals(201, remote.grant("k", Http.BODY).statusCode());
        }
    }
}
