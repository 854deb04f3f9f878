package dev.lychee.examples.readme;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Reads the two sides that must agree: the {@code ```java} blocks of Markdown files and the marked
 * regions of Java sources.
 *
 * <p>A region is the lines between {@code // readme:begin NAME} and {@code // readme:end NAME}
 * (each marker alone on its line), with their common indentation removed. Trailing spaces and
 * leading or trailing blank lines never count, on either side.
 */
public final class Snippets {
  private static final Pattern BEGIN = Pattern.compile("^\\s*// readme:begin ([A-Za-z0-9._-]+)\\s*$");
  private static final Pattern END = Pattern.compile("^\\s*// readme:end ([A-Za-z0-9._-]+)\\s*$");
  private static final Pattern FENCE = Pattern.compile("^\\s*```\\s*(\\S*)\\s*$");
  private static final Pattern MODULE = Pattern.compile("<module>\\s*([^<\\s]+)\\s*</module>");

  private Snippets() {}

  /** One {@code ```java} block: where it starts (1-based line of the fence) and its text. */
  public record Block(Path file, int line, String text) {
    public String where() {
      return file + ":" + line;
    }
  }

  /** One marked region of a source file. */
  public record Region(String name, Path file, int line, String text) {}

  /** The repository root: the system property {@code lychee.repository.root}, else the nearest parent POM. */
  public static Path repositoryRoot() {
    String configured = System.getProperty("lychee.repository.root");
    Path start = configured != null ? Path.of(configured) : Path.of("").toAbsolutePath();
    for (Path p = start.toAbsolutePath().normalize(); p != null; p = p.getParent()) {
      Path pom = p.resolve("pom.xml");
      if (Files.isRegularFile(pom) && read(pom).contains("<artifactId>lychee-parent</artifactId>")
          && Files.isRegularFile(p.resolve("README.md"))) {
        return p;
      }
    }
    throw new IllegalStateException("no Lychee repository root above " + start);
  }

  /** Every {@code ```java} block of a Markdown text, in order. */
  public static List<Block> javaBlocks(Path file, String markdown) {
    List<Block> blocks = new ArrayList<>();
    String[] lines = markdown.split("\n", -1);
    for (int i = 0; i < lines.length; i++) {
      Matcher open = FENCE.matcher(lines[i]);
      if (!open.matches() || open.group(1).isEmpty()) {
        continue;
      }
      int start = i;
      List<String> body = new ArrayList<>();
      for (i++; i < lines.length && !FENCE.matcher(lines[i]).matches(); i++) {
        body.add(lines[i]);
      }
      if (open.group(1).equals("java")) {
        blocks.add(new Block(file, start + 1, normalise(body)));
      }
    }
    return blocks;
  }

  /**
   * Every region of a Java source.
   *
   * @throws IllegalStateException for a region that is not closed, closed under another name, or
   *     nested in another
   */
  public static List<Region> regions(Path file, String source) {
    List<Region> regions = new ArrayList<>();
    String[] lines = source.split("\n", -1);
    String open = null;
    int openLine = 0;
    List<String> body = new ArrayList<>();
    for (int i = 0; i < lines.length; i++) {
      Matcher b = BEGIN.matcher(lines[i]);
      Matcher e = END.matcher(lines[i]);
      if (b.matches()) {
        if (open != null) {
          throw new IllegalStateException(file + ":" + (i + 1) + ": region '" + b.group(1)
              + "' begins inside region '" + open + "'");
        }
        open = b.group(1);
        openLine = i + 1;
        body.clear();
      } else if (e.matches()) {
        if (!e.group(1).equals(open)) {
          throw new IllegalStateException(file + ":" + (i + 1) + ": 'readme:end " + e.group(1)
              + "' does not close " + (open == null ? "any region" : "region '" + open + "'"));
        }
        regions.add(new Region(open, file, openLine, normalise(body)));
        open = null;
      } else if (open != null) {
        body.add(lines[i]);
      }
    }
    if (open != null) {
      throw new IllegalStateException(file + ":" + openLine + ": region '" + open + "' is never closed");
    }
    return regions;
  }

  /** Drops trailing spaces, leading and trailing blank lines and the lines' common indentation. */
  static String normalise(List<String> lines) {
    List<String> stripped = lines.stream().map(String::stripTrailing).toList();
    int from = 0;
    int to = stripped.size();
    while (from < to && stripped.get(from).isEmpty()) {
      from++;
    }
    while (to > from && stripped.get(to - 1).isEmpty()) {
      to--;
    }
    List<String> kept = stripped.subList(from, to);
    int indent = kept.stream().filter(l -> !l.isEmpty())
        .mapToInt(l -> l.length() - l.stripLeading().length()).min().orElse(0);
    StringBuilder sb = new StringBuilder();
    for (String l : kept) {
      sb.append(l.isEmpty() ? "" : l.substring(indent)).append('\n');
    }
    return sb.toString();
  }

  /** The modules the parent POM builds, so that only compiled sources can hold a region. */
  public static List<Path> modules(Path root) {
    String pom = read(root.resolve("pom.xml"));
    List<Path> modules = new ArrayList<>();
    Matcher m = MODULE.matcher(pom.replaceAll("(?s)<!--.*?-->", ""));
    while (m.find()) {
      modules.add(root.resolve(m.group(1)));
    }
    return modules;
  }

  /** Every region in the main and test Java sources of the built modules, by name. */
  public static Map<String, List<Region>> regionsOf(Path root) {
    Map<String, List<Region>> byName = new LinkedHashMap<>();
    for (Path module : modules(root)) {
      for (String set : List.of("src/main/java", "src/test/java")) {
        Path dir = module.resolve(set);
        if (!Files.isDirectory(dir)) {
          continue;
        }
        try (Stream<Path> files = Files.walk(dir)) {
          for (Path f : files.filter(p -> p.toString().endsWith(".java")).sorted().toList()) {
            String text = read(f);
            if (text.contains("readme:begin")) {
              for (Region r : regions(root.relativize(f), text)) {
                byName.computeIfAbsent(r.name(), k -> new ArrayList<>()).add(r);
              }
            }
          }
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }
    }
    return byName;
  }

  /** The Markdown files whose java blocks must compile: the root README and each module's. */
  public static List<Path> readmes(Path root) {
    List<Path> files = new ArrayList<>();
    files.add(root.resolve("README.md"));
    for (Path module : modules(root)) {
      Path readme = module.resolve("README.md");
      if (Files.isRegularFile(readme)) {
        files.add(readme);
      }
    }
    return files;
  }

  static String read(Path p) {
    try {
      return Files.readString(p, StandardCharsets.UTF_8).replace("\r\n", "\n");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
