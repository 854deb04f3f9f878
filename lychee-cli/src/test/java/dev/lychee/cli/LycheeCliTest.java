package dev.lychee.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class LycheeCliTest {

  @Test
  void helpListsEveryCommand() {
    CommandLine cl = LycheeCli.newCommandLine();
    StringWriter out = new StringWriter();
    cl.setOut(new PrintWriter(out));
    assertThat(cl.execute("--help")).isZero();
    assertThat(out.toString()).contains("demo", "ingest", "recall", "ask", "inspect", "forget", "eval", "bench");
  }

  @Test
  void everySubcommandHasHelp() {
    for (String sub : new String[] {"demo", "ingest", "encode", "status", "recall", "ask", "inspect", "forget", "eval", "bench"}) {
      CommandLine cl = LycheeCli.newCommandLine();
      StringWriter out = new StringWriter();
      cl.setOut(new PrintWriter(out));
      assertThat(cl.execute(sub, "--help")).as(sub).isZero();
      assertThat(out.toString()).as(sub).contains("Usage:");
    }
  }

  /** {@code help eval} listed five of the eight eval subcommands; {@code help bench} no arguments. */
  @Test
  void helpEvalListsEveryEvalSubcommandAndHelpBenchItsArguments() {
    CommandLine cl = LycheeCli.newCommandLine();
    StringWriter out = new StringWriter();
    cl.setOut(new PrintWriter(out));
    assertThat(cl.execute("help", "eval")).isZero();
    for (String sub : new String[] {"locomo", "segments", "speed", "longmemeval", "calibrate", "server", "answers", "replay"}) {
      assertThat(out.toString()).as(sub).contains("  eval " + sub + " ");
    }
    StringWriter bench = new StringWriter();
    cl.setOut(new PrintWriter(bench));
    assertThat(cl.execute("help", "bench")).isZero();
    assertThat(bench.toString()).contains("bench [REGEX] [-prof NAME]...").contains("./lychee bench --help");
  }

  /** README's "Commands" listed seven of the twelve commands. */
  @Test
  void theReadmeNamesEveryCommand() throws Exception {
    String commands = readmeSection("## Commands");
    for (String name : LycheeCli.newCommandLine().getSubcommands().keySet()) {
      if (!name.equals("help")) {
        assertThat(commands).as(name).contains("`" + name + "`");
      }
    }
  }

  /** The README section that starts with {@code heading}, up to the next heading of its level. */
  static String readmeSection(String heading) throws java.io.IOException {
    String readme = java.nio.file.Files.readString(java.nio.file.Path.of("..", "README.md"));
    int start = readme.indexOf("\n" + heading + "\n");
    assertThat(start).as(heading).isNotNegative();
    int end = readme.indexOf("\n## ", start + heading.length() + 2);
    return readme.substring(start, end < 0 ? readme.length() : end);
  }

  @Test
  void badOptionsFailWithUsage() {
    CommandLine cl = LycheeCli.newCommandLine();
    StringWriter err = new StringWriter();
    cl.setErr(new PrintWriter(err));
    assertThat(cl.execute("recall")).isNotZero();
    assertThat(err.toString()).contains("Missing required parameter");
  }

  @Test
  void demoConversationIsLargeEnoughAndWellFormed() {
    ConversationFile demo = ConversationFile.demo();
    assertThat(demo.speakers()).hasSize(2);
    assertThat(demo.turnCount()).isGreaterThanOrEqualTo(60);
    assertThat(demo.sessions()).hasSizeGreaterThanOrEqualTo(3).allSatisfy(s -> assertThat(s.date()).isNotNull());
    assertThat(demo.questions()).hasSizeGreaterThanOrEqualTo(10);
    assertThat(demo.sessions()).allSatisfy(s ->
        assertThat(s.turns()).allSatisfy(t -> assertThat(demo.speakers()).contains(t.speaker())));
  }

  @Test
  void conversationFileErrorsNameTheProblem() {
    assertThatThrownBy(() -> ConversationFile.parse(stream("{\"x\":1}"), "f.json"))
        .isInstanceOf(UserError.class).hasMessageContaining("sessions");
    assertThatThrownBy(() -> ConversationFile.parse(stream("{\"sessions\":[{\"id\":\"a\",\"date\":\"yesterday\",\"turns\":[]}]}"), "f.json"))
        .isInstanceOf(UserError.class).hasMessageContaining("ISO");
    assertThatThrownBy(() -> ConversationFile.parse(stream("{\"sessions\":[{\"id\":\"a\",\"turns\":[[\"x\"]]}]}"), "f.json"))
        .isInstanceOf(UserError.class).hasMessageContaining("[speaker, text]");
  }

  @Test
  void providerEnvironmentDefaultsToOfflineOnnx() {
    ProviderEnvironment env = ProviderEnvironment.from(Map.of());
    assertThat(env.llm()).isEmpty();
    assertThat(env.describe()).contains("offline", "onnx");
    assertThat(env.modules()).hasSize(1);
  }

  @Test
  void providerEnvironmentSelectsLlmAndRejectsNonsense() {
    ProviderEnvironment env = ProviderEnvironment.from(Map.of("LYCHEE_LLM", "ollama:qwen2.5:7b-instruct",
        "OLLAMA_HOST", "127.0.0.1:11434"));
    assertThat(env.describe()).contains("LLM ollama:qwen2.5:7b-instruct");
    assertThat(env.modules()).hasSize(2);
    assertThatThrownBy(() -> ProviderEnvironment.from(Map.of("LYCHEE_LLM", "gpt4")))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("openai:<model>");
    assertThatThrownBy(() -> ProviderEnvironment.from(Map.of("LYCHEE_EMBEDDER", "word2vec")))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("onnx");
  }

  private static ByteArrayInputStream stream(String s) {
    return new ByteArrayInputStream(s.getBytes(StandardCharsets.UTF_8));
  }

  /**
   * picocli formats every help line with {@code String.format} and, when a line is not a valid
   * format (a bare percent sign), prints a warning on stderr instead of the help (round twenty-six:
   * {@code eval speed --help}). Every command's usage renders without one.
   */
  @Test
  void everyCommandsHelpRendersWithoutAFormatWarning() {
    List<String> warned = new ArrayList<>();
    collectHelpWarnings(LycheeCli.newCommandLine(), warned);
    assertThat(warned).isEmpty();
  }

  private static void collectHelpWarnings(CommandLine cl, List<String> warned) {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    PrintStream before = System.err;
    System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
    try {
      assertThat(cl.getUsageMessage(CommandLine.Help.Ansi.OFF)).isNotBlank();
    } finally {
      System.setErr(before);
    }
    if (!err.toString(StandardCharsets.UTF_8).isEmpty()) {
      warned.add(cl.getCommandSpec().qualifiedName() + ": " + err.toString(StandardCharsets.UTF_8));
    }
    cl.getSubcommands().values().forEach(sub -> collectHelpWarnings(sub, warned));
  }
}
