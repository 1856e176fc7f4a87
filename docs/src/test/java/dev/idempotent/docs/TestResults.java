package dev.idempotent.docs;

import java.util.List;
import java.util.NoSuchElementException;
import java.util.stream.Collectors;

/**
 * What one {@link StarterRun#test(String...)} saw: one {@link TestResult} per test, plus one per
 * container (a test class) that failed on its own, such as a {@code @BeforeAll} that threw.
 *
 * <p>The lookups fail closed: a test that was renamed or never ran is "absent", and
 * {@link #get(String, String)} throws rather than answering "not failed". Immutable.
 */
public record TestResults(List<TestResult> all) {

    /** How one test (or failed container) ended. */
    public enum Status { PASSED, FAILED, ABORTED, SKIPPED }

    /**
     * One test: the class and method it came from ({@code method} is empty for a container), the
     * display name (which tells parameterized invocations apart), how it ended, and the failure's
     * {@code toString()} (empty when it passed).
     */
    public record TestResult(String className, String method, String displayName, Status status, String failure) {
    }

    public TestResults {
        all = List.copyOf(all);
    }

    /** The results of the tests (not containers) in one class, in execution order. */
    public List<TestResult> of(String className) {
        return all.stream().filter(r -> r.className().equals(className) && !r.method().isEmpty()).toList();
    }

    /**
     * The single result of {@code className#method}; throws {@link NoSuchElementException} when it did
     * not run, and {@link IllegalStateException} when it ran more than once (use {@link #of(String)}
     * for parameterized tests).
     */
    public TestResult get(String className, String method) {
        List<TestResult> matches = all.stream()
                .filter(r -> r.className().equals(className) && r.method().equals(method))
                .toList();
        if (matches.isEmpty()) {
            throw new NoSuchElementException(className + "#" + method + " did not run; ran:\n" + summary());
        }
        if (matches.size() > 1) {
            throw new IllegalStateException(className + "#" + method + " ran " + matches.size() + " times");
        }
        return matches.get(0);
    }

    /** True when the class ran at least one test, every one passed, and the class itself did not fail. */
    public boolean allPassed(String className) {
        List<TestResult> tests = of(className);
        boolean containerFailed = all.stream()
                .anyMatch(r -> r.className().equals(className) && r.method().isEmpty());
        return !tests.isEmpty() && !containerFailed && tests.stream().allMatch(r -> r.status() == Status.PASSED);
    }

    /** One line per result, for assertion messages. */
    public String summary() {
        return all.stream()
                .map(r -> r.status() + " " + r.className() + (r.method().isEmpty() ? "" : "#" + r.method())
                        + (r.displayName().equals(r.method() + "()") ? "" : " [" + r.displayName() + "]")
                        + (r.failure().isEmpty() ? "" : " -- " + r.failure()))
                .collect(Collectors.joining("\n"));
    }
}
