package dev.idempotent.seatgrant.server.internal.store;

import java.security.SecureRandom;

/**
 * SipHash-2-4 (Aumasson and Bernstein, 2012) with a key drawn at random: a hash a client cannot aim at. The
 * in-memory store's tables find keys, seat ids and users by their hash; with {@code String.hashCode}, which anyone
 * can compute, a client could send keys that all hash alike and make every grant walk all of them ({@code
 * HashMap} survives that by turning a crowded bin into a tree; an open-addressing table does not). Keyed this
 * way, which keys collide depends on a key the client never sees.
 */
final class SipHash {

    private final long k0;
    private final long k1;

    SipHash(long k0, long k1) {
        this.k0 = k0;
        this.k1 = k1;
    }

    /** A hash with a key of its own from the system's secure random source. */
    static SipHash withRandomKey() {
        SecureRandom random = new SecureRandom();
        return new SipHash(random.nextLong(), random.nextLong());
    }

    long hash(byte[] message) {
        long[] v = {
            0x736f6d6570736575L ^ k0,
            0x646f72616e646f6dL ^ k1,
            0x6c7967656e657261L ^ k0,
            0x7465646279746573L ^ k1,
        };
        int length = message.length;
        int whole = length - (length % 8);
        for (int i = 0; i < whole; i += 8) {
            long m = 0;
            for (int j = 7; j >= 0; j--) {
                m = (m << 8) | (message[i + j] & 0xFFL);
            }
            compress(v, m);
        }
        long last = (long) length << 56;
        for (int i = whole; i < length; i++) {
            last |= (message[i] & 0xFFL) << (8 * (i - whole));
        }
        compress(v, last);
        v[2] ^= 0xFF;
        for (int i = 0; i < 4; i++) {
            round(v);
        }
        return v[0] ^ v[1] ^ v[2] ^ v[3];
    }

    private static void compress(long[] v, long m) {
        v[3] ^= m;
        round(v);
        round(v);
        v[0] ^= m;
    }

    private static void round(long[] v) {
        v[0] += v[1];
        v[1] = Long.rotateLeft(v[1], 13);
        v[1] ^= v[0];
        v[0] = Long.rotateLeft(v[0], 32);
        v[2] += v[3];
        v[3] = Long.rotateLeft(v[3], 16);
        v[3] ^= v[2];
        v[0] += v[3];
        v[3] = Long.rotateLeft(v[3], 21);
        v[3] ^= v[0];
        v[2] += v[1];
        v[1] = Long.rotateLeft(v[1], 17);
        v[1] ^= v[2];
        v[2] = Long.rotateLeft(v[2], 32);
    }
}
