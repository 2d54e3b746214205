package dev.sluice.lab;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.jar.JarFile;
import java.util.jar.Manifest;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * What a library module publishes, checked after the reactor built it (the lab is built last): a jar with the
 * licence and implementation entries, sources and javadoc jars with the licence too, and a consumer POM with the
 * metadata Maven Central asks for (and the issue tracker) and no build configuration or parent to fetch.
 */
class PublishedArtifactsTest {
    private static final Path ROOT = Path.of("").toAbsolutePath().getParent();

    @ParameterizedTest
    @ValueSource(strings = {"core", "kernel", "okio"})
    void libraryModulesPublishWhatAConsumerNeeds(String module) throws Exception {
        Path dir = ROOT.resolve(module);
        Document pom = parse(dir.resolve(".flattened-pom.xml"));
        Element project = pom.getDocumentElement();
        String artifact = text(project, "artifactId");
        String version = text(project, "version");
        assertThat(child(project, "parent")).as("no parent to fetch").isNull();
        assertThat(child(project, "build")).as("no build configuration").isNull();
        assertThat(child(project, "profiles")).isNull();
        for (String required : new String[] {"name", "description", "url", "licenses", "developers", "scm",
            "issueManagement"}) {
            assertThat(child(project, required)).as(module + " POM has <" + required + ">").isNotNull();
        }
        NodeList scopes = project.getElementsByTagName("scope");
        for (int i = 0; i < scopes.getLength(); i++) {
            assertThat(scopes.item(i).getTextContent()).as("no test dependencies published").isNotEqualTo("test");
        }

        Path jar = dir.resolve("target").resolve(artifact + "-" + version + ".jar");
        try (JarFile j = new JarFile(jar.toFile())) {
            Manifest m = j.getManifest();
            assertThat(m.getMainAttributes().getValue("Implementation-Title")).isNotBlank();
            assertThat(m.getMainAttributes().getValue("Implementation-Version")).isEqualTo(version);
            assertThat(new String(j.getInputStream(j.getEntry("META-INF/LICENSE")).readAllBytes()))
                    .isEqualTo(Files.readString(ROOT.resolve("LICENSE")));
        }
        for (String classifier : new String[] {"sources", "javadoc"}) {
            Path attached = dir.resolve("target").resolve(artifact + "-" + version + "-" + classifier + ".jar");
            assertThat(attached).isRegularFile();
            try (JarFile j = new JarFile(attached.toFile())) {
                assertThat(j.getEntry("META-INF/LICENSE")).as("the licence in " + attached.getFileName()).isNotNull();
            }
        }
    }

    private static Document parse(Path p) throws Exception {
        assertThat(p).as("the flattened (published) POM").isRegularFile();
        DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
        f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        return f.newDocumentBuilder().parse(p.toFile());
    }

    private static Element child(Element parent, String name) {
        for (var n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element e && e.getTagName().equals(name)) {
                return e;
            }
        }
        return null;
    }

    private static String text(Element parent, String name) throws IOException {
        Element e = child(parent, name);
        if (e == null) {
            throw new IOException("no <" + name + ">");
        }
        return e.getTextContent().trim();
    }
}
