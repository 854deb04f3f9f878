package dev.lychee.bench.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class AnswerTextTest {
  @Test
  void normalisationDropsCasePunctuationAndArticles() {
    assertThat(AnswerText.normalize("The Red, bicycle!  A gift.")).isEqualTo("red bicycle gift");
    assertThat(AnswerText.tokens("  ")).isEmpty();
  }

  @Test
  void f1CountsSharedTokensWithMultiplicity() {
    // prediction: 7 may 2023 (3 tokens); gold: may 7 (2 tokens); shared 2 -> P 2/3, R 1 -> F1 0.8
    assertThat(AnswerText.f1("7 May 2023", "May 7")).isCloseTo(0.8, within(1e-12));
    assertThat(AnswerText.f1("dog dog", "dog")).isCloseTo(2 * 0.5 * 1 / 1.5, within(1e-12));
    assertThat(AnswerText.f1("cat", "dog")).isZero();
    assertThat(AnswerText.f1("", "dog")).isZero();
    assertThat(AnswerText.f1("the", "a")).isEqualTo(1.0);
  }

  @Test
  void exactMatchComparesNormalisedText() {
    assertThat(AnswerText.exactMatch("The cello.", "cello")).isEqualTo(1.0);
    assertThat(AnswerText.exactMatch("a cello", "violin")).isZero();
  }

  @Test
  void bleu1IsClippedPrecisionWithBrevityPenalty() {
    // prediction "red" vs gold "red bike": precision 1, brevity exp(1 - 2/1) = e^-1
    assertThat(AnswerText.bleu1("red", "red bike")).isCloseTo(Math.exp(-1), within(1e-12));
    // clipped: "red red red" vs "red bike": 1 of 3 counted, no brevity penalty
    assertThat(AnswerText.bleu1("red red red", "red bike")).isCloseTo(1.0 / 3, within(1e-12));
  }
}
