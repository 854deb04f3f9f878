package dev.lychee.core.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.lychee.api.ScoredId;
import java.util.List;
import org.junit.jupiter.api.Test;

class Bm25IndexTest {

  @Test
  void scoreMatchesTheOkapiFormulaByHand() {
    Bm25Index idx = new Bm25Index();
    idx.put("d1", "a b");
    idx.put("d2", "a c c");
    // N=2, avgdl=2.5, df(c)=1: idf = ln(1 + 1.5/1.5) = ln 2; tf=2, dl=3
    double expected = Math.log(2) * 2 * 2.2 / (2 + 1.2 * (0.25 + 0.75 * 3 / 2.5));
    List<ScoredId> hits = idx.search("C", 5);
    assertThat(hits).singleElement().satisfies(h -> {
      assertThat(h.id()).isEqualTo("d2");
      assertThat(h.score()).isCloseTo(expected, within(1e-12));
    });
    // repeated query terms count once
    assertThat(idx.search("c c c", 5).get(0).score()).isCloseTo(expected, within(1e-12));
  }

  @Test
  void replaceAndRemoveUpdateStatistics() {
    Bm25Index idx = new Bm25Index();
    idx.put("d1", "apple pie");
    idx.put("d1", "banana bread");
    assertThat(idx.size()).isEqualTo(1);
    assertThat(idx.search("apple", 3)).isEmpty();
    assertThat(idx.search("banana", 3)).extracting(ScoredId::id).containsExactly("d1");
    idx.remove("d1");
    idx.remove("unknown");
    assertThat(idx.size()).isZero();
    assertThat(idx.search("banana", 3)).isEmpty();
  }

  @Test
  void equalScoresComeBackByIdAscending() {
    Bm25Index idx = new Bm25Index();
    for (String id : List.of("c", "a", "b")) {
      idx.put(id, "same words");
    }
    assertThat(idx.search("same", 2)).extracting(ScoredId::id).containsExactly("a", "b");
  }

  @Test
  void tokenizerKeepsLettersDigitsAndSplitsIdeographs() {
    assertThat(TextTokenizer.tokens("Caroline's (LGBTQ) group: 2023-05-07 \"NEAR\"*"))
        .containsExactly("caroline", "s", "lgbtq", "group", "2023", "05", "07", "near");
    assertThat(TextTokenizer.tokens("我喜欢荔枝 ok")).containsExactly("我", "喜", "欢", "荔", "枝", "ok");
    assertThat(TextTokenizer.tokens("Привет, мир")).containsExactly("привет", "мир");
    assertThat(TextTokenizer.tokens("")).isEmpty();
    assertThat(TextTokenizer.tokens(null)).isEmpty();
  }

  @Test
  void badParametersAreRejected() {
    assertThatThrownBy(() -> new Bm25Index(-1, 0.5)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new Bm25Index(1.2, 2)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new Bm25Index().search("x", 0)).isInstanceOf(IllegalArgumentException.class);
  }
}
