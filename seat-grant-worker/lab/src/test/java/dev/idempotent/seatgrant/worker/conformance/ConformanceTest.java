package dev.idempotent.seatgrant.worker.conformance;

import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.options;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import java.util.EnumSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The minimal patch's and the fixture's rows of the conformance table ({@link Scenarios}, from the library's
 * test-jar). The minimal patch passes the seed's five numbered outcomes and the table records exactly where a
 * 15-minute patch stops short; the bare fixture fails what it is meant to fail. If the fixture ever passed an
 * outcome it should fail, the packet would no longer fail closed, and this suite would say so. The answer key's
 * rows run in the library, through {@code handle} and {@code handleAsync}.
 */
class ConformanceTest {

    @RegisterExtension
    static final WireMockExtension wm = WireMockExtension.newInstance()
            .options(options().dynamicPort().bindAddress("127.0.0.1").containerThreads(12))
            .build();

    @TestFactory
    Stream<DynamicTest> eachImplementationMeetsItsRowOfTheTable() {
        return Scenarios.tests(wm, EnumSet.allOf(LabImplementation.class)).stream();
    }
}
