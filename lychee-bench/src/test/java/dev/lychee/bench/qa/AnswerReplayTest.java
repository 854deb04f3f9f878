package dev.lychee.bench.qa;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lychee.api.CandidateKind;
import dev.lychee.api.SourceRole;
import dev.lychee.bench.cli.EvalCommand;
import dev.lychee.core.answer.ExtractiveAnswerGenerator;
import dev.lychee.core.testing.HashingEmbedder;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code eval answers}: the evidence is saved once and replayed, and each question's outcome names
 * the sentence its answer was cut from and the evidence sentence with the best F1.
 */
class AnswerReplayTest {
  @TempDir Path dir;

  private static AnswerReplay.SavedItem turn(int rank, String text) {
    return new AnswerReplay.SavedItem(rank, 1.0 / rank, "episode:s1:" + rank, CandidateKind.RAW_TURN, text, "s1",
        "2024-03-11T10:00", null, null, null, SourceRole.USER, List.of(), List.of());
  }

  @Test
  void aReplayNamesTheChosenAndTheBestSentence() {
    AnswerReplay.SavedQuestion q = new AnswerReplay.SavedQuestion("c1", 0, 4, "What instrument did Noor buy?", "a cello",
        "2024-03-12T09:00", List.of(
            turn(1, "Ivo: The weather was grey all week."),
            turn(2, "Noor: I finally bought a cello. It sounds warm.")));
    List<AnswerReplay.Outcome> out = AnswerReplay.replay(List.of(q), new ExtractiveAnswerGenerator());
    AnswerReplay.Outcome o = out.get(0);
    assertThat(o.answer()).isEqualTo("cello");
    assertThat(o.f1()).isEqualTo(1.0);
    assertThat(o.chosen()).isEqualTo("I finally bought a cello.");
    assertThat(o.chosenRank()).isEqualTo(2);
    assertThat(o.best()).isEqualTo("I finally bought a cello.");
    // the span bounds: the best run of tokens of any sentence, and of the chosen one ("a" is no token)
    assertThat(o.bestSpan()).isEqualTo("cello");
    assertThat(o.bestSpanF1()).isEqualTo(1.0);
    assertThat(o.chosenSpanF1()).isEqualTo(1.0);
    assertThat(AnswerReplay.summarize(out).get("4").f1()).isEqualTo(1.0);
    // a replay whose answer changed is listed against the earlier one
    AnswerReplay.Outcome worse = new AnswerReplay.Outcome("c1", 0, 4, o.question(), o.gold(), "grey", 0, 0, false,
        null, 0, 0, o.best(), o.bestF1(), o.bestSpan(), o.bestSpanF1(), o.chosenSpanF1());
    assertThat(AnswerReplay.changes(List.of(worse), out)).singleElement().asString().startsWith("better +1.00");
  }

  @Test
  void theBestSpanIsTheRunOfAtMostSixTokensWithTheBestF1() {
    AnswerReplay.Span s = AnswerReplay.bestSpan("Yesterday I took my niece to the blue lake near town.", "blue lake");
    assertThat(s.text()).isEqualTo("blue lake");
    assertThat(s.f1()).isEqualTo(1.0);
    // a reference longer than the window: the best run holds six of its eight tokens
    AnswerReplay.Span longer = AnswerReplay.bestSpan("one two three four five six seven eight", "one two three four five six seven eight");
    assertThat(longer.text()).isEqualTo("one two three four five six");
    assertThat(longer.f1()).isCloseTo(2 * 1.0 * 0.75 / 1.75, org.assertj.core.data.Offset.offset(1e-9));
    assertThat(AnswerReplay.bestSpan("nothing shared here", "blue lake").f1()).isZero();
  }

  @Test
  void theCommandSavesTheEvidenceAndReplaysItWithTheSameScores() throws Exception {
    Path evidence = dir.resolve("evidence.jsonl");
    Path first = dir.resolve("first.jsonl");
    Path second = dir.resolve("second.tsv");
    String saved = run("answers", "--data", Fixture.copyTo(dir).toString(), "--evidence", evidence.toString(),
        "--dump", first.toString());
    assertThat(AnswerReplay.load(evidence)).hasSize(Fixture.questions().size());
    String replayed = run("answers", "--evidence", evidence.toString(), "--dump", second.toString(),
        "--compare", first.toString());
    // the same answerer on the same evidence: the same table, no changed answer
    assertThat(replayed.lines().filter(l -> l.startsWith("all")).findFirst())
        .isEqualTo(saved.lines().filter(l -> l.startsWith("all")).findFirst());
    assertThat(replayed).doesNotContain("better").doesNotContain("worse");
    List<String> tsv = Files.readAllLines(second);
    assertThat(tsv.get(0)).isEqualTo("conversation\tindex\tcategory\tf1\tbest_f1\tspan_f1\tchosen_span_f1\tquestion"
        + "\tgold\tanswer\tchosen\tbest\tbest_span");
    assertThat(tsv).hasSize(Fixture.questions().size() + 1);
    assertThat(AnswerReplay.loadOutcomes(first)).hasSize(Fixture.questions().size());
  }

  private static String run(String... args) {
    PrintStream old = System.out;
    ByteArrayOutputStream buf = new ByteArrayOutputStream();
    try (PrintStream p = new PrintStream(buf, true, StandardCharsets.UTF_8)) {
      System.setOut(p);
      int exit = new CommandLine(new EvalCommand(HashingEmbedder::new).environment(Map.of())).execute(args);
      assertThat(exit).isZero();
    } finally {
      System.setOut(old);
    }
    return buf.toString(StandardCharsets.UTF_8);
  }
}
