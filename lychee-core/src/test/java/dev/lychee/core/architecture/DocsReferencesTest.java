package dev.lychee.core.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The repository documents itself: every {@code §N.N} reference in the sources and Markdown files
 * names a numbered heading of a document in {@code docs/}, and every relative link of a Markdown
 * file points at a file that exists.
 *
 * <p>A reference names its document by the word right before the {@code §} ({@code
 * docs/evaluation.md §2}, {@code architecture.md §3}); a bare {@code §4.5} means {@code
 * docs/defaults.md}, or, inside a document of {@code docs/}, that document itself. A reference to
 * a document outside the repository (the paper, the reference parameters) is an error.
 */
class DocsReferencesTest {
  private static final Pattern REF = Pattern.compile("\u00a7(\\d+(?:\\.\\d+)*)");
  private static final Pattern WORD_BEFORE = Pattern.compile("([A-Za-z][\\w./-]*)[`\\])]*\\s*$");
  private static final Pattern HEADING = Pattern.compile("^#{1,6}\\s+(\\d+(?:\\.\\d+)*)\\s", Pattern.MULTILINE);
  private static final Pattern LINK = Pattern.compile("\\[[^\\]]*\\]\\(([^)\\s]+)\\)");
  private static final Set<String> DOCS = Set.of("defaults", "evaluation", "architecture");

  private static Path root;
  private static Map<String, Set<String>> headings;

  @BeforeAll
  static void findRepository() throws IOException {
    Path p = Path.of("").toAbsolutePath();
    while (p != null && !(Files.isDirectory(p.resolve("docs")) && Files.exists(p.resolve("lychee-core")))) {
      p = p.getParent();
    }
    assertThat(p).as("repository root with docs/ above " + Path.of("").toAbsolutePath()).isNotNull();
    root = p;
    headings = new HashMap<>();
    for (String d : DOCS) {
      Path doc = root.resolve("docs").resolve(d + ".md");
      assertThat(doc).as("docs/%s.md", d).exists();
      Set<String> numbers = new HashSet<>();
      Matcher m = HEADING.matcher(Files.readString(doc, StandardCharsets.UTF_8));
      while (m.find()) {
        numbers.add(m.group(1));
      }
      headings.put(d, numbers);
    }
  }

  private static List<Path> files(String... suffixes) {
    try (Stream<Path> s = Files.walk(root)) {
      return s.filter(Files::isRegularFile)
          .filter(f -> {
            String rel = root.relativize(f).toString().replace('\\', '/');
            return !rel.contains("/target/") && !rel.startsWith("target/") && !rel.startsWith(".")
                && !rel.contains("/node_modules/") && !rel.contains("/.");
          })
          .filter(f -> Stream.of(suffixes).anyMatch(x -> f.toString().endsWith(x)))
          .sorted()
          .toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The document a reference at {@code offset} of {@code text} (in {@code file}) points to, or why none. */
  static String target(String text, int offset, String fileDoc) {
    String before = text.substring(Math.max(0, offset - 60), offset).replaceAll("\\n\\s*\\*?\\s*", " ");
    Matcher w = WORD_BEFORE.matcher(before);
    String word = w.find() ? w.group(1).toLowerCase(Locale.ROOT) : "";
    for (String d : DOCS) {
      if (word.equals(d) || word.endsWith("/" + d + ".md") || word.equals(d + ".md")) {
        return d;
      }
    }
    if (word.contains("paper") || word.contains("reference") || word.contains("parameters")) {
      return "!outside the repository: '" + word + "'";
    }
    return fileDoc != null ? fileDoc : "defaults";
  }

  @Test
  void everySectionReferenceNamesAHeadingInDocs() throws IOException {
    List<String> broken = new ArrayList<>();
    int count = 0;
    for (Path f : files(".java", ".md")) {
      String rel = root.relativize(f).toString().replace('\\', '/');
      String fileDoc = null;
      if (rel.startsWith("docs/") && rel.endsWith(".md")) {
        String name = rel.substring(5, rel.length() - 3);
        fileDoc = DOCS.contains(name) ? name : null;
      }
      String text = Files.readString(f, StandardCharsets.UTF_8);
      Matcher m = REF.matcher(text);
      while (m.find()) {
        count++;
        String doc = target(text, m.start(), fileDoc);
        int line = text.substring(0, m.start()).split("\n", -1).length;
        if (doc.startsWith("!")) {
          broken.add(rel + ":" + line + " §" + m.group(1) + " points " + doc.substring(1));
        } else if (!headings.get(doc).contains(m.group(1))) {
          broken.add(rel + ":" + line + " §" + m.group(1) + " has no heading in docs/" + doc + ".md");
        }
      }
    }
    assertThat(count).as("section references found").isGreaterThan(50);
    assertThat(broken).as("broken section references").isEmpty();
  }

  @Test
  void everyRelativeMarkdownLinkPointsAtAFile() throws IOException {
    List<String> broken = new ArrayList<>();
    int count = 0;
    for (Path f : files(".md")) {
      String text = Files.readString(f, StandardCharsets.UTF_8);
      Matcher m = LINK.matcher(text);
      while (m.find()) {
        String target = m.group(1);
        if (target.matches("^[a-z][a-z0-9+.-]*:.*") || target.startsWith("#")) {
          continue; // an absolute URL or an anchor within the page
        }
        count++;
        String path = target.replaceAll("#.*$", "");
        if (!Files.exists(f.getParent().resolve(path).normalize())) {
          broken.add(root.relativize(f) + " links to missing " + target);
        }
      }
    }
    assertThat(count).as("relative links found").isGreaterThan(3);
    assertThat(broken).as("broken links").isEmpty();
  }

  @Test
  void theResolverReadsTheWordBeforeTheSign() {
    assertThat(target("see docs/evaluation.md \u00a72", 23, null)).isEqualTo("evaluation");
    assertThat(target("(\u00a74.5, 3.)", 1, null)).isEqualTo("defaults");
    assertThat(target("[architecture.md](architecture.md) \u00a73", 35, "defaults")).isEqualTo("architecture");
    assertThat(target("as \u00a74", 3, "evaluation")).isEqualTo("evaluation");
    assertThat(target("the paper \u00a73.2", 10, null)).startsWith("!");
    assertThat(target("reference parameters \u00a71.5", 21, null)).startsWith("!");
  }
}
