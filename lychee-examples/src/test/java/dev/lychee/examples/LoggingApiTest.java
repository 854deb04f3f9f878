package dev.lychee.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lychee.examples.readme.Snippets;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Lychee logs through the SLF4J API only, so an application's logging setup sees every line, and
 * no published module forces a binding on its users (an optional one, such as the binding of
 * lychee-server's runnable jar, never reaches a module that depends on it).
 */
class LoggingApiTest {
  private static final List<String> APPLICATIONS = List.of("lychee-cli", "lychee-bench");
  private static final List<String> BINDINGS = List.of("logback-classic", "slf4j-simple", "slf4j-nop",
      "slf4j-reload4j", "log4j-slf4j2-impl", "slf4j-jdk14");

  private final Path root = Snippets.repositoryRoot();

  @Test
  void noMainSourceUsesJavaUtilLogging() throws IOException {
    List<String> offenders = new ArrayList<>();
    for (Path module : Snippets.modules(root)) {
      Path main = module.resolve("src/main/java");
      if (!Files.isDirectory(main)) {
        continue;
      }
      try (Stream<Path> files = Files.walk(main)) {
        for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
          if (Files.readString(f).contains("java.util.logging")) {
            offenders.add(root.relativize(f).toString());
          }
        }
      }
    }
    assertThat(offenders).as("use org.slf4j.Logger").isEmpty();
  }

  @Test
  void onlyApplicationsDeclareALoggingBindingOutsideTests() throws IOException {
    List<String> offenders = new ArrayList<>();
    for (Path module : Snippets.modules(root)) {
      Path pom = module.resolve("pom.xml");
      if (APPLICATIONS.contains(module.getFileName().toString()) || !Files.isRegularFile(pom)) {
        continue;
      }
      String xml = Files.readString(pom).replaceAll("(?s)<!--.*?-->", "");
      for (String dependency : xml.split("<dependency>")) {
        String artifact = dependency.replaceAll("(?s).*?<artifactId>([^<]+)</artifactId>.*", "$1");
        boolean transitive = !dependency.contains("<scope>test</scope>") && !dependency.contains("<optional>true</optional>");
        if (BINDINGS.contains(artifact) && transitive) {
          offenders.add(module.getFileName() + ": " + artifact);
        }
      }
    }
    assertThat(offenders).isEmpty();
  }
}
