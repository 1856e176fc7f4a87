package dev.idempotent.docs;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;
import org.xml.sax.SAXException;

/**
 * The few facts a packet check needs from a {@code pom.xml}: its properties and the version text of
 * every dependency and plugin, read with the JDK's XML parser.
 *
 * <p>{@link #versionsDisagreeingWith(Pom)} is the drift check between a standalone starter pom and the
 * root pom that pins the project's versions. Immutable.
 */
public final class Pom {

    private final Path file;
    private final Map<String, String> properties;
    private final List<String> artifactVersions;

    private Pom(Path file, Map<String, String> properties, List<String> artifactVersions) {
        this.file = file;
        this.properties = Map.copyOf(properties);
        this.artifactVersions = List.copyOf(artifactVersions);
    }

    /** Parses {@code pomFile}; external entities and DTDs are refused. */
    public static Pom read(Path pomFile) {
        try (InputStream in = Files.newInputStream(pomFile)) {
            DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
            factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            factory.setNamespaceAware(false);
            Document doc = factory.newDocumentBuilder().parse(in);
            Element project = doc.getDocumentElement();

            Map<String, String> properties = new LinkedHashMap<>();
            for (Element props : children(project, "properties")) {
                NodeList nodes = props.getChildNodes();
                for (int i = 0; i < nodes.getLength(); i++) {
                    if (nodes.item(i) instanceof Element property) {
                        properties.put(property.getTagName(), property.getTextContent().strip());
                    }
                }
            }
            List<String> versions = new ArrayList<>();
            for (String container : List.of("dependency", "plugin")) {
                NodeList nodes = doc.getElementsByTagName(container);
                for (int i = 0; i < nodes.getLength(); i++) {
                    for (Element version : children((Element) nodes.item(i), "version")) {
                        versions.add(version.getTextContent().strip());
                    }
                }
            }
            return new Pom(pomFile, properties, versions);
        } catch (IOException | ParserConfigurationException | SAXException e) {
            throw new IllegalStateException("cannot read " + pomFile, e);
        }
    }

    /** The {@code <properties>} of the project, in file order. */
    public Map<String, String> properties() {
        return properties;
    }

    /** The text of every {@code <version>} under a {@code <dependency>} or {@code <plugin>}. */
    public List<String> artifactVersions() {
        return artifactVersions;
    }

    /**
     * Every way this pom's versions could drift from {@code root}: a dependency or plugin version that
     * is not a {@code ${property}}, a property that the root does not define, or one whose value differs.
     * Properties that are not versions (encodings) are ignored. Empty means no drift.
     */
    public List<String> versionsDisagreeingWith(Pom root) {
        List<String> problems = new ArrayList<>();
        for (String version : artifactVersions) {
            if (!version.matches("\\$\\{[^}]+}")) {
                problems.add(file + ": literal version '" + version + "'; name a property the root pom pins");
            }
        }
        properties.forEach((name, value) -> {
            if (!name.endsWith(".version") && !name.equals("maven.compiler.release")) {
                return;
            }
            String pinned = root.properties().get(name);
            if (pinned == null) {
                problems.add(file + ": property " + name + " is not pinned in the root pom");
            } else if (!pinned.equals(value)) {
                problems.add(file + ": " + name + " is " + value + " but the root pins " + pinned);
            }
        });
        return problems;
    }

    private static List<Element> children(Element parent, String tag) {
        List<Element> result = new ArrayList<>();
        NodeList nodes = parent.getChildNodes();
        for (int i = 0; i < nodes.getLength(); i++) {
            Node node = nodes.item(i);
            if (node instanceof Element element && element.getTagName().equals(tag)) {
                result.add(element);
            }
        }
        return result;
    }
}
