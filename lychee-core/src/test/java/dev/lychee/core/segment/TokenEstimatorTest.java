package dev.lychee.core.segment;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class TokenEstimatorTest {

  @ParameterizedTest(name = "[{index}] \"{0}\" -> {1}")
  @CsvSource(delimiter = '|', quoteCharacter = '"', value = {
    "\"\"                 | 1",   // empty: at least 1
    "hello               | 1",
    "hello world         | 2",   // 2 words, 1 other -> floor(1/4) = 0
    "a b c d e           | 6",   // 5 words + floor(4/4)
    "\"Hello, world!\"   | 2",   // 2 words + floor(3/4)
    "!!!                 | 1",   // floor(3/4) = 0 -> 1
    "!!!!!!!!            | 2",   // 8 others
    "snake_case_name     | 1",   // underscore is a word character
    "abc123 x9           | 2",
    "你好世界            | 4",   // one per CJK character
    "我爱Java 17!        | 4",   // 2 CJK + 2 words + floor(2/4)
    "café                | 1",   // é is not [A-Za-z0-9_]: word 'caf' + 1 other
    "user: I went to Paris on 7 May, 2023. | 11", // 9 words + floor(11 others / 4)
  })
  void estimates(String text, int expected) {
    assertThat(TokenEstimator.estimate(text)).isEqualTo(expected);
  }

  @Test
  void countsCodePointsNotUtf16Units() {
    // four emoji are 4 code points (8 UTF-16 units): floor(4/4) = 1, not floor(8/4) = 2
    assertThat(TokenEstimator.estimate("\uD83D\uDE00\uD83D\uDE00\uD83D\uDE00\uD83D\uDE00")).isEqualTo(1);
    assertThat(TokenEstimator.estimate("\uD83D\uDE00".repeat(8))).isEqualTo(2);
  }

  @Test
  void cjkRangeBoundaries() {
    assertThat(TokenEstimator.estimate("\u4E00\u9FFF")).isEqualTo(2);
    // just outside the range: other characters
    assertThat(TokenEstimator.estimate("\u4DFF\uA000")).isEqualTo(1);
  }

  @Test
  void incrementalCounterAgreesWithTheEstimateOnEveryPrefix() {
    Random random = new Random(7);
    String alphabet = "ab Z_9 ,.!你好é\n";
    for (int trial = 0; trial < 50; trial++) {
      StringBuilder sb = new StringBuilder();
      TokenEstimator.Counter counter = new TokenEstimator.Counter();
      for (int i = 0; i < 60; i++) {
        int cp = alphabet.codePointAt(random.nextInt(alphabet.length()));
        int predicted = counter.estimateWith(cp);
        sb.appendCodePoint(cp);
        counter.add(cp);
        assertThat(predicted).isEqualTo(TokenEstimator.estimate(sb.toString()));
        assertThat(counter.estimate()).isEqualTo(predicted);
      }
    }
  }
}
