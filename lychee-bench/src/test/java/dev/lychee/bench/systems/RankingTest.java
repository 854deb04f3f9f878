package dev.lychee.bench.systems;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class RankingTest {
  @Test
  void rrfSumsReciprocalRanks() {
    ReciprocalRankFusion rrf = new ReciprocalRankFusion(60);
    // a: 1/61 + 1/63 ; b: 1/62 + 1/61 ; c: 1/63 ; d: 1/62
    List<String> fused = rrf.fuse(List.of(List.of("a", "b", "c"), List.of("b", "d", "a")));
    assertThat(fused).containsExactly("b", "a", "d", "c");
  }

  @Test
  void rrfKeepsFirstSeenOrderOnTies() {
    ReciprocalRankFusion rrf = new ReciprocalRankFusion(60);
    assertThat(rrf.fuse(List.of(List.of("x", "y"), List.of("y", "x")))).containsExactly("x", "y");
    assertThat(rrf.fuse(List.of(List.of("p"), List.of("q")))).containsExactly("p", "q");
    assertThat(rrf.fuse(List.<List<String>>of())).isEmpty();
  }

  @Test
  void exactTopKReturnsHighestDotProductsBestFirst() {
    float[][] rows = {{1, 0}, {0, 1}, {0.6f, 0.8f}, {0.8f, 0.6f}, {-1, 0}};
    assertThat(ExactTopK.topK(rows, new float[] {1, 0}, 3)).containsExactly(0, 3, 2);
    assertThat(ExactTopK.topK(rows, new float[] {0, 1}, 10)).containsExactly(1, 2, 3, 0, 4);
    // ties broken by row order
    float[][] same = {{1, 0}, {1, 0}, {1, 0}};
    assertThat(ExactTopK.topK(same, new float[] {1, 0}, 2)).containsExactly(0, 1);
    assertThatThrownBy(() -> ExactTopK.topK(rows, new float[] {1, 0}, 0)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> ExactTopK.topK(rows, new float[] {1, 0, 0}, 1)).isInstanceOf(IllegalArgumentException.class);
  }
}
