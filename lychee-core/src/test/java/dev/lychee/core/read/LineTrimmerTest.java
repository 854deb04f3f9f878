package dev.lychee.core.read;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;
import org.junit.jupiter.api.Test;

class LineTrimmerTest {
  private static final String LONG = "Dana: Hey Omar, long week here. The kids had a school play on Friday. "
      + "Afterwards we went for pizza and stayed out late. Then on Sunday I finally repotted my tomato plants. "
      + "They look so much happier now.";

  @Test
  void keepsTheFirstSentenceAndTheOnesWithAQueryTerm() {
    String t = LineTrimmer.trim(LONG, Set.of("tomato", "plant"), 80);
    assertThat(t).startsWith("Dana: Hey Omar, long week here. … ")
        .contains("Then on Sunday I finally repotted my tomato plants.")
        .doesNotContain("school play", "pizza")
        .endsWith("…");
    assertThat(t.length()).isLessThan(LONG.length());
  }

  @Test
  void leavesShortLinesDisabledTrimmingAndUnknownTermsAlone() {
    assertThat(LineTrimmer.trim("Dana: I repotted the tomatoes.", Set.of("tomato"), 10))
        .isEqualTo("Dana: I repotted the tomatoes."); // fewer than three sentences
    assertThat(LineTrimmer.trim(LONG, Set.of("tomato"), 0)).isEqualTo(LONG);
    assertThat(LineTrimmer.trim(LONG, Set.of("tomato"), 10_000)).isEqualTo(LONG);
    assertThat(LineTrimmer.trim(LONG, Set.of(), 80)).isEqualTo(LONG);
  }

  @Test
  void aLineWithNoMatchingSentenceKeepsItsOpening() {
    String t = LineTrimmer.trim(LONG, Set.of("violin"), 80);
    assertThat(t).isEqualTo("Dana: Hey Omar, long week here. …");
  }
}
