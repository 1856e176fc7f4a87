package dev.idempotent.fetch;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import java.io.IOException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The frozen contract of the fetch client: what its callers compile against and rely on.
 *
 * <p>FROZEN: leave this file exactly as it is. A change that needs this file edited has changed the
 * contract.
 */
class FetchClientContractTest {

    @RegisterExtension
    static WireMockExtension server = WireMockExtension.newInstance()
            .options(wireMockConfig().dynamicPort().bindAddress("127.0.0.1"))
            .build();

    private static String url(String path) {
        return "http://127.0.0.1:" + server.getPort() + path;
    }

    // Java has no default arguments: the one-argument overload is the 5 second default, and the
    // surface is exactly these two methods, so no caller can learn a new knob from a patch.
    @Test
    void publicSignatureIsFrozen() throws Exception {
        Class<FetchClient> client = FetchClient.class;
        assertTrue(Modifier.isPublic(client.getModifiers()) && Modifier.isFinal(client.getModifiers()));
        assertEquals(0, client.getConstructors().length, "FetchClient has no public constructor");
        assertEquals(0, client.getFields().length, "FetchClient has no public field");

        Set<String> methods = publicDeclaredMethods(client);
        assertEquals(Set.of(
                "public static java.util.Map<java.lang.String, java.lang.Object>"
                        + " dev.idempotent.fetch.FetchClient.fetchJson(java.lang.String)"
                        + " throws dev.idempotent.fetch.FetchException",
                "public static java.util.Map<java.lang.String, java.lang.Object>"
                        + " dev.idempotent.fetch.FetchClient.fetchJson(java.lang.String,java.time.Duration)"
                        + " throws dev.idempotent.fetch.FetchException"),
                methods);

        Class<FetchException> error = FetchException.class;
        assertTrue(Modifier.isPublic(error.getModifiers()) && Modifier.isFinal(error.getModifiers()));
        assertEquals(Exception.class, error.getSuperclass(), "FetchException is checked, like FetchError");
        assertEquals(0, error.getConstructors().length, "only the client creates a FetchException");
        assertEquals(Set.of("public java.util.OptionalInt dev.idempotent.fetch.FetchException.status()"),
                publicDeclaredMethods(error));
        assertEquals(OptionalInt.class, error.getMethod("status").getReturnType());
    }

    @Test
    void noOtherPublicTypeInThePackage() throws Exception {
        Set<String> publicTypes = new TreeSet<>();
        for (String name : classNamesInPackageOf(FetchClient.class)) {
            Class<?> type = Class.forName(name, false, FetchClient.class.getClassLoader());
            if (Modifier.isPublic(type.getModifiers())) {
                publicTypes.add(type.getName());
            }
        }
        assertEquals(new TreeSet<>(Set.of(FetchClient.class.getName(), FetchException.class.getName())),
                publicTypes);
    }

    @Test
    void happyPath() throws Exception {
        server.stubFor(get(urlEqualTo("/v1")).willReturn(aResponse()
                .withStatus(200)
                .withHeader("Content-Type", "application/json")
                .withBody("{\"ok\": true}")));

        assertEquals(Map.of("ok", true), FetchClient.fetchJson(url("/v1")));
        assertEquals(Map.of("ok", true), FetchClient.fetchJson(url("/v1"), Duration.ofSeconds(5)));
    }

    @Test
    void status404IsAFetchException() {
        server.stubFor(get(urlEqualTo("/missing")).willReturn(aResponse().withStatus(404)));

        FetchException error = assertThrows(FetchException.class,
                () -> FetchClient.fetchJson(url("/missing")));

        assertEquals(OptionalInt.of(404), error.status());
        assertFalse(error.getMessage().isBlank());
    }

    private static Set<String> publicDeclaredMethods(Class<?> type) {
        return Arrays.stream(type.getDeclaredMethods())
                .filter(method -> Modifier.isPublic(method.getModifiers()) && !method.isSynthetic())
                .map(Method::toGenericString)
                .collect(Collectors.toSet());
    }

    /** Every class file next to {@code anchor}, nested ones included, from a directory or a jar. */
    private static List<String> classNamesInPackageOf(Class<?> anchor) throws IOException, URISyntaxException {
        String packagePath = anchor.getPackageName().replace('.', '/');
        Path location = Path.of(anchor.getProtectionDomain().getCodeSource().getLocation().toURI());
        List<String> names = new ArrayList<>();
        if (Files.isDirectory(location)) {
            try (Stream<Path> files = Files.list(location.resolve(packagePath))) {
                files.map(file -> file.getFileName().toString())
                        .filter(file -> file.endsWith(".class") && !file.equals("package-info.class"))
                        .forEach(file -> names.add(anchor.getPackageName() + "."
                                + file.substring(0, file.length() - ".class".length())));
            }
        } else {
            try (java.util.jar.JarFile jar = new java.util.jar.JarFile(location.toFile())) {
                jar.stream()
                        .map(java.util.jar.JarEntry::getName)
                        .filter(entry -> entry.startsWith(packagePath + "/") && entry.endsWith(".class")
                                && entry.indexOf('/', packagePath.length() + 1) < 0
                                && !entry.endsWith("/package-info.class"))
                        .forEach(entry -> names.add(entry.substring(0, entry.length() - ".class".length())
                                .replace('/', '.')));
            }
        }
        assertFalse(names.isEmpty(), "found no classes next to " + anchor.getName());
        return names;
    }
}
