package dev.idempotent.seatgrant.server.internal.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import org.junit.jupiter.api.Test;

/** SipHash-2-4 against the reference vectors of its paper and implementation (key 00 01 .. 0f). */
class SipHashTest {

    private static final SipHash REFERENCE_KEY = new SipHash(0x0706050403020100L, 0x0f0e0d0c0b0a0908L);

    private static byte[] counting(int length) {
        byte[] bytes = new byte[length];
        for (int i = 0; i < length; i++) {
            bytes[i] = (byte) i;
        }
        return bytes;
    }

    @Test
    void matchesTheReferenceVectors() {
        assertEquals(0x726fdb47dd0e0e31L, REFERENCE_KEY.hash(counting(0)));
        assertEquals(0xa129ca6149be45e5L, REFERENCE_KEY.hash(counting(15)), "the paper's example");
    }

    @Test
    void eachStoreDrawsAKeyOfItsOwn() {
        byte[] message = "idempotency-key".getBytes(java.nio.charset.StandardCharsets.UTF_8);
        // A constant key, of any value, would hash alike here (two random 64-bit halves agree by chance 2^-64).
        assertNotEquals(SipHash.withRandomKey().hash(message), SipHash.withRandomKey().hash(message));
    }
}
