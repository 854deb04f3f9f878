package dev.lychee.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Runs the README's quick start as written, in this module's working directory (under target/). */
class QuickStartTest {

  @Test
  @Timeout(120)
  void theReadmeQuickStartRunsAndPrintsTheAnswer() throws Exception {
    Path db = Path.of("memory.db");
    Files.deleteIfExists(db);
    PrintStream out = System.out;
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
    try {
      QuickStart.main(new String[0]);
    } finally {
      System.setOut(out);
    }
    String printed = captured.toString(StandardCharsets.UTF_8);
    out.print(printed);
    assertThat(printed).contains("I went to my first choir rehearsal yesterday.");
    assertThat(printed.lines().filter(l -> l.startsWith("answer: ")).findFirst().orElseThrow())
        .as("the answer names the day before the session").contains("11 March 2024");
    assertThat(db).as("the quick start stores its memory in a SQLite file").isRegularFile();
  }
}
