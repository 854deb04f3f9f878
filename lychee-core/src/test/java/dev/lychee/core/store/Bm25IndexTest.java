package dev.lychee.core.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.lychee.api.ScoredId;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
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
    assertThat(TextTokenizer.tokens("Nadia's (community) group: 2023-05-07 \"NEAR\"*"))
        .containsExactly("nadia", "s", "community", "group", "2023", "05", "07", "near");
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

  @Test
  void manyPutsReplacementsAndRemovalsScoreAsTheFormulaOverTheLiveDocuments() {
    Bm25Index idx = new Bm25Index();
    Map<String, List<String>> live = new HashMap<>();
    Random rnd = new Random(7);
    String[] words = {"apple", "pie", "bread", "cat", "dog", "lake", "run", "blue", "sun", "moon"};
    for (int step = 0; step < 3000; step++) {
      String id = "d" + rnd.nextInt(400);
      if (rnd.nextInt(4) == 0) {
        idx.remove(id);
        live.remove(id);
      } else {
        StringBuilder text = new StringBuilder();
        for (int w = 0, n = 1 + rnd.nextInt(8); w < n; w++) {
          text.append(words[rnd.nextInt(words.length)]).append(' ');
        }
        idx.put(id, text.toString());
        live.put(id, TextTokenizer.tokens(text.toString()));
      }
      if (step % 500 == 499) {
        for (String q : List.of("apple pie", "cat dog moon", "sun", "zzz")) {
          assertThat(idx.search(q, 12)).containsExactlyElementsOf(byHand(live, q, 12));
        }
      }
    }
    assertThat(idx.size()).isEqualTo(live.size());
    // dead slots are compacted away before they outnumber the live documents
    assertThat(idx.deadSlots()).isLessThanOrEqualTo(Math.max(64, live.size()));
  }

  /** Okapi BM25 over the live documents, written out directly, best first then id ascending. */
  private static List<ScoredId> byHand(Map<String, List<String>> docs, String query, int k) {
    int n = docs.size();
    double avgdl = Math.max(1e-9, docs.values().stream().mapToInt(List::size).sum() / (double) n);
    Map<String, Double> scores = new HashMap<>();
    for (String term : new LinkedHashSet<>(TextTokenizer.tokens(query))) {
      long df = docs.values().stream().filter(d -> d.contains(term)).count();
      double idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
      docs.forEach((id, d) -> {
        double tf = d.stream().filter(term::equals).count();
        if (tf > 0) {
          double k1 = Bm25Index.DEFAULT_K1;
          double b = Bm25Index.DEFAULT_B;
          double s = idf * tf * (k1 + 1) / (tf + k1 * (1 - b + b * d.size() / avgdl));
          scores.merge(id, s, Double::sum);
        }
      });
    }
    List<ScoredId> out = new ArrayList<>();
    scores.forEach((id, s) -> out.add(new ScoredId(id, s)));
    out.sort(Comparator.comparingDouble(ScoredId::score).reversed().thenComparing(ScoredId::id));
    return out.subList(0, Math.min(k, out.size()));
  }
}
