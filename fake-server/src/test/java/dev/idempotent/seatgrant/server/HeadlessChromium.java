package dev.idempotent.seatgrant.server;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.logging.Level;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.logging.LoggingPreferences;

/**
 * Debian's chromium, headless, driven through Debian's chromedriver: the one real browser the page is tested in.
 *
 * <p>Both binaries are named explicitly, so Selenium never starts Selenium Manager and nothing downloads a browser or
 * a driver at run time. Where they are not installed ({@code .ci/install-browser} installs them), the calling test is
 * skipped with a banner on stderr, so a skip is never silent. Each instance has a fresh profile directory, deleted on
 * {@link #close()}.
 */
final class HeadlessChromium implements AutoCloseable {

    static final Path CHROMIUM = Path.of(System.getProperty("chromium.binary", "/usr/bin/chromium"));
    static final Path CHROMEDRIVER = Path.of(System.getProperty("chromedriver.binary", "/usr/bin/chromedriver"));

    private final ChromeDriver driver;
    private final Path profile;

    private HeadlessChromium(ChromeDriver driver, Path profile) {
        this.driver = driver;
        this.profile = profile;
    }

    /** Starts a browser with a window of {@code width} x {@code height}, or skips the calling test loudly. */
    static HeadlessChromium start(int width, int height) {
        skipLoudlyUnlessInstalled();
        Path profile;
        try {
            profile = Files.createTempDirectory("fake-server-chromium-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toFile());
        options.addArguments("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--disable-dev-shm-usage", "--user-data-dir=" + profile, "--window-size=" + width + "," + height,
                "--lang=en-US");
        // The browser console is read back: a CSP violation or a script error is a failed test.
        LoggingPreferences logs = new LoggingPreferences();
        logs.enable(LogType.BROWSER, Level.ALL);
        options.setCapability("goog:loggingPrefs", logs);
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(CHROMEDRIVER.toFile())
                .usingAnyFreePort()
                .build();
        // Selenium Manager unpacks itself into ~/.cache/selenium before it does anything; that folder appearing is
        // the sign it ran (and could have tried to download a browser), which the named binaries must prevent.
        Path managerCache = Path.of(System.getProperty("user.home"), ".cache", "selenium");
        boolean cacheBefore = Files.exists(managerCache);
        ChromeDriver driver = new ChromeDriver(service, options);
        if (!cacheBefore && Files.exists(managerCache)) {
            driver.quit();
            throw new AssertionError("Selenium Manager ran; the browser test must use only the named binaries");
        }
        driver.manage().timeouts().pageLoadTimeout(Duration.ofSeconds(60));
        driver.manage().timeouts().scriptTimeout(Duration.ofSeconds(30));
        return new HeadlessChromium(driver, profile);
    }

    private static HeadlessChromium shared;

    /**
     * The one browser every browser test of this JVM shares (a start costs seconds; each test sets its window's size
     * and opens its own server's origin), quit when the JVM exits; or skips the calling test loudly.
     */
    static synchronized HeadlessChromium shared() {
        if (shared == null) {
            HeadlessChromium started = start(1400, 1000);
            Runtime.getRuntime().addShutdownHook(new Thread(started::close, "chromium-quit"));
            shared = started;
        }
        return shared;
    }

    ChromeDriver driver() {
        return driver;
    }

    private static void skipLoudlyUnlessInstalled() {
        boolean present = Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER);
        if (!present) {
            String message = "BROWSER TEST SKIPPED: " + CHROMIUM + " or " + CHROMEDRIVER + " is missing. "
                    + "Run .ci/install-browser (apt-get install chromium chromium-driver) to test the incident page.";
            System.err.println();
            System.err.println("!".repeat(message.length()));
            System.err.println(message);
            System.err.println("!".repeat(message.length()));
            System.err.println();
        }
        Assumptions.assumeTrue(present, "chromium and chromedriver are not installed; see .ci/install-browser");
    }

    @Override
    public void close() {
        try {
            driver.quit();
        } finally {
            deleteQuietly(profile);
        }
    }

    private static void deleteQuietly(Path dir) {
        try (Stream<Path> walk = Files.walk(dir)) {
            walk.sorted(Comparator.reverseOrder()).map(Path::toFile).forEach(File::delete);
        } catch (IOException ignored) {
            // A leftover temp profile is harmless; the browser may still hold a lock file for a moment.
        }
    }
}
