package dev.lychee.bench.qa;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lychee.bench.cli.EvalCommand;
import dev.lychee.bench.locomo.LocomoQuestion;
import dev.lychee.core.testing.HashingEmbedder;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;

/**
 * {@code eval locomo --llm ... --judge ...} end to end against a local server speaking the OpenAI
 * or the Ollama protocol: accuracy arithmetic, token accounting from the usage the server reported,
 * a second run served wholly from the cache, variants, and the dry run.
 */
class LlmJudgedRunTest {
  @TempDir Path dir;

  record Run(int exit, String out, JsonNode json) {}

  private Run run(Map<String, String> env, String... args) throws Exception {
    Path json = dir.resolve("out-" + System.nanoTime() + ".json");
    List<String> all = new ArrayList<>(List.of("locomo", "--data", Fixture.copyTo(dir).toString(), "--json", json.toString()));
    all.addAll(List.of(args));
    PrintStream old = System.out;
    ByteArrayOutputStream buf = new ByteArrayOutputStream();
    int exit;
    try (PrintStream p = new PrintStream(buf, true, StandardCharsets.UTF_8)) {
      System.setOut(p);
      exit = new CommandLine(new EvalCommand(HashingEmbedder::new).environment(env)).execute(all.toArray(String[]::new));
    } finally {
      System.setOut(old);
    }
    JsonNode node = Files.exists(json) ? ModelServer.JSON.readTree(json.toFile()) : null;
    return new Run(exit, buf.toString(StandardCharsets.UTF_8), node);
  }

  private static long sum(JsonNode variant, String field) {
    long s = 0;
    for (JsonNode c : variant.path("cases")) {
      if (c.has(field)) {
        s += c.get(field).asLong();
      } else {
        for (JsonNode q : c.path("questions")) {
          s += q.path(field).asLong();
        }
      }
    }
    return s;
  }

  private void assertAccountedLikeTheServer(ModelServer server, Run r) {
    assertThat(r.exit()).as(r.out()).isZero();
    List<LocomoQuestion> questions = Fixture.questions();
    JsonNode v = r.json().path("variants").path("lychee");
    assertThat(v.path("questions").asInt()).isEqualTo(questions.size());
    assertThat(v.path("conversations").asInt()).isEqualTo(2);
    assertThat(v.path("judge_accuracy").asDouble()).isCloseTo(Fixture.expectedAccuracy(questions), within(1e-9));
    for (int cat = 1; cat <= 4; cat++) {
      int c = cat;
      List<LocomoQuestion> inCat = questions.stream().filter(q -> q.category() == c).toList();
      if (!inCat.isEmpty()) {
        assertThat(v.path("judge_accuracy_by_group").path(Integer.toString(cat)).asDouble())
            .isCloseTo(Fixture.expectedAccuracy(inCat), within(1e-9));
      }
    }
    // every planner, answer and judge call was made once per question
    assertThat(server.count(ModelServer.Kind.PLANNER)).isEqualTo(questions.size());
    assertThat(server.count(ModelServer.Kind.JUDGE)).isEqualTo(questions.size());
    // tokens as the server reported them
    long encoderCalls = server.count(ModelServer.Kind.ENCODER);
    assertThat(encoderCalls).isPositive();
    assertThat(sum(v, "constructionInputTokens")).isEqualTo(encoderCalls * 100);
    assertThat(sum(v, "constructionOutputTokens")).isEqualTo(encoderCalls * 20);
    assertThat(sum(v, "constructionCalls")).isEqualTo(encoderCalls);
    long planner = server.count(ModelServer.Kind.PLANNER);
    long answers = server.count(ModelServer.Kind.ANSWER);
    assertThat(sum(v, "queryInputTokens")).isEqualTo(planner * 30 + answers * 50);
    assertThat(sum(v, "queryOutputTokens")).isEqualTo(planner * 10 + answers * 5);
    assertThat(v.path("judge_tokens").asLong()).isEqualTo(server.count(ModelServer.Kind.JUDGE) * 42);
    assertThat(v.path("construction_ktokens_per_conversation").asDouble())
        .isCloseTo(encoderCalls * 120 / 2.0 / 1000.0, within(1e-9));
    assertThat(v.path("query_ktokens_per_question").asDouble())
        .isCloseTo((planner * 40 + answers * 55) / (double) questions.size() / 1000.0, within(1e-9));
  }

  @Test
  void openAiRunReportsTheJudgedAccuracyAndTheTokensTheServerReported() throws Exception {
    try (ModelServer server = ModelServer.openAi()) {
      Path report = dir.resolve("report");
      Run r = run(server.environment(), "--llm", "openai:qa-model", "--judge", "openai:judge-model", "--report",
          report.toString());
      assertAccountedLikeTheServer(server, r);
      assertThat(r.out()).contains("judge accuracy by category");
      assertThat(Files.readString(report.resolve("qa.md"))).contains("| lychee | 2 |");
      assertThat(Files.readString(report.resolve(QaReport.CHART_FILE))).startsWith("<svg");
    }
  }

  @Test
  void ollamaRunIsAccountedTheSameWay() throws Exception {
    try (ModelServer server = ModelServer.ollama()) {
      assertAccountedLikeTheServer(server, run(server.environment(), "--llm", "ollama:qa-model:7b"));
      assertThat(server.requests()).allSatisfy(req -> assertThat(req.path()).isEqualTo("/api/chat"));
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"openai", "ollama"})
  void aSecondRunWithTheSameCacheSendsNothing(String provider) throws Exception {
    try (ModelServer server = provider.equals("openai") ? ModelServer.openAi() : ModelServer.ollama()) {
      Path cache = dir.resolve("cache");
      String model = provider + ":qa-model";
      Run first = run(server.environment(), "--llm", model, "--cache", cache.toString());
      long sent = server.total();
      assertThat(first.json().path("requests_sent").asLong()).isEqualTo(sent);
      // drop the checkpoints, so the second run recomputes everything and must get it from the cache
      try (var files = Files.walk(cache.resolve("checkpoints"))) {
        files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
      Run second = run(server.environment(), "--llm", model, "--cache", cache.toString());
      assertThat(server.total()).isEqualTo(sent);
      assertThat(second.json().path("requests_sent").asLong()).isZero();
      assertThat(second.json().path("cache_hits").asLong()).isEqualTo(sent);
      JsonNode a = first.json().path("variants").path("lychee");
      JsonNode b = second.json().path("variants").path("lychee");
      for (String f : List.of("judge_accuracy", "f1", "bleu1", "construction_ktokens_per_conversation",
          "query_ktokens_per_question", "judge_tokens")) {
        assertThat(b.path(f).asDouble()).as(f).isEqualTo(a.path(f).asDouble());
      }
    }
  }

  @Test
  void checkpointedConversationsAreLoadedNotRerun() throws Exception {
    try (ModelServer server = ModelServer.openAi()) {
      Path cp = dir.resolve("cp");
      run(server.environment(), "--llm", "openai:qa-model", "--checkpoints", cp.toString());
      long sent = server.total();
      Run again = run(server.environment(), "--llm", "openai:qa-model", "--checkpoints", cp.toString());
      assertThat(server.total()).isEqualTo(sent);
      assertThat(again.json().path("variants").path("lychee").path("questions").asInt())
          .isEqualTo(Fixture.questions().size());
    }
  }

  @Test
  void variantsAreReportedAsOneAblationTable() throws Exception {
    try (ModelServer server = ModelServer.openAi()) {
      Run r = run(server.environment(), "--llm", "openai:qa-model", "--variants", "lychee,per-turn,summary,no-raw");
      assertThat(r.exit()).as(r.out()).isZero();
      JsonNode v = r.json().path("variants");
      assertThat(v.fieldNames()).toIterable().containsExactly("lychee", "per-turn", "summary", "no-raw");
      // per-turn construction makes at least as many encoder calls as semantic segments
      assertThat(sum(v.path("per-turn"), "constructionCalls")).isGreaterThanOrEqualTo(sum(v.path("lychee"), "constructionCalls"));
      // summaries: one record per segment, written by the summary prompt
      assertThat(server.count(ModelServer.Kind.SUMMARY)).isEqualTo(sum(v.path("summary"), "constructionCalls"));
      assertThat(sum(v.path("summary"), "records")).isEqualTo(sum(v.path("summary"), "segments"));
      assertThat(r.out()).contains("per-turn").contains("summary").contains("no-raw");
    }
  }

  @Test
  void theDryRunEstimatesWithoutSendingAnything() throws Exception {
    try (ModelServer server = ModelServer.openAi()) {
      Run r = run(server.environment(), "--llm", "openai:qa-model", "--variants", "lychee,per-turn", "--dry-run");
      assertThat(r.exit()).as(r.out()).isZero();
      assertThat(server.total()).isZero();
      int n = Fixture.questions().size();
      String lychee = r.out().lines().filter(l -> l.startsWith("lychee ")).findFirst().orElseThrow();
      String perTurn = r.out().lines().filter(l -> l.startsWith("per-turn ")).findFirst().orElseThrow();
      String[] a = lychee.trim().split("\\s+");
      String[] b = perTurn.trim().split("\\s+");
      assertThat(Integer.parseInt(a[2])).isEqualTo(n);
      assertThat(Integer.parseInt(a[5])).isEqualTo(2 * n);
      assertThat(Long.parseLong(b[3])).isGreaterThanOrEqualTo(Long.parseLong(a[3]));
      assertThat(Double.parseDouble(a[9])).isPositive();
      assertThat(r.out()).contains("nothing was sent");
    }
  }

  @Test
  void anOfflineRunReportsLexicalScoresAndNoAccuracy() throws Exception {
    try (ModelServer server = ModelServer.openAi()) {
      Run r = run(server.environment(), "--llm", "offline");
      assertThat(r.exit()).as(r.out()).isZero();
      assertThat(server.total()).isZero();
      JsonNode v = r.json().path("variants").path("lychee");
      assertThat(v.path("questions").asInt()).isEqualTo(Fixture.questions().size());
      assertThat(v.path("judge_accuracy").isNull() || v.path("judge_accuracy").asText().equals("NaN")).isTrue();
      double f1 = v.path("f1").asDouble();
      assertThat(f1).isBetween(0.0, 1.0);
      assertThat(v.path("best_sentence_f1").asDouble()).isGreaterThanOrEqualTo(0.0);
      assertThat(v.path("abstention").asDouble()).isBetween(0.0, 1.0);
      assertThat(r.out()).contains("token F1 by category");
    }
  }

  @Test
  void aBadModelSpecIsAUsageError() throws Exception {
    assertThat(run(Map.of(), "--llm", "gpt-4").exit()).isEqualTo(2);
    assertThat(run(Map.of(), "--llm", "openai:m", "--variants", "lychee,nonsense").exit()).isEqualTo(2);
    assertThat(run(Map.of(), "--llm", "openai:m", "--concurrency", "0").exit()).isEqualTo(2);
  }

  @Test
  void concurrentConversationsSurviveRateLimitsWithRetryAfter() throws Exception {
    try (ModelServer server = ModelServer.openAi()) {
      server.rateLimitFirst(3);
      Run r = run(server.environment(), "--llm", "openai:qa-model", "--concurrency", "2");
      assertThat(r.exit()).as(r.out()).isZero();
      assertThat(server.rateLimited()).isEqualTo(3);
      assertThat(r.json().path("variants").path("lychee").path("judge_accuracy").asDouble())
          .isEqualTo(Fixture.expectedAccuracy(Fixture.questions()));
    }
  }
}
