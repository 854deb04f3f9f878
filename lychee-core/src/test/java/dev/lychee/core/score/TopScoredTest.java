package dev.lychee.core.score;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lychee.api.ScoredId;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class TopScoredTest {
  @Test
  void keepsTheKBestInAnyOfferOrderWithTiesBrokenById() {
    List<ScoredId> all = new ArrayList<>();
    for (int i = 0; i < 200; i++) {
      all.add(new ScoredId(String.format("id%03d", i), (i * 37 % 50) / 10.0)); // many equal scores
    }
    List<ScoredId> expected = new ArrayList<>(all);
    expected.sort(TopScored.BEST_FIRST);
    expected = expected.subList(0, 7);
    Random rnd = new Random(11);
    for (int round = 0; round < 5; round++) {
      Collections.shuffle(all, rnd);
      TopScored top = new TopScored(7);
      all.forEach(top::offer);
      assertThat(top.best()).containsExactlyElementsOf(expected);
    }
  }

  @Test
  void fewerHitsThanKComeBackSortedAndKBelowOneIsRefused() {
    TopScored top = new TopScored(5);
    top.offer(new ScoredId("b", 0.5));
    top.offer(new ScoredId("a", 0.5));
    top.offer(new ScoredId("c", 0.9));
    assertThat(top.best()).extracting(ScoredId::id).containsExactly("c", "a", "b");
    assertThatThrownBy(() -> new TopScored(0)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("k");
  }
}
