package dev.lychee.bench.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lychee.core.testing.HashingEmbedder;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import picocli.CommandLine.TypeConversionException;

class DataFileConverterTest {
  @TempDir Path dir;

  @Test
  void aFileThatExistsIsTakenAsGiven() throws Exception {
    Path file = Files.writeString(dir.resolve("data.json"), "[]");
    assertThat(new DataFileConverter(name -> null).convert(file.toString())).isEqualTo(file);
  }

  @Test
  void aBareNameIsLookedUpInTheDataFolder() throws Exception {
    Path file = Files.writeString(dir.resolve("locomo-elsewhere.json"), "[]");
    Map<String, String> env = Map.of(DataFileConverter.DATA_DIR_VARIABLE, dir.toString());
    assertThat(new DataFileConverter(env::get).convert("locomo-elsewhere.json")).isEqualTo(file);
  }

  @Test
  void aMissingFileSaysWhereItLookedAndHowToPointAtTheData() {
    assertThatThrownBy(() -> new DataFileConverter(name -> null).convert("no-such-locomo.json"))
        .isInstanceOf(TypeConversionException.class)
        .hasMessageContaining("no-such-locomo.json")
        .hasMessageContaining(DataFileConverter.DATA_DIR_VARIABLE)
        .hasMessageContaining("docs/evaluation.md");
    Map<String, String> env = Map.of(DataFileConverter.DATA_DIR_VARIABLE, dir.toString());
    assertThatThrownBy(() -> new DataFileConverter(env::get).convert("no-such-locomo.json"))
        .isInstanceOf(TypeConversionException.class)
        .hasMessageContaining("nor in " + DataFileConverter.DATA_DIR_VARIABLE + " (" + dir + ")");
  }

  @Test
  void aPathWithFoldersIsNotLookedUpInTheDataFolder() throws Exception {
    Files.writeString(dir.resolve("x.json"), "[]");
    Map<String, String> env = Map.of(DataFileConverter.DATA_DIR_VARIABLE, dir.toString());
    assertThatThrownBy(() -> new DataFileConverter(env::get).convert("sub/x.json"))
        .isInstanceOf(TypeConversionException.class);
  }

  @Test
  void aFolderIsRefused() {
    assertThatThrownBy(() -> new DataFileConverter(name -> null).convert(dir.toString()))
        .isInstanceOf(TypeConversionException.class)
        .hasMessageContaining("is a folder");
  }

  @Test
  void everyCommandRefusesAMissingDataFileAsAUsageErrorWithoutAStackTrace() {
    for (String command : new String[] {"locomo", "speed", "segments", "calibrate", "replay",
        "longmemeval", "answers", "server"}) {
      StringWriter err = new StringWriter();
      CommandLine cl = new CommandLine(new EvalCommand(HashingEmbedder::new));
      cl.setErr(new PrintWriter(err));
      String[] args = command.equals("answers")
          ? new String[] {command, "--data", dir.resolve("missing.json").toString(), "--evidence", dir.resolve("ev.jsonl").toString()}
          : command.equals("replay")
              ? new String[] {command, "--data", dir.resolve("missing.json").toString(), "--variants", dir.resolve("v.txt").toString()}
              : new String[] {command, "--data", dir.resolve("missing.json").toString()};
      int code = cl.execute(args);
      assertThat(code).as(command).isEqualTo(CommandLine.ExitCode.USAGE);
      assertThat(err.toString()).as(command).contains("no file").contains("missing.json")
          .doesNotContain("NoSuchFileException").doesNotContain("\tat ");
    }
  }
}
