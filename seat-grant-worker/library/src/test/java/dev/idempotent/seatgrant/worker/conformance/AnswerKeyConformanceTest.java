package dev.idempotent.seatgrant.worker.conformance;

import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.options;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import dev.idempotent.seatgrant.worker.conformance.Implementation.Kind;
import java.util.EnumSet;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The answer key's rows of the conformance table, through {@code handle} and through {@code handleAsync}: sync
 * and async share one policy, and this proves it scenario by scenario. (The lab runs the fixture's and the
 * minimal patch's rows of the same table.)
 */
class AnswerKeyConformanceTest {

    @RegisterExtension
    static final WireMockExtension wm = WireMockExtension.newInstance()
            .options(options().dynamicPort().bindAddress("127.0.0.1").containerThreads(12))
            .build();

    @TestFactory
    Stream<DynamicTest> handleAndHandleAsyncPassEveryScenario() {
        return Scenarios.tests(wm, EnumSet.allOf(AnswerKey.class)).stream();
    }

    @Test
    void theTableIsTheOneTheDocsDescribe() {
        // The README and the packet quote these counts; change them together.
        assertEquals(13, Scenarios.names().size());
        assertEquals(Scenarios.names(), Scenarios.passedBy(Kind.ANSWER_KEY), "the answer key passes everything");
        assertEquals(9, Scenarios.passedBy(Kind.MINIMAL_PATCH).size());
        assertEquals(1, Scenarios.passedBy(Kind.FIXTURE).size());
        List<String> numbered = Scenarios.names().stream().filter(n -> n.startsWith("outcome ")).toList();
        assertEquals(5, numbered.size());
        for (String n : numbered) {
            assertTrue(Scenarios.passedBy(Kind.MINIMAL_PATCH).contains(n), "the minimal patch must pass " + n);
        }
    }
}
