package dev.idempotent.seatgrant.server;

import java.time.Duration;
import java.util.Objects;

/** The rules {@link ServerConfig} and {@link ProxyConfig} share for the settings they share: checked once, here. */
final class ConfigChecks {

    private ConfigChecks() {
    }

    static int port(int port) {
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("port must be 0 to 65535");
        }
        return port;
    }

    /**
     * Nullable in, nullable out: 1 or more visible ASCII characters (0x21 to 0x7E). HTTP strips a header value's
     * surrounding whitespace, a browser sends a header in Latin-1 and a UTF-8 client in UTF-8, so no request could
     * present a token with a space, a control character or anything beyond ASCII.
     */
    static String adminToken(String adminToken) {
        if (adminToken != null && adminToken.isEmpty()) {
            throw new IllegalArgumentException("admin token must not be blank");
        }
        if (adminToken != null && !adminToken.chars().allMatch(c -> c >= 0x21 && c <= 0x7E)) {
            throw new IllegalArgumentException(
                    "admin token must be visible ASCII (0x21 to 0x7E): no space, no control character, no "
                            + "letter beyond ASCII");
        }
        return adminToken;
    }

    static Duration defaultHang(Duration defaultHang) {
        if (defaultHang.isNegative() || defaultHang.toMillis() > FaultRule.MAX_DELAY_MS) {
            throw new IllegalArgumentException("default hang must be 0 to " + FaultRule.MAX_DELAY_MS + " ms");
        }
        return defaultHang;
    }

    static Duration positive(Duration d, String what) {
        Objects.requireNonNull(d, what);
        if (d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException(what + " must be positive");
        }
        return d;
    }

    static int maxConnections(int max) {
        if (max < 1) {
            throw new IllegalArgumentException("max connections must be at least 1");
        }
        return max;
    }

    static int journalCapacity(int capacity) {
        if (capacity < 1 || capacity > 10_000_000) {
            throw new IllegalArgumentException("journal capacity must be 1 to 10000000");
        }
        return capacity;
    }

    /** 10,000, or three quarters of the process's open-file limit when that is lower. */
    static int defaultMaxConnections() {
        long limit = -1;
        if (java.lang.management.ManagementFactory.getOperatingSystemMXBean()
                instanceof com.sun.management.UnixOperatingSystemMXBean unix) {
            limit = unix.getMaxFileDescriptorCount();
        }
        return limit <= 0 ? 10_000 : (int) Math.min(10_000, limit * 3 / 4);
    }
}
