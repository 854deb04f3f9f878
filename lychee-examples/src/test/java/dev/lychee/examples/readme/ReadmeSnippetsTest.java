package dev.lychee.examples.readme;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Every {@code ```java} block of the READMEs is a marked region of a source file that the build
 * compiles, so no README code can rot. How to add one: put the code in a test source of the module
 * it shows, between {@code // readme:begin NAME} and {@code // readme:end NAME}, and paste the
 * region (its common indentation removed) into the README.
 */
class ReadmeSnippetsTest {

  private static Path root() {
    return Snippets.repositoryRoot();
  }

  @Test
  void everyReadmeJavaBlockIsACompiledRegion() {
    Path root = root();
    Map<String, List<Snippets.Region>> regions = Snippets.regionsOf(root);
    Set<String> texts = new HashSet<>();
    regions.values().forEach(list -> list.forEach(r -> texts.add(r.text())));

    List<Snippets.Block> blocks = new ArrayList<>();
    for (Path readme : Snippets.readmes(root)) {
      blocks.addAll(Snippets.javaBlocks(root.relativize(readme), Snippets.read(readme)));
    }
    List<String> orphans = new ArrayList<>();
    for (Snippets.Block b : blocks) {
      if (!texts.contains(b.text())) {
        orphans.add(b.where() + " matches no '// readme:begin' region of a built module's sources"
            + nearest(b, regions));
      }
    }
    assertThat(blocks).as("the root README has java blocks").isNotEmpty();
    assertThat(orphans).as("README java blocks without an identical compiled region").isEmpty();
  }

  @Test
  void regionNamesAreUnique() {
    List<String> repeated = Snippets.regionsOf(root()).entrySet().stream()
        .filter(e -> e.getValue().size() > 1)
        .map(e -> e.getKey() + " in " + e.getValue().stream().map(r -> r.file() + ":" + r.line()).toList())
        .toList();
    assertThat(repeated).isEmpty();
  }

  @Test
  void aBlockThatDiffersFromItsRegionByOneCharacterIsAnOrphan() {
    String source = """
        class A {
          void f() {
            // readme:begin demo
            int x = 1;   \s
              use(x);
            // readme:end demo
          }
        }
        """;
    Snippets.Region region = Snippets.regions(Path.of("A.java"), source).get(0);
    assertThat(region.name()).isEqualTo("demo");
    assertThat(region.text()).isEqualTo("int x = 1;\n  use(x);\n");

    String same = "text\n\n```java\nint x = 1;\n  use(x);\n```\n";
    String other = "```java\nint x = 2;\n  use(x);\n```\n```xml\n<a/>\n```\n";
    assertThat(Snippets.javaBlocks(Path.of("R.md"), same)).extracting(Snippets.Block::text)
        .containsExactly(region.text());
    assertThat(Snippets.javaBlocks(Path.of("R.md"), same).get(0).line()).isEqualTo(3);
    assertThat(Snippets.javaBlocks(Path.of("R.md"), other)).hasSize(1)
        .extracting(Snippets.Block::text).doesNotContain(region.text());
  }

  @Test
  void brokenMarkersAreReported() {
    assertThatThrownBy(() -> Snippets.regions(Path.of("B.java"), "// readme:begin a\nx();\n"))
        .hasMessageContaining("B.java:1: region 'a' is never closed");
    assertThatThrownBy(() -> Snippets.regions(Path.of("B.java"), "// readme:begin a\n// readme:end b\n"))
        .hasMessageContaining("does not close region 'a'");
    assertThatThrownBy(() -> Snippets.regions(Path.of("B.java"),
        "// readme:begin a\n// readme:begin b\n// readme:end b\n// readme:end a\n"))
        .hasMessageContaining("begins inside region 'a'");
  }

  @Test
  void onlyModulesOfTheReactorAreSearched() {
    List<Path> modules = Snippets.modules(root());
    assertThat(modules).extracting(p -> p.getFileName().toString())
        .contains("lychee-core", "lychee-examples");
  }

  /** Names the region that shares most lines with the block, and the first line that differs. */
  private static String nearest(Snippets.Block b, Map<String, List<Snippets.Region>> regions) {
    List<String> want = Arrays.asList(b.text().split("\n"));
    return regions.values().stream().flatMap(List::stream)
        .max(Comparator.comparingLong(r -> Arrays.stream(r.text().split("\n")).filter(want::contains).count()))
        .map(r -> {
          String[] have = r.text().split("\n");
          int i = 0;
          while (i < have.length && i < want.size() && have[i].equals(want.get(i))) {
            i++;
          }
          return "; nearest region '" + r.name() + "' (" + r.file() + ":" + r.line() + ") first differs at block line "
              + (i + 1) + ": README has [" + (i < want.size() ? want.get(i) : "<end>") + "], region has ["
              + (i < have.length ? have[i] : "<end>") + "]";
        })
        .orElse("");
  }
}
