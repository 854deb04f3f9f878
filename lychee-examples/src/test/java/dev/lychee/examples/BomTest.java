package dev.lychee.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lychee.examples.readme.Snippets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The BOM pins Lychee's artifacts and nothing else, lists every published module, has no parent
 * (so the build's third-party versions never reach a user), and the README's quick start names
 * exactly the modules this module compiles the quick start against.
 */
class BomTest {
  /** Modules that are not published as libraries. */
  private static final Set<String> UNPUBLISHED = Set.of("lychee-bench", "lychee-cli", "lychee-examples", "lychee-bom");
  private static final Pattern DEPENDENCY = Pattern.compile(
      "<dependency>\\s*<groupId>([^<]+)</groupId>\\s*<artifactId>([^<]+)</artifactId>(.*?)</dependency>", Pattern.DOTALL);

  private final Path root = Snippets.repositoryRoot();

  @Test
  void theBomPinsOnlyLycheeArtifactsAndEveryPublishedModule() throws Exception {
    String bom = Files.readString(root.resolve("lychee-bom/pom.xml")).replaceAll("(?s)<!--.*?-->", "");
    assertThat(bom).doesNotContain("<parent>");
    List<String[]> pinned = dependencies(bom);
    assertThat(pinned).isNotEmpty();
    assertThat(pinned).allSatisfy(d -> assertThat(d[0]).isEqualTo("dev.lychee"));
    Set<String> artifacts = new TreeSet<>();
    pinned.forEach(d -> artifacts.add(d[1]));
    Set<String> published = new TreeSet<>();
    for (Path module : Snippets.modules(root)) {
      String name = module.getFileName().toString();
      if (!UNPUBLISHED.contains(name)) {
        published.add(name);
      }
    }
    assertThat(artifacts).as("lychee-bom lists exactly the published modules").isEqualTo(published);
  }

  @Test
  void publishedModulePomsCarryNoParentAndNoThirdPartyPins() throws Exception {
    Path core = root.resolve("lychee-core/target/published-pom.xml");
    assertThat(core).as("built by the flatten plugin in process-resources; build with -am").isRegularFile();
    for (Path module : Snippets.modules(root)) {
      Path published = module.resolve("target/published-pom.xml");
      if (UNPUBLISHED.contains(module.getFileName().toString()) || !Files.isRegularFile(published)) {
        continue;
      }
      String pom = Files.readString(published);
      assertThat(pom).as(published.toString()).doesNotContain("<parent>").doesNotContain("<dependencyManagement>");
      // every dependency carries its own version instead
      assertThat(dependencies(pom)).as(published.toString()).allSatisfy(d -> assertThat(d[2]).contains("<version>"));
    }
  }

  @Test
  void theQuickStartNamesTheBomAndTheModulesItIsCompiledAgainst() throws Exception {
    String readme = Files.readString(root.resolve("README.md"));
    int start = readme.indexOf("## Library quick start");
    String section = readme.substring(start, readme.indexOf("\n## ", start + 1));
    String xml = section.substring(section.indexOf("```xml"), section.indexOf("```", section.indexOf("```xml") + 6));
    assertThat(xml).contains("<artifactId>lychee-bom</artifactId>").contains("<scope>import</scope>");
    Set<String> named = new TreeSet<>();
    dependencies(xml).stream().filter(d -> !d[1].equals("lychee-bom")).forEach(d -> named.add(d[1]));

    String pom = Files.readString(root.resolve("lychee-examples/pom.xml"));
    Set<String> compiled = new TreeSet<>();
    dependencies(pom).stream().filter(d -> !d[2].contains("<scope>test</scope>")).forEach(d -> compiled.add(d[1]));
    assertThat(named).isEqualTo(compiled);
  }

  private static List<String[]> dependencies(String xml) {
    List<String[]> out = new ArrayList<>();
    Matcher m = DEPENDENCY.matcher(xml);
    while (m.find()) {
      out.add(new String[] {m.group(1).trim(), m.group(2).trim(), m.group(3)});
    }
    return out;
  }
}
