package dev.lychee.bench.qa;

import dev.lychee.bench.locomo.LocomoConversation;
import dev.lychee.bench.locomo.LocomoLoader;
import dev.lychee.bench.locomo.LocomoQuestion;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;

/** The two-conversation LoCoMo fixture of the bench tests, and what the model server does with it. */
final class Fixture {
  private Fixture() {}

  /** Copies the fixture into {@code dir} and returns its path. */
  static Path copyTo(Path dir) {
    try (InputStream in = Fixture.class.getResourceAsStream("/locomo-tiny.json")) {
      Path p = dir.resolve("locomo-tiny.json");
      Files.copy(in, p, StandardCopyOption.REPLACE_EXISTING);
      return p;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static List<LocomoConversation> conversations() {
    try {
      Path dir = Files.createTempDirectory("qa-fixture");
      Path file = copyTo(dir);
      try {
        return LocomoLoader.load(file);
      } finally {
        // read once into memory: nothing needs the copy afterwards (tests called this 33 times a build)
        Files.deleteIfExists(file);
        Files.deleteIfExists(dir);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static List<LocomoQuestion> questions() {
    List<LocomoQuestion> out = new ArrayList<>();
    conversations().forEach(c -> out.addAll(c.questions()));
    return out;
  }

  /** The reference answer of a fixture question. */
  static String goldFor(String question) {
    return questions().stream().filter(q -> q.question().strip().equals(question)).map(LocomoQuestion::answer)
        .findFirst().orElse("unknown question");
  }

  /** The judge accuracy the model server implies: the share of questions that name the known person. */
  static double expectedAccuracy(List<LocomoQuestion> questions) {
    return (double) questions.stream().filter(q -> q.question().contains(ModelServer.KNOWN_PERSON)).count()
        / questions.size();
  }
}
