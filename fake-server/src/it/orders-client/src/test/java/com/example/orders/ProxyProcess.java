package com.example.orders;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code fake-server proxy} as its own process, from the outer build's jar (the system property
 * {@code fake.server.jar}): this build depends on the proxy's command line, not on its classes.
 */
final class ProxyProcess implements AutoCloseable {

    private static final Pattern STARTED = Pattern.compile("^fake-server proxy listening on (http://\\S+/) ");

    private final Process process;
    private final URI base;

    private ProxyProcess(Process process, URI base) {
        this.process = process;
        this.base = base;
    }

    static ProxyProcess start(URI upstream, String... flags) throws Exception {
        String jar = System.getProperty("fake.server.jar");
        if (jar == null || !Files.isRegularFile(Path.of(jar))) {
            throw new AssertionError("set -Dfake.server.jar to fake-server's runnable jar; got " + jar);
        }
        String java = ProcessHandle.current().info().command().orElse("java");
        List<String> command = new java.util.ArrayList<>(List.of(java, "-jar", jar, "proxy", "--upstream",
                upstream.toString(), "--port", "0"));
        command.addAll(List.of(flags));
        Process p = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        String line;
        try {
            line = CompletableFuture.supplyAsync(() -> {
                try {
                    return out.readLine();
                } catch (IOException e) {
                    return null;
                }
            }).get(90, TimeUnit.SECONDS);
        } catch (Exception e) {
            p.destroyForcibly();
            throw e;
        }
        Matcher m = line == null ? null : STARTED.matcher(line);
        if (m == null || !m.find()) {
            p.destroyForcibly();
            throw new AssertionError("the proxy did not start: " + line);
        }
        return new ProxyProcess(p, URI.create(m.group(1)));
    }

    URI base() {
        return base;
    }

    /** The proxy's ledger, {@code GET /__admin/ledger}, as JSON text. */
    String ledger() throws Exception {
        HttpResponse<String> r = HttpClient.newHttpClient().send(
                HttpRequest.newBuilder(base.resolve("/__admin/ledger")).build(), HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 200) {
            throw new AssertionError("ledger: " + r.statusCode());
        }
        return r.body();
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
    }
}
