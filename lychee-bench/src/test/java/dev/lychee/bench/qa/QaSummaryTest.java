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
  void anEmptyRunHasNoAccuracyRatherThanZero() {
    assertThat(QaSummary.of(List.of()).accuracy()).isNaN();
  }
}
