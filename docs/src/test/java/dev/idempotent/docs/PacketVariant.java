package dev.idempotent.docs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Writes a renamed variant of an interview packet, so a hiring round never hands out the exact files that are
 * public in this repository: the package, the class names, the worker's fields and methods, and the statuses
 * the starter mishandles are all different, consistently across the starter, the prompt, the reference patch
 * and the interviewer's tests.
 *
 * <p>Run it from the project root with the JDK's source launcher (it depends on nothing but the JDK):
 * <pre>{@code java docs/src/test/java/dev/idempotent/docs/PacketVariant.java seat-grant 7 /tmp/seat-grant-v7}</pre>
 * The number picks the names; the same number always gives the same variant. The output folder holds
 * {@code PROMPT.md}, {@code starter/}, {@code reference.patch}, the interviewer's tests ({@code key-tests/} or
 * {@code interviewer-tests/}) and {@code variant.properties}, the mapping, which stays with the interviewers.
 *
 * <p>Renaming is by whole token (a name never changes inside a longer name), except for the statuses, which are
 * swapped wherever they stand as a number, in identifiers too ({@code retries503ThenSucceeds}). Line counts do
 * not change, so the reference patch's hunks still apply strictly. {@code VariantPacketTest} checks that
 * every variant it generates still fails closed.
 */
public final class PacketVariant {

    private static final List<String> SEAT_GRANT_FILES = List.of("PROMPT.md", "starter", "reference.patch", "key-tests");
    private static final List<String> FETCH_CLIENT_FILES =
            List.of("PROMPT.md", "starter", "reference.patch", "interviewer-tests");

    private PacketVariant() {
    }

    public static void main(String[] args) {
        if (args.length < 3 || args.length > 4) {
            System.err.println("usage: java PacketVariant.java seat-grant|fetch-client NUMBER OUT_DIR [PROJECT_ROOT]");
            System.exit(2);
        }
        int number;
        try {
            number = Integer.parseInt(args[1]);
        } catch (NumberFormatException e) {
            System.err.println("NUMBER must be an integer, not " + args[1]);
            System.exit(2);
            return;
        }
        if (!args[0].equals("seat-grant") && !args[0].equals("fetch-client")) {
            System.err.println("no packet " + args[0] + ": seat-grant or fetch-client");
            System.exit(2);
        }
        Path root = Path.of(args.length == 4 ? args[3] : ".");
        Path out = Path.of(args[2]);
        if (Files.exists(out)) {
            System.err.println(out + " exists; choose a new folder");
            System.exit(2);
        }
        Map<String, String> mapping = write(root.resolve("docs/packets").resolve(args[0]), args[0], number, out);
        System.out.println("wrote " + out + " (" + mapping.size() + " renamings; see variant.properties)");
    }

    /**
     * Writes the variant {@code number} of {@code packet} (its folder: {@code packetDir}) to {@code out} and
     * returns the mapping from each original name to its replacement, in the order applied.
     */
    public static Map<String, String> write(Path packetDir, String packet, int number, Path out) {
        Map<String, String> names = switch (packet) {
            case "seat-grant" -> seatGrant(number);
            case "fetch-client" -> fetchClient(number);
            default -> throw new IllegalArgumentException("no packet " + packet + " (seat-grant or fetch-client)");
        };
        List<String> parts = packet.equals("seat-grant") ? SEAT_GRANT_FILES : FETCH_CLIENT_FILES;
        try {
            for (String part : parts) {
                Path from = packetDir.resolve(part);
                try (Stream<Path> files = Files.walk(from)) {
                    for (Path file : (Iterable<Path>) files.filter(Files::isRegularFile)::iterator) {
                        String relative = packetDir.relativize(file).toString().replace('\\', '/');
                        Path target = out.resolve(rename(relative, names));
                        Files.createDirectories(target.getParent());
                        String text = Files.readString(file, StandardCharsets.UTF_8);
                        // Statuses are swapped in code, patches and prose, never in a pom's version numbers.
                        boolean statuses = !relative.endsWith(".xml");
                        Files.writeString(target, rename(text, statuses ? names : withoutStatuses(names)),
                                StandardCharsets.UTF_8);
                        if (Files.isExecutable(file)) {
                            target.toFile().setExecutable(true);
                        }
                    }
                }
            }
            StringBuilder properties = new StringBuilder("# " + packet + " variant " + number
                    + ": original = replacement. For interviewers only.\n");
            names.forEach((from, to) -> properties.append(from.replace("=", "\\=").replace(":", "\\:"))
                    .append(" = ").append(to).append('\n'));
            Files.writeString(out.resolve("variant.properties"), properties, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return names;
    }

    /**
     * Applies every renaming to {@code text}: names as whole tokens, statuses wherever they stand as a number.
     * On an import line (in a source or a patch) only package names change, so a library's own package
     * ({@code com.github.tomakehurst.wiremock.http}) keeps a segment that happens to match a renamed field.
     */
    static String rename(String text, Map<String, String> names) {
        Map<String, String> packages = new LinkedHashMap<>(names);
        packages.keySet().removeIf(name -> !name.contains(".") && !name.contains("/"));
        StringBuilder out = new StringBuilder(text.length());
        for (String line : text.split("(?<=\n)", -1)) {
            boolean importLine = line.matches("[-+ ]?import\\s.*\\R?");
            out.append(renameAll(line, importLine ? packages : names));
        }
        return out.toString();
    }

    private static String renameAll(String text, Map<String, String> names) {
        Map<String, String> placeholders = new LinkedHashMap<>();
        String result = text;
        int i = 0;
        // Two passes through placeholders, so a swap (503 <-> 502) does not undo itself.
        for (Map.Entry<String, String> e : names.entrySet()) {
            String placeholder = "\u0000" + (i++) + "\u0000";
            placeholders.put(placeholder, e.getValue());
            result = pattern(e.getKey()).matcher(result).replaceAll(Matcher.quoteReplacement(placeholder));
        }
        for (Map.Entry<String, String> e : placeholders.entrySet()) {
            result = result.replace(e.getKey(), e.getValue());
        }
        return result;
    }

    private static Pattern pattern(String name) {
        if (isStatus(name)) {
            return Pattern.compile("(?<![0-9.])" + name + "(?![0-9])");
        }
        // The field "http" is renamed; the scheme in "http://127.0.0.1" and the JDK's java.net.http are not.
        return Pattern.compile("(?<![A-Za-z0-9_])(?<!java\\.net\\.)" + Pattern.quote(name) + "(?![A-Za-z0-9_]|://)");
    }

    private static boolean isStatus(String name) {
        return name.chars().allMatch(Character::isDigit);
    }

    private static Map<String, String> withoutStatuses(Map<String, String> names) {
        Map<String, String> kept = new LinkedHashMap<>(names);
        kept.keySet().removeIf(PacketVariant::isStatus);
        return kept;
    }

    private static String pick(List<String> choices, int number) {
        return choices.get(Math.floorMod(number, choices.size()));
    }

    private static Map<String, String> seatGrant(int number) {
        // Each list has a prime length, so nearby numbers differ in every name.
        String pkg = pick(List.of("com.northwind.access.grants", "org.example.licensing.worker",
                "io.acme.teams.provisioning", "net.contoso.members.sync", "com.fabrikam.workspace.access"), number);
        String worker = pick(List.of("SeatAssignmentWorker", "LicenseGrantHandler", "MembershipProvisioner",
                "SeatAllocator", "AccessGrantConsumer", "WorkspaceSeatSync", "MemberOnboarder"), number);
        Map<String, String> names = new LinkedHashMap<>();
        names.put("dev.idempotent.seatgrant.worker.fixture", pkg);
        names.put("dev/idempotent/seatgrant/worker/fixture", pkg.replace('.', '/'));
        names.put("dev.idempotent", organisation(pkg)); // the logger in logback-test.xml, the pom's groupId
        names.put("AgentSeatGrantWorkerSmokeTest", worker + "SmokeTest");
        names.put("AgentSeatGrantWorker", worker);
        names.put("SeatEvent", pick(List.of("AssignmentRequested", "GrantRequest", "MemberAdded"), number));
        names.put("GrantBody", pick(List.of("AssignmentPayload", "GrantPayload", "MemberPayload", "SeatPayload", "AccessPayload"), number));
        names.put("Granted", pick(List.of("Assigned", "SeatCreated", "Provisioned", "Allocated", "Issued", "Added", "Created"), number));
        names.put("postGrant", pick(List.of("sendAssignment", "callGrantApi", "createSeat"), number));
        names.put("handleSeatRequested", pick(List.of("onAssignmentRequested", "handle", "process", "accept", "consume"), number));
        names.put("seatsUri", pick(List.of("endpoint", "grantsUrl", "target", "apiUri", "seatsEndpoint", "createUri", "postUri"), number));
        names.put("Delay", pick(List.of("Pause", "Hold", "Wait"), number));
        names.put("delay", pick(List.of("pause", "hold", "waitFor"), number));
        names.put("http", pick(List.of("client", "httpClient", "transport", "web", "httpc"), number));
        names.put("mapper", pick(List.of("codec", "objectMapper", "jsonMapper", "reader", "jackson", "om", "jsonCodec"), number));
        names.put("RunOnce", pick(List.of("Deliver", "OneDelivery", "Consume"), number));
        // The statuses the key tests feed the starter: outcome 3's client error and outcomes 4 and 5's outage,
        // each swapped with another of its class, so every list of statuses keeps its members.
        String clientError = pick(List.of("422", "403", "401"), number);
        names.put("400", clientError);
        names.put(clientError, "400");
        String outage = pick(List.of("429", "502", "504", "429", "502"), number);
        names.put("503", outage);
        names.put(outage, "503");
        return names;
    }

    private static Map<String, String> fetchClient(int number) {
        String pkg = pick(List.of("com.northwind.partner.http", "org.example.feeds.client", "io.acme.catalog.remote",
                "net.contoso.pricing.api", "com.fabrikam.rates.source"), number);
        String client = pick(List.of("PartnerApi", "FeedClient", "RemoteCatalog", "PriceSource", "RatesClient",
                "InventoryFeed", "StatusBoard"), number);
        Map<String, String> names = new LinkedHashMap<>();
        names.put("dev.idempotent.fetch", pkg);
        names.put("dev/idempotent/fetch", pkg.replace('.', '/'));
        names.put("dev.idempotent", organisation(pkg));
        names.put("FetchClientContractTest", client + "ContractTest");
        names.put("FetchClientRetryTest", client + "RetryTest");
        names.put("FetchClient", client);
        names.put("FetchException", client + "Exception");
        names.put("JsonFetcher", pick(List.of("PartnerHttp", "FeedFetcher", "RemoteGetter"), number));
        names.put("Sleeper", pick(List.of("Pause", "Waiter", "Nap", "Delayer", "Idler"), number));
        names.put("fetchJson", pick(List.of("getJson", "readJson", "loadObject", "fetchObject", "getObject", "pull", "read"), number));
        // The outage status the ticket asks to retry, swapped with another 5xx everywhere.
        String outage = pick(List.of("502", "504", "500"), number);
        names.put("503", outage);
        names.put(outage, "503");
        return names;
    }

    private static String organisation(String pkg) {
        String[] parts = pkg.split("\\.");
        return parts[0] + "." + parts[1];
    }

    /** The name a variant uses for {@code original}: {@code original} itself when it was not renamed. */
    static String renamed(Map<String, String> names, String original) {
        return rename(original, names);
    }
}
