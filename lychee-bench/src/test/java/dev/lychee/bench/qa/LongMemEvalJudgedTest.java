package dev.lychee.bench.qa;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lychee.bench.cli.EvalCommand;
import dev.lychee.core.testing.HashingEmbedder;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code eval longmemeval --llm --judge}: accuracy per question type, abstentions graded as such. */
class LongMemEvalJudgedTest {
  @TempDir Path dir;

  @Test
  void accuracyIsReportedPerQuestionTypeWithAbstentionsGradedAsAbstentions() throws Exception {
    Path data = dir.resolve("lme.json");
    try (InputStream in = getClass().getResourceAsStream("/longmemeval-tiny.json")) {
      Files.copy(in, data);
    }
    try (ModelServer server = ModelServer.openAi()) {
      // right about the cat, wrong about the hike, abstains on the dog (which was never mentioned)
      server.answerWith(q -> q.contains("cat") ? "Whiskers" : q.contains("dog") ? "The information is not available."
          : "Mount Fuji");
      Path json = dir.resolve("out.json");
      int exit = new CommandLine(new EvalCommand(HashingEmbedder::new).environment(server.environment()))
          .execute("longmemeval", "--data", data.toString(), "--llm", "openai:qa-model", "--json", json.toString());
      assertThat(exit).isZero();
      JsonNode v = ModelServer.JSON.readTree(json.toFile()).path("variants").path("lychee");
      assertThat(v.path("questions").asInt()).isEqualTo(3);
      JsonNode byType = v.path("judge_accuracy_by_group");
      assertThat(byType.path("single-session-user").asDouble()).isEqualTo(1.0);
      assertThat(byType.path("multi-session").asDouble()).isEqualTo(0.0);
      assertThat(byType.path("abstention").asDouble()).isEqualTo(1.0);
      assertThat(v.path("judge_accuracy").asDouble()).isEqualTo(2.0 / 3);
      // the abstention question's judge prompt carries the abstention rule, the others do not
      long abstentionPrompts = server.requests().stream()
          .filter(r -> r.body().contains("cannot be answered from the conversation")).count();
      assertThat(abstentionPrompts).isEqualTo(1);
    }
  }
}
