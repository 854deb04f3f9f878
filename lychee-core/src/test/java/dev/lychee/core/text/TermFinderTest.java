package dev.lychee.core.text;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

class TermFinderTest {
  private static final String[] WORDS = {"hike", "hikes", "Hiking", "river", "RIVERS", "library", "libraries",
      "Libraries", "berry", "berries", "glass", "glasses", "class", "bus", "buses", "ties", "tie", "cities",
      "city", "the", "a", "s", "7", "x", "42", "dana", "Dana's", "o'neil", "mary-ann", "café", "CAFÉ", "naïve",
      "İstanbul", "ΟΔΟΣ", "straße", "日本", "emoji😀", "snake_case", "re-read", "it's", "ies", "yies"};
  private static final String[] GLUE = {" ", ", ", ". ", "\n", "-", "'", "’", " (", ") ", "…", "\t", ""};

  /** What collecting the tokens as strings gives: the content terms among the query, and whether a word is a token. */
  private static BitSet reference(String text, List<String> terms, Set<String> words, boolean[] word) {
    BitSet out = new BitSet();
    Terms.forEachToken(text, t -> {
      if (words.contains(t)) {
        word[0] = true;
      }
      String term = Terms.contentTerm(t);
      int i = term == null ? -1 : terms.indexOf(term);
      if (i >= 0) {
        out.set(i);
      }
    });
    return out;
  }

  private static String text(Random random) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < random.nextInt(25); i++) {
      sb.append(WORDS[random.nextInt(WORDS.length)]).append(GLUE[random.nextInt(GLUE.length)]);
    }
    return sb.toString();
  }

  @Test
  void findsExactlyWhatCollectingTheTokensAsStringsFinds() {
    Random random = new Random(5);
    for (int round = 0; round < 2000; round++) {
      Set<String> terms = new LinkedHashSet<>();
      Set<String> words = new LinkedHashSet<>();
      for (int i = 0; i < random.nextInt(8); i++) {
        terms.addAll(Terms.content(WORDS[random.nextInt(WORDS.length)]));
      }
      if (random.nextInt(3) == 0) {
        terms.add("stop-word-free term that no token makes");
      }
      for (int i = 0; i < random.nextInt(3); i++) {
        words.add(WORDS[random.nextInt(WORDS.length)].toLowerCase(java.util.Locale.ROOT));
      }
      TermFinder finder = TermFinder.of(terms, words);
      List<String> ordered = new ArrayList<>(terms);
      assertThat(finder.terms()).isEqualTo(ordered.size());
      for (int t = 0; t < 5; t++) {
        String text = text(random);
        boolean[] word = {false};
        BitSet expected = reference(text, ordered, words, word);
        TermFinder.Found found = finder.find(text);
        assertThat(found.terms()).as(text + " / " + terms).isEqualTo(expected);
        assertThat(found.word()).as(text + " / " + words).isEqualTo(word[0]);
      }
    }
  }

  @Test
  void pluralsMeetTheirTermAndFunctionWordsAreNeverTerms() {
    TermFinder finder = TermFinder.of(List.of("library", "book", "hike", "the"), Set.of("dana"));
    TermFinder.Found found = finder.find("Dana: The LIBRARIES had Books; we hiked");
    assertThat(found.terms().stream().toArray()).containsExactly(0, 1);
    assertThat(found.word()).isTrue();
    assertThat(finder.find(null).terms().isEmpty()).isTrue();
    assertThat(TermFinder.of(List.of(), List.of()).find("anything").word()).isFalse();
  }
}
