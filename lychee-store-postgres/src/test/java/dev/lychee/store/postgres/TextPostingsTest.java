package dev.lychee.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lychee.api.ScoredId;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A row added again under its hit id replaces its earlier postings (a record rewritten by a merge),
 * and compacting the dead slots changes no answer (round nineteen). The scores' exactness against
 * the server is {@link TurnPostingsTest}'s and {@link RecordPostingsTest}'s.
 */
class TextPostingsTest {
  private static final String[] WORDS = {"amy", "bo", "guitar", "paris", "lake", "race", "june", "cat", "miso", "2pm"};

  @Test
  void aRowAddedAgainIsFoundByItsNewLexemesOnly() {
    TextPostings postings = new TextPostings();
    postings.add("r1", "'amy':1 'lake':2");
    postings.add("r2", "'lake':1,3 'race':2");
    postings.add("r1", "'amy':1 'guitar':2");
    assertThat(postings.search(List.of("lake"), 10)).extracting(ScoredId::id).containsExactly("r2");
    assertThat(postings.search(List.of("guitar", "amy"), 10)).extracting(ScoredId::id).containsExactly("r1");
    assertThat(postings.size()).isEqualTo(2);
    assertThat(postings.slots()).isEqualTo(3);
    assertThat(postings.deadSlots()).isEqualTo(1);
    // the replaced row scores as a row added once with the same text
    TextPostings fresh = new TextPostings();
    fresh.add("r1", "'amy':1 'guitar':2");
    assertThat(postings.search(List.of("amy"), 10)).isEqualTo(fresh.search(List.of("amy"), 10));
  }

  @Test
  void compactionDropsTheDeadSlotsAndKeepsEveryAnswer() {
    Random rnd = new Random(19);
    TextPostings kept = new TextPostings(8);
    Map<String, String> latest = new LinkedHashMap<>();
    int compactions = 0;
    int compared = 0;
    for (int i = 0; i < 600; i++) {
      String hit = "r" + rnd.nextInt(40);
      String tsv = tsv(rnd);
      int slotsBefore = kept.slots();
      kept.add(hit, tsv);
      latest.put(hit, tsv);
      if (kept.slots() <= slotsBefore) {
        compactions++;
        assertThat(kept.deadSlots()).isZero();
      }
      assertThat(kept.deadSlots()).isLessThan(Math.max(8, kept.slots() / 2 + 1));
      TextPostings fresh = new TextPostings();
      latest.forEach(fresh::add);
      assertThat(kept.size()).isEqualTo(latest.size());
      for (int q = 0; q < 3; q++) {
        List<String> terms = terms(rnd);
        int k = 1 + rnd.nextInt(15);
        List<ScoredId> expected = fresh.search(terms, k);
        assertThat(kept.search(terms, k)).as("%s k %d after %d adds", terms, k, i + 1).isEqualTo(expected);
        compared += expected.size();
      }
    }
    assertThat(compactions).as("compactions").isGreaterThan(5);
    assertThat(compared).as("hits compared").isGreaterThan(3000);
  }

  /** A tsvector's text form: distinct lexemes, each with one to three positions, some weighted. */
  private static String tsv(Random rnd) {
    List<String> parts = new ArrayList<>();
    int position = 1;
    for (String w : WORDS) {
      if (rnd.nextInt(3) == 0) {
        StringBuilder p = new StringBuilder("'").append(w).append("':");
        for (int j = 0; j < 1 + rnd.nextInt(3); j++) {
          p.append(j > 0 ? "," : "").append(position++).append(rnd.nextInt(5) == 0 ? "B" : "");
        }
        parts.add(p.toString());
      }
    }
    return String.join(" ", parts);
  }

  private static List<String> terms(Random rnd) {
    List<String> out = new ArrayList<>();
    for (String w : WORDS) {
      if (rnd.nextInt(4) == 0) {
        out.add(w);
      }
    }
    if (out.isEmpty()) {
      out.add(WORDS[rnd.nextInt(WORDS.length)]);
    }
    return out;
  }
}
