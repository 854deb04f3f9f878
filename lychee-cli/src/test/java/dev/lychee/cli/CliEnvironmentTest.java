package dev.lychee.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lychee.core.Lychee;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Settings the CLI reads from the environment beside the model's: the read deadline
 * ({@code LYCHEE_DEADLINE}) and the warning for OpenAI's endpoint without a key (the check serve
 * and mcp share).
 */
@Timeout(180)
class CliEnvironmentTest {
  @TempDir Path dir;

  @Test
  void aBadDeadlineIsAUsageErrorNamingTheVariableBeforeAnythingIsCreated() throws Exception {
    Path home = dir.resolve("home");
    Files.createDirectories(home);
    Path file = Files.writeString(dir.resolve("conv.json"), "{\"sessions\":[{\"id\":\"s1\",\"turns\":[[\"Maya\",\"I adopted a beagle.\"]]}]}");
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    try (AutoCloseable e = LycheeCli.withEnvironment(Map.of("HOME", home.toString(), "LYCHEE_DEADLINE", "0"))) {
      var cl = LycheeCli.newCommandLine();
      cl.setErr(new PrintWriter(new PrintStream(err, true, StandardCharsets.UTF_8), true));
      assertThat(cl.execute("ingest", "alice", "--data", file.toString())).isEqualTo(2);
    }
    assertThat(err.toString(StandardCharsets.UTF_8))
        .startsWith("lychee: LYCHEE_DEADLINE='0': expected the read deadline as a number of seconds in (0, 86400]");
    assertThat(home.resolve(".lychee")).doesNotExist();
  }

  @Test
  void theDeadlineVariableSetsTheReadDeadline() throws Exception {
    assertThat(deadlineWith(Map.of("LYCHEE_DEADLINE", "7.5"))).isEqualTo(Duration.ofMillis(7500));
    assertThat(deadlineWith(Map.of())).isEqualTo(Duration.ofSeconds(60));
  }

  @Test
  void aMissingOpenAiKeyIsReportedBeforeTheFirstCall() throws Exception {
    ByteArrayOutputStream log = new ByteArrayOutputStream();
    try (AutoCloseable e = LycheeCli.withEnvironment(Map.of("HOME", dir.toString(), "LYCHEE_LLM", "openai:gpt-4.1-mini"));
        Lychee memory = new MemoryOptions().withStore("memory").open(new PrintStream(log, true, StandardCharsets.UTF_8),
            MemoryOptions.Access.CREATE)) {
      assertThat(memory).isNotNull();
    }
    assertThat(log.toString(StandardCharsets.UTF_8)).contains("lychee: warning: OPENAI_API_KEY is not set: calls to api.openai.com "
        + "will be refused (turns are still stored; their segments stay pending until `lychee encode --pending NAMESPACE` runs with a key)");
  }

  private Duration deadlineWith(Map<String, String> vars) throws Exception {
    Map<String, String> env = new java.util.HashMap<>(vars);
    env.put("HOME", dir.toString());
    try (AutoCloseable e = LycheeCli.withEnvironment(env);
        Lychee memory = new MemoryOptions().withStore("memory").open(new PrintStream(new ByteArrayOutputStream(), true,
            StandardCharsets.UTF_8), MemoryOptions.Access.CREATE)) {
      return memory.config().fallback().deadline();
    }
  }
}
