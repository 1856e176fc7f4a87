package dev.idempotent.docs;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import dev.idempotent.docs.PacketVariant.UnifiedDiff;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.StandardLocation;
import javax.tools.ToolProvider;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.discovery.ClassSelector;
import org.junit.platform.engine.support.descriptor.ClassSource;
import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

/**
 * Builds and tests a packet's starter project inside the running JVM, with nothing but the JDK and this
 * module's test classpath: the shared harness behind every packet check.
 *
 * <p>Typical use, the whole fail-closed check of a packet:
 * <pre>{@code
 * Path packet = ProjectRoot.packet("fetch-client");
 * try (StarterRun run = StarterRun.copyOf(packet.resolve("starter"))) {
 *     TestResults before = run.test(CONTRACT, RETRY);          // compile src/main + src/test, run classes
 *     assertTrue(before.allPassed(CONTRACT));
 *     assertEquals(Status.FAILED, before.get(RETRY, "retries503ThenSucceeds").status());
 *
 *     run.applyPatch(packet.resolve("reference.patch"));       // strict: context must match exactly
 *     TestResults after = run.test(CONTRACT, RETRY);           // recompiles from the patched tree
 *     assertTrue(after.allPassed(RETRY));
 *     assertEquals(List.of(), FileTrees.differences(moduleMain, run.root().resolve("src/main/java")));
 * }
 * }</pre>
 *
 * <p>How it works, and what a starter must look like: a Maven layout ({@code src/main/java},
 * {@code src/test/java}, optional {@code src/*}{@code /resources}). {@link #copyOf(Path)} copies it to a
 * fresh temporary directory, so the packet in the repository is never written. {@link #test(String...)}
 * compiles main then test sources with {@link javax.tools.JavaCompiler} ({@code --release} from the
 * starter pom's {@code maven.compiler.release}, else 17) into a new output directory each time, against
 * this JVM's test classpath; whatever the starter imports (Jackson, WireMock, JUnit) must therefore be a
 * test dependency of the docs module. Classpath entries that already contain one of the starter's
 * classes (for example the answer-key module's jar) are left out, and the compiled classes are loaded
 * child-first, so the starter's own classes are the ones under test. The named test classes then run
 * through the JUnit Platform Launcher, in this JVM, and come back as {@link TestResults}.
 *
 * <p>Compile errors throw {@link CompilationFailed} with javac's diagnostics. {@link #close()} deletes
 * the temporary directory. Not thread-safe: one run per test method.
 */
public final class StarterRun implements AutoCloseable {

    /** Thrown by {@link #test(String...)} when the starter does not compile; the message lists javac's errors. */
    public static final class CompilationFailed extends RuntimeException {
        private static final long serialVersionUID = 1L;

        CompilationFailed(String message) {
            super(message);
        }
    }

    private static final ConcurrentMap<Path, Set<String>> JAR_ENTRIES = new ConcurrentHashMap<>();

    private final Path root;
    private final AtomicInteger builds = new AtomicInteger();

    private StarterRun(Path root) {
        this.root = root;
    }

    /** Copies the starter project at {@code starterDir} into a new temporary directory. */
    public static StarterRun copyOf(Path starterDir) {
        if (!Files.isDirectory(starterDir.resolve("src"))) {
            throw new IllegalArgumentException("not a Maven project with sources: " + starterDir);
        }
        try {
            Path root = Files.createTempDirectory("starter-run-").resolve("project");
            FileTrees.copy(starterDir, root);
            FileTrees.delete(root.resolve("target"));
            return new StarterRun(root);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The copy's root directory; tests may read or edit files under it (to plant a failure mode, say). */
    public Path root() {
        return root;
    }

    /** Applies a unified diff (paths with one leading component, as {@code patch -p1}) to the copy. */
    public void applyPatch(Path patchFile) {
        UnifiedDiff.read(patchFile).applyTo(root);
    }

    /**
     * Compiles the copy as it is now and runs the named test classes.
     *
     * @param testClassNames fully qualified names of test classes under {@code src/test/java}
     * @throws CompilationFailed when main or test sources do not compile
     */
    public TestResults test(String... testClassNames) {
        Path build = root.resolve("target").resolve("build-" + builds.incrementAndGet());
        Path classes = build.resolve("classes");
        Path testClasses = build.resolve("test-classes");
        List<Path> mainSources = javaSources(root.resolve("src/main/java"));
        List<Path> testSources = javaSources(root.resolve("src/test/java"));

        List<String> classpath = classpathWithout(shadowedBy(mainSources, testSources));
        compile(mainSources, classpath, classes);
        List<String> testClasspath = new ArrayList<>();
        testClasspath.add(classes.toString());
        testClasspath.addAll(classpath);
        compile(testSources, testClasspath, testClasses);
        copyResources(root.resolve("src/main/resources"), classes);
        copyResources(root.resolve("src/test/resources"), testClasses);

        try (URLClassLoader loader = new ChildFirstLoader(new URL[] {url(testClasses), url(classes)},
                StarterRun.class.getClassLoader())) {
            return runTests(loader, testClassNames);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Deletes the temporary copy. */
    @Override
    public void close() {
        FileTrees.delete(root.getParent());
    }

    private String release() {
        Path pom = root.resolve("pom.xml");
        if (Files.isRegularFile(pom)) {
            String release = Pom.read(pom).properties().get("maven.compiler.release");
            if (release != null) {
                return release;
            }
        }
        return "17";
    }

    private void compile(List<Path> sources, List<String> classpath, Path output) {
        if (sources.isEmpty()) {
            return;
        }
        try {
            Files.createDirectories(output);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<String> errors = Javac.compile(sources, classpath, output, release());
        if (!errors.isEmpty()) {
            throw new CompilationFailed(String.join("\n", errors));
        }
    }

    /**
     * A source file read from disk by each compilation that needs it. The shared file manager's own source objects
     * would keep a file's text while its time stamp stays the same, and a patch applied within the same
     * millisecond as the build before it must still be compiled.
     */
    private static final class SourceFile extends SimpleJavaFileObject {

        private final Path path;

        SourceFile(Path path) {
            super(path.toUri(), Kind.SOURCE);
            this.path = path;
        }

        @Override
        public CharSequence getCharContent(boolean ignoreEncodingErrors) throws IOException {
            return Files.readString(path, StandardCharsets.UTF_8);
        }
    }

    /**
     * The system compiler with one standard file manager for every build in this JVM, so the classpath's jars
     * (WireMock's standalone jar alone holds thousands of entries) and the platform's class files are opened and
     * indexed once, not once per build; {@link JavaCompiler} lets a standard file manager serve sequential
     * compilations. Builds take turns: the file manager's locations are set per build.
     */
    private static final class Javac {

        private static JavaCompiler compiler;
        private static StandardJavaFileManager files;

        private Javac() {
        }

        /** Compiles {@code sources} into {@code output}; returns javac's errors, empty when it compiled. */
        static synchronized List<String> compile(List<Path> sources, List<String> classpath, Path output, String release) {
            if (compiler == null) {
                compiler = ToolProvider.getSystemJavaCompiler();
                if (compiler == null) {
                    throw new IllegalStateException("no system Java compiler: run the build on a JDK, not a JRE");
                }
                files = compiler.getStandardFileManager(null, Locale.ROOT, StandardCharsets.UTF_8);
            }
            DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
            try {
                files.setLocationFromPaths(StandardLocation.CLASS_PATH, classpath.stream().map(Path::of).toList());
                files.setLocationFromPaths(StandardLocation.CLASS_OUTPUT, List.of(output));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            List<String> options = List.of("--release", release, "-encoding", "UTF-8", "-proc:none");
            boolean ok = compiler.getTask(null, files, diagnostics, options, null,
                    sources.stream().map(SourceFile::new).toList()).call();
            if (ok) {
                return List.of();
            }
            List<String> errors = new ArrayList<>();
            errors.add("starter does not compile:");
            diagnostics.getDiagnostics().stream()
                    .filter(d -> d.getKind() == Diagnostic.Kind.ERROR)
                    .map(d -> d.getSource().getName() + ":" + d.getLineNumber() + ": " + d.getMessage(Locale.ROOT))
                    .forEach(errors::add);
            return errors;
        }
    }

    private static TestResults runTests(ClassLoader loader, String... testClassNames) {
        List<ClassSelector> selectors = new ArrayList<>();
        for (String name : testClassNames) {
            try {
                selectors.add(selectClass(Class.forName(name, false, loader)));
            } catch (ClassNotFoundException e) {
                throw new IllegalArgumentException("no test class " + name + " in the starter", e);
            }
        }
        List<TestResults.TestResult> results = Collections.synchronizedList(new ArrayList<>());
        TestExecutionListener listener = new TestExecutionListener() {
            @Override
            public void executionSkipped(TestIdentifier id, String reason) {
                results.add(result(id, TestResults.Status.SKIPPED, reason));
            }

            @Override
            public void executionFinished(TestIdentifier id, TestExecutionResult outcome) {
                TestResults.Status status = switch (outcome.getStatus()) {
                    case SUCCESSFUL -> TestResults.Status.PASSED;
                    case FAILED -> TestResults.Status.FAILED;
                    case ABORTED -> TestResults.Status.ABORTED;
                };
                // Containers that pass are noise; a container that fails (a @BeforeAll, an extension) is not.
                if (id.isTest() || status != TestResults.Status.PASSED) {
                    results.add(result(id, status, outcome.getThrowable().map(Throwable::toString).orElse("")));
                }
            }
        };
        LauncherDiscoveryRequest request = LauncherDiscoveryRequestBuilder.request().selectors(selectors).build();
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        thread.setContextClassLoader(loader);
        try {
            Launcher launcher = LauncherFactory.create();
            launcher.execute(request, listener);
        } finally {
            thread.setContextClassLoader(previous);
        }
        return new TestResults(results);
    }

    private static TestResults.TestResult result(TestIdentifier id, TestResults.Status status, String failure) {
        String className = "";
        String method = "";
        if (id.getSource().orElse(null) instanceof MethodSource source) {
            className = source.getClassName();
            method = source.getMethodName();
        } else if (id.getSource().orElse(null) instanceof ClassSource source) {
            className = source.getClassName();
        }
        return new TestResults.TestResult(className, method, id.getDisplayName(), status, failure);
    }

    private static List<Path> javaSources(Path dir) {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            return paths.filter(p -> p.toString().endsWith(".java")).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The class-file paths ({@code a/b/C.class}) that the starter's top-level sources will produce. */
    private Set<String> shadowedBy(List<Path> mainSources, List<Path> testSources) {
        Set<String> classFiles = new java.util.HashSet<>();
        for (Path source : Stream.concat(mainSources.stream(), testSources.stream()).toList()) {
            Path base = source.startsWith(root.resolve("src/main/java")) ? root.resolve("src/main/java")
                    : root.resolve("src/test/java");
            String relative = base.relativize(source).toString().replace(File.separatorChar, '/');
            if (!relative.endsWith("package-info.java")) {
                classFiles.add(relative.substring(0, relative.length() - ".java".length()) + ".class");
            }
        }
        return classFiles;
    }

    /** This JVM's test classpath, minus entries that hold any of {@code classFiles}. */
    private static List<String> classpathWithout(Set<String> classFiles) {
        String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        List<String> kept = new ArrayList<>();
        for (String entry : classpath.split(File.pathSeparator)) {
            if (!entry.isBlank() && !containsAny(Path.of(entry), classFiles)) {
                kept.add(entry);
            }
        }
        return kept;
    }

    private static boolean containsAny(Path entry, Set<String> classFiles) {
        if (Files.isDirectory(entry)) {
            return classFiles.stream().anyMatch(f -> Files.exists(entry.resolve(f)));
        }
        if (!Files.isRegularFile(entry)) {
            return false;
        }
        Set<String> entries = jarEntries(entry);
        return classFiles.stream().anyMatch(entries::contains);
    }

    /**
     * The entry names of a jar on the test classpath, read once per JVM: every build asks the same jars, and they do
     * not change while the tests run. A jar that cannot be read has no entries, as before.
     */
    private static Set<String> jarEntries(Path jar) {
        return JAR_ENTRIES.computeIfAbsent(jar, path -> {
            try (JarFile file = new JarFile(path.toFile())) {
                return file.stream().map(JarEntry::getName).collect(Collectors.toUnmodifiableSet());
            } catch (IOException e) {
                return Set.of();
            }
        });
    }

    private static void copyResources(Path from, Path to) {
        if (Files.isDirectory(from)) {
            FileTrees.copy(from, to);
        }
    }

    private static URL url(Path dir) {
        try {
            return dir.toUri().toURL();
        } catch (MalformedURLException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Loads a class from the starter's output directories before asking the parent, so a same-named
     * class elsewhere on the classpath (the answer key's jar) cannot stand in for the starter's.
     */
    private static final class ChildFirstLoader extends URLClassLoader {

        static {
            ClassLoader.registerAsParallelCapable();
        }

        ChildFirstLoader(URL[] urls, ClassLoader parent) {
            super(urls, parent);
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            synchronized (getClassLoadingLock(name)) {
                Class<?> loaded = findLoadedClass(name);
                if (loaded == null && !name.startsWith("java.")) {
                    try {
                        loaded = findClass(name);
                    } catch (ClassNotFoundException notOurs) {
                        loaded = null;
                    }
                }
                if (loaded == null) {
                    loaded = super.loadClass(name, false);
                }
                if (resolve) {
                    resolveClass(loaded);
                }
                return loaded;
            }
        }

        @Override
        public URL getResource(String name) {
            URL own = findResource(name);
            return own != null ? own : super.getResource(name);
        }
    }
}
