package dev.lychee.bench.qa;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;

class QaSummaryTest {
  private static QuestionOutcome q(int cat, boolean correct, long queryIn, long queryOut, long millis) {
    return new QuestionOutcome(0, cat, "t", "q", "g", correct ? "g" : "x", correct, true, correct ? 1 : 0, correct ? 1 : 0,
        correct ? 1 : 0, false, 1,
        2, queryIn, queryOut, 40, 2, millis);
  }

  @Test
  void accuracyTokensAndLatencyFollowFromKnownJudgements() {
    ConversationOutcome a = new ConversationOutcome("a", "v", 10, 3, 0, 5, 3, 3000, 600, 100,
        List.of(q(1, true, 1000, 100, 10), q(1, false, 2000, 100, 20), q(2, true, 1000, 0, 30)));
    ConversationOutcome b = new ConversationOutcome("b", "v", 10, 2, 1, 4, 2, 1000, 400, 100,
        List.of(q(2, false, 500, 0, 40)));
    QaSummary s = QaSummary.of(List.of(a, b));
    assertThat(s.questions()).isEqualTo(4);
    assertThat(s.accuracy()).isEqualTo(0.5);
    assertThat(s.accuracyByGroup()).containsEntry("1", 0.5).containsEntry("2", 0.5);
    assertThat(s.constructionKTokensPerConversation()).isCloseTo((3600 + 1400) / 2.0 / 1000, within(1e-12));
    assertThat(s.constructionCallsPerConversation()).isEqualTo(2.5);
    assertThat(s.queryKTokensPerQuestion()).isCloseTo((1100 + 2100 + 1000 + 500) / 4.0 / 1000, within(1e-12));
    assertThat(s.judgeTokens()).isEqualTo(4 * 42);
    assertThat(s.answerP50Millis()).isEqualTo(20);
    assertThat(s.answerP95Millis()).isEqualTo(40);
    assertThat(s.pendingSegments()).isEqualTo(1);
  }

  @Test
  void lexicalScoresAreReportedPerCategory() {
    QuestionOutcome right = new QuestionOutcome(0, 1, "t", "q", "g", "g", false, false, 1, 1, 1, false, 1, 0, 0, 0, 0, 0, 5);
    QuestionOutcome half = new QuestionOutcome(1, 1, "t", "q", "g h", "g", false, false, 0.5, 0.5, 0, false, 0.5, 0, 0, 0, 0, 0, 5);
    QuestionOutcome abstained = new QuestionOutcome(2, 2, "t", "q", "g", "none", false, false, 0, 0, 0, true, 0.2, 0, 0, 0, 0, 0, 5);
    QaSummary s = QaSummary.of(List.of(new ConversationOutcome("a", "v", 1, 1, 0, 1, 0, 0, 0, 1,
        List.of(right, half, abstained))));
    assertThat(s.f1ByGroup()).containsEntry("1", 0.75).containsEntry("2", 0.0);
    assertThat(s.exactMatchByGroup()).containsEntry("1", 0.5).containsEntry("2", 0.0);
    assertThat(s.abstentionByGroup()).containsEntry("1", 0.0).containsEntry("2", 1.0);
    assertThat(s.bestSentenceF1ByGroup()).containsEntry("1", 0.75).containsEntry("2", 0.2);
  }

  @Test
  void progressShowsJudgeAccuracyOnlyWhenAJudgeGraded() {
    ConversationOutcome judged = new ConversationOutcome("a", "v", 10, 3, 0, 5, 3, 3000, 600, 100,
        List.of(q(1, true, 1000, 100, 10), q(1, false, 2000, 100, 20)));
    assertThat(QaRunner.progressFigure(judged)).isEqualTo(", judge accuracy 0.500");
    QuestionOutcome right = new QuestionOutcome(0, 1, "t", "q", "g", "g", false, false, 1, 1, 1, false, 1, 0, 0, 0, 0, 0, 5);
    QuestionOutcome half = new QuestionOutcome(1, 1, "t", "q", "g h", "g", false, false, 0.5, 0.5, 0, false, 0.5, 0, 0, 0, 0, 0, 5);
    ConversationOutcome offline = new ConversationOutcome("a", "v", 1, 1, 0, 1, 0, 0, 0, 1, List.of(right, half));
    assertThat(QaRunner.progressFigure(offline)).isEqualTo(", token F1 0.750 (no judge)");
  }

  @Test
  void anEmptyRunHasNoAccuracyRatherThanZero() {
    assertThat(QaSummary.of(List.of()).accuracy()).isNaN();
  }
}
