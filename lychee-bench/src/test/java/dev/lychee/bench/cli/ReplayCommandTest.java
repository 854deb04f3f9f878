package dev.lychee.bench.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lychee.core.testing.HashingEmbedder;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class ReplayCommandTest {
  @TempDir Path dir;

  private Path fixture() throws Exception {
    Path data = dir.resolve("locomo-tiny.json");
    try (InputStream in = getClass().getResourceAsStream("/locomo-tiny.json")) {
      Files.copy(in, data);
    }
    return data;
  }

  private String run(String... args) {
    PrintStream out = System.out;
    ByteArrayOutputStream buf = new ByteArrayOutputStream();
    System.setOut(new PrintStream(buf, true, StandardCharsets.UTF_8));
    try {
      int code = new CommandLine(new EvalCommand(HashingEmbedder::new)).execute(args);
      return code + "\n" + buf.toString(StandardCharsets.UTF_8);
    } finally {
      System.setOut(out);
    }
  }

  @Test
  void printsTheCapturedRunAndOneRowPerSettingThenTheTables() throws Exception {
    Path data = fixture();
    Path variants = dir.resolve("v.txt");
    Files.write(variants, List.of("# the defaults, then one change", "same", "", "no-rule mp=0"));
    String printed = run("replay", "--data", data.toString(), "--variants", variants.toString(), "--k", "1,2,5",
        "--budgets", "40,80,160");
    assertThat(printed).startsWith("0\n");
    List<String> rows = printed.lines().filter(l -> l.matches("^(live|same|no-rule) +R@5 .*")).toList();
    assertThat(rows).hasSize(3);
    // the default setting replays the captured run: the same figures after the name
    assertThat(rows.get(1).substring(4).strip()).isEqualTo(rows.get(0).substring(4).strip());
    assertThat(printed).contains("LoCoMo evidence recall: 6 questions (2 skipped");
  }

  @Test
  void aBadSettingFailsBeforeAnythingIsIngested() throws Exception {
    Path variants = dir.resolve("bad.txt");
    Files.write(variants, List.of("x nosuch=1"));
    String printed = run("replay", "--data", dir.resolve("absent.json").toString(), "--variants", variants.toString());
    assertThat(printed).doesNotStartWith("0\n");
  }
}
