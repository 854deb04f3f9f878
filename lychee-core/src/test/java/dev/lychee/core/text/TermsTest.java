package dev.lychee.core.text;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class TermsTest {
  /** What {@link Terms#tokens} used to run, and must still agree with on every input. */
  private static final Pattern WORD = Pattern.compile("\\w+", Pattern.UNICODE_CHARACTER_CLASS);

  private static Set<String> regexTokens(String text) {
    Set<String> out = new LinkedHashSet<>();
    Matcher m = WORD.matcher(text.toLowerCase(Locale.ROOT));
    while (m.find()) {
      out.add(m.group());
    }
    return out;
  }

  @Test
  void tokensAreCasefoldedWordRunsInFirstOccurrenceOrder() {
    assertThat(Terms.tokens("Rafael: I ran a 5k_race, then RAN home!! (ran)"))
        .containsExactly("rafael", "i", "ran", "a", "5k_race", "then", "home");
    assertThat(Terms.tokens(null)).isEmpty();
    assertThat(Terms.tokens(" ... ")).isEmpty();
  }

  @Test
  void everyCodePointIsAWordCharacterExactlyWhenTheUnicodeWordClassSaysSo() {
    for (int cp = 0; cp <= Character.MAX_CODE_POINT; cp++) {
      boolean regex = WORD.matcher(new String(Character.toChars(cp))).matches();
      if (regex != Terms.isWordChar(cp)) {
        assertThat(Terms.isWordChar(cp)).as("U+%04X", cp).isEqualTo(regex);
      }
    }
  }

  @Test
  void tokensAgreeWithTheUnicodeWordRegexOnMixedScriptText() {
    List<String> samples = new ArrayList<>(List.of(
        "Nadia's community choir rehearsal met on 7 May 2023; Raphaëlle painted a sunrise.",
        "İstanbul ǅemal straße ΣΊΣΥΦΟΣ naïve cafe\u0301 co\u200Dop \u0660\u0661\u0662 \uD835\uDC00bc",
        "emoji 👍🏽 and 家族 と 旅行 — tabs\tand\nnew lines, under_score, a‿b",
        "", "x", "'quoted' \"words\" [brackets] {braces} 3.14 1,000"));
    Random random = new Random(7);
    int[] pool = {'a', 'Z', '0', '_', ' ', '-', '\'', 0x0301, 0x200C, 0x200D, 0x0130, 0x01C5, 0x03A3, 0x00DF,
        0x0660, 0x3042, 0x1F44D, 0x1F3FD, 0x1D400, 0x203F, 0x2160, 0x00B2, '\n'};
    for (int s = 0; s < 2000; s++) {
      StringBuilder b = new StringBuilder();
      int len = random.nextInt(24);
      for (int i = 0; i < len; i++) {
        b.appendCodePoint(pool[random.nextInt(pool.length)]);
      }
      samples.add(b.toString());
    }
    for (String text : samples) {
      assertThat(List.copyOf(Terms.tokens(text))).as(text).containsExactlyElementsOf(regexTokens(text));
    }
  }

  @Test
  void isWordAcceptsExactlyOneWholeToken() {
    assertThat(Terms.isWord("dana")).isTrue();
    assertThat(Terms.isWord("5k_race")).isTrue();
    assertThat(Terms.isWord("mary-ann")).isFalse();
    assertThat(Terms.isWord("o'neil")).isFalse();
    assertThat(Terms.isWord("")).isFalse();
  }

  @Test
  void contentOfTokensEqualsContentOfText() {
    String text = "What books did the Hobbies group read about libraries in 2022?";
    assertThat(Terms.content(Terms.tokens(text))).containsExactlyElementsOf(Terms.content(text))
        .containsExactly("book", "hobby", "group", "read", "library", "2022");
  }

  @Test
  void isTokenOfLowerCaseAnswersAsTheTokenSetDoes() {
    assertThat(Terms.isTokenOfLowerCase("dana smith", "dana")).isTrue();
    assertThat(Terms.isTokenOfLowerCase("danae smith", "dana")).isFalse();
    assertThat(Terms.isTokenOfLowerCase("mcdana", "dana")).isFalse();
    assertThat(Terms.isTokenOfLowerCase("dana_s", "dana")).isFalse();
    assertThat(Terms.isTokenOfLowerCase("mary-ann", "mary-ann")).isFalse(); // not one token
    assertThat(Terms.isTokenOfLowerCase("mary-ann", "ann")).isTrue();
    assertThat(Terms.isTokenOfLowerCase(null, "dana")).isFalse();
    assertThat(Terms.isTokenOfLowerCase("dana", "")).isFalse();
    // every token of random texts, every near miss and the words of other texts: as tokens(...).contains says
    Random random = new Random(11);
    int[] pool = {'a', 'b', 'A', '0', '_', ' ', '-', '\'', 0x0301, 0x200C, 0x200D, 0x0130, 0x01C5, 0x00DF,
        0x0660, 0x3042, 0x1F44D, 0x1D400, 0x203F, 0x00B2, '\n'};
    List<String> texts = new ArrayList<>();
    for (int s = 0; s < 1500; s++) {
      StringBuilder b = new StringBuilder();
      int len = random.nextInt(16);
      for (int i = 0; i < len; i++) {
        b.appendCodePoint(pool[random.nextInt(pool.length)]);
      }
      texts.add(b.toString());
    }
    int hits = 0;
    for (int s = 0; s < texts.size(); s++) {
      String text = texts.get(s);
      Set<String> tokens = Terms.tokens(text);
      List<String> probes = new ArrayList<>(tokens);
      for (String t : tokens) {
        probes.add(t.substring(0, t.length() - 1));
        probes.add(t + "a");
      }
      probes.addAll(Terms.tokens(texts.get((s + 1) % texts.size())));
      probes.add(text.toLowerCase(Locale.ROOT));
      for (String probe : probes) {
        boolean expected = tokens.contains(probe);
        hits += expected ? 1 : 0;
        assertThat(Terms.isTokenOfLowerCase(text.toLowerCase(Locale.ROOT), probe)).as(text + " / " + probe)
            .isEqualTo(expected);
      }
    }
    assertThat(hits).isGreaterThan(1000);
  }

  @Test
  void holdsContentTermAgreesWithTheContentSet() {
    Set<String> terms = Set.of("tomato", "plant", "library", "2023", "run");
    String[] words = {"Tomatoes", "plants", "the", "a", "libraries", "2023", "running", "run's", "s", "I",
        "Plant.", "it's", "LIBRARY", "x"};
    Random random = new Random(21);
    for (int n = 0; n < 2_000; n++) {
      StringBuilder text = new StringBuilder();
      for (int i = random.nextInt(8); i > 0; i--) {
        text.append(words[random.nextInt(words.length)]).append(random.nextBoolean() ? " " : ", ");
      }
      String t = text.toString();
      assertThat(Terms.holdsContentTerm(t, terms)).as(t)
          .isEqualTo(Terms.content(t).stream().anyMatch(terms::contains));
    }
    assertThat(Terms.holdsContentTerm(null, terms)).isFalse();
    assertThat(Terms.holdsContentTerm("The tomatoes", Set.of())).isFalse();
  }
}
