package dev.idempotent.seatgrant.server.junit;

import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Keeps the test classes that the extension's tests run through the engine test kit from running on their own (an
 * IDE running the whole package would otherwise run them, out of context): they run only when the kit passes
 * {@value #PARAMETER}.
 */
final class OnlyThroughTestKit implements ExecutionCondition {

    static final String PARAMETER = "fake-server.extension-under-test";

    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
        return context.getConfigurationParameter(PARAMETER).isPresent()
                ? ConditionEvaluationResult.enabled("run by the engine test kit")
                : ConditionEvaluationResult.disabled("runs only through the engine test kit, from its enclosing test");
    }
}
