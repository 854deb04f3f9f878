package dev.lychee.core.read;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.Random;
import java.util.Set;
import java.util.regex.Pattern;
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

  /** The pattern the sentence scan replaced (round twenty-one): the scan must cut exactly where it did. */
  private static final Pattern OLD_SENTENCE_END = Pattern.compile("(?<=[.!?…])\\s+(?=\\S)");

  @Test
  void sentencesAreCutWhereThePatternCutThem() {
    for (String text : new String[] {"", " ", "One.", "One. ", "One.  Two! Three?\tFour… five", ". . x",
        "Ends in space. ", "Dr. Who? Yes.\n\nNo.\r\nMaybe!\u000B\fOk", "…x … y", "a.b. c", "No end here",
        " . lead", "Wait...   what?!  Really?? ", "emoji 😀. next", "x.\u00a0y. z"}) {
      assertThat(LineTrimmer.sentences(text)).as(text).containsExactly(OLD_SENTENCE_END.split(text));
    }
    Random random = new Random(21);
    char[] alphabet = {'a', 'b', ' ', ' ', '.', '!', '?', '…', '\t', '\n', '\r', '\f', 0x0B, '\u00a0', '"'};
    for (int n = 0; n < 5_000; n++) {
      char[] text = new char[random.nextInt(40)];
      for (int i = 0; i < text.length; i++) {
        text[i] = alphabet[random.nextInt(alphabet.length)];
      }
      String s = new String(text);
      assertThat(LineTrimmer.sentences(s)).as(Arrays.toString(text)).containsExactly(OLD_SENTENCE_END.split(s));
    }
  }
}
