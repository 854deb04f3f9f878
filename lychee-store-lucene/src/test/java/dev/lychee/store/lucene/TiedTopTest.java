package dev.lychee.store.lucene;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import org.apache.lucene.search.ScoreDoc;
import org.junit.jupiter.api.Test;

/**
 * {@link TiedTop} keeps the {@code k} best documents and every document tied with the {@code k}-th
 * score, and (round twenty-three, measurements.md §6) makes no object for a tie while it collects.
 */
class TiedTopTest {

  /** Against a sort of everything offered: the k best and every tie of the k-th score, nothing else. */
  @Test
  void keepsTheBestAndEveryTieOfTheLastKeptScore() {
    Random random = new Random(7);
    for (int round = 0; round < 200; round++) {
      int k = 1 + random.nextInt(12);
      int n = random.nextInt(80);
      TiedTop top = new TiedTop(k);
      List<ScoreDoc> offered = new ArrayList<>();
      for (int doc = 0; doc < n; doc++) {
        // few distinct scores, so that ties are many
        float score = random.nextInt(6) / 4f;
        offered.add(new ScoreDoc(doc, score));
        top.offer(doc, score);
      }
      offered.sort(Comparator.comparingDouble((ScoreDoc d) -> d.score).reversed());
      List<String> expected = new ArrayList<>();
      if (!offered.isEmpty()) {
        float kth = offered.get(Math.min(k, offered.size()) - 1).score;
        for (ScoreDoc d : offered) {
          if (d.score >= kth) {
            expected.add(d.doc + "@" + d.score);
          }
        }
      }
      List<String> got = Arrays.stream(top.candidates()).map(d -> d.doc + "@" + d.score).toList();
      assertThat(got).as("k=%d, %d offered", k, n).containsExactlyInAnyOrderElementsOf(expected);
    }
  }

  /**
   * Rounds of 200 ties of the k-th score, each ended by better hits that push that score out:
   * before round twenty-three each tie was a {@code ScoreDoc} (24 bytes and a list slot, about
   * 100 KB here); now the ties are numbers in one array that grows once.
   */
  @Test
  void tiesCostNoObjectWhileCollecting() {
    com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    long thread = Thread.currentThread().getId();
    // warm up the code path, so that the measured run allocates only what it must
    collectRounds(5);
    long before = threads.getThreadAllocatedBytes(thread);
    TiedTop top = collectRounds(20);
    long allocated = threads.getThreadAllocatedBytes(thread) - before;
    assertThat(top.candidates()).hasSize(2 + 200);
    assertThat(allocated).as("bytes allocated for 20 x 200 ties").isLessThan(32 * 1024);
  }

  private static TiedTop collectRounds(int rounds) {
    TiedTop top = new TiedTop(2);
    int doc = 0;
    top.offer(doc++, 1);
    top.offer(doc++, 1);
    for (int r = 1; r <= rounds; r++) {
      for (int i = 0; i < 200; i++) {
        top.offer(doc++, r);
      }
      if (r < rounds) {
        // two better hits: the k-th score moves up and the ties of the old one go
        top.offer(doc++, r + 1);
        top.offer(doc++, r + 1);
      }
    }
    return top;
  }
}
