package dev.idempotent.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The two ways a key is written, and what each refuses, without a socket. */
class KeyFormTest {

    @ParameterizedTest
    @ValueSource(strings = {"evt_1", "a b", "\"quoted\"", "back\\slash", "~!@#$%^&*()", "x"})
    void aTokenIsSentAsItIs(String key) {
        assertEquals(key, KeyForm.TOKEN.encode(key));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', quoteCharacter = '\'', value = {
        "evt_1 | \"evt_1\"",
        "a b | \"a b\"",
        "say \"hi\" | \"say \\\"hi\\\"\"",
        "c:\\tmp | \"c:\\\\tmp\"",
        "' lead' | '\" lead\"'",
    })
    void aStructuredKeyIsAnSfStringWithBackslashAndQuoteEscaped(String key, String header) {
        assertEquals(header, KeyForm.STRUCTURED.encode(key));
    }

    @Test
    void eitherFormRefusesAnEmptyKey() {
        for (KeyForm form : KeyForm.values()) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> form.encode(""));
            assertTrue(e.getMessage().contains("empty"), e.getMessage());
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"a\nb", "a\rb", "a\tb", "\u0000", "a\u007Fb", "\u001F"})
    void eitherFormRefusesAControlCharacterNamingTheRuleNotTheKey(String key) {
        for (KeyForm form : KeyForm.values()) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> form.encode(key));
            assertTrue(e.getMessage().contains("control character"), e.getMessage());
            assertFalse(e.getMessage().contains(key), "the message names the rule, not the value");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"caf\u00e9", "\u20ac", "\uD83D\uDE00", "\u0080"})
    void outsideAsciiEachFormNamesItsOwnRule(String key) {
        IllegalArgumentException structured = assertThrows(IllegalArgumentException.class,
                () -> KeyForm.STRUCTURED.encode("k" + key));
        assertTrue(structured.getMessage().contains("0x20-0x7E"), structured.getMessage());
        int first = 1 + (int) key.chars().takeWhile(c -> c <= 0x7E).count();
        assertTrue(structured.getMessage().endsWith("(position " + first + ")"), structured.getMessage());
        IllegalArgumentException token = assertThrows(IllegalArgumentException.class,
                () -> KeyForm.TOKEN.encode("k" + key));
        assertTrue(token.getMessage().startsWith("a TOKEN key must be ASCII"), token.getMessage());
    }

    @ParameterizedTest
    @ValueSource(strings = {" lead", "trail ", " "})
    void aTokenRefusesASpaceHttpWouldStrip(String key) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> KeyForm.TOKEN.encode(key));
        assertTrue(e.getMessage().contains("start or end with a space"), e.getMessage());
        // An sf-string quotes the space, so nothing is stripped.
        assertEquals("\"" + key + "\"", KeyForm.STRUCTURED.encode(key));
    }

    @Test
    void theEdgesOfPrintableAsciiAreCarried() {
        assertEquals("\" ~\"", KeyForm.STRUCTURED.encode(" ~"));
        assertEquals("!~", KeyForm.TOKEN.encode("!~"));
    }
}
