package dev.lychee.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** A provenance's lists: without repeats in first-seen order however built or merged, and not copied again. */
class ProvenanceTest {

  private static List<String> randomIds(Random random, int max) {
    List<String> out = new ArrayList<>();
    for (int i = random.nextInt(max + 1); i > 0; i--) {
      out.add("n" + random.nextInt(max));
    }
    return out;
  }

  private static List<String> firstSeen(List<String> a, List<String> b) {
    LinkedHashSet<String> s = new LinkedHashSet<>(a);
    s.addAll(b);
    return List.copyOf(s);
  }

  @Test
  void listsKeepFirstOccurrencesAndMergesUnionThemInFirstSeenOrder() {
    Random random = new Random(24);
    for (int round = 0; round < 500; round++) {
      int max = round % 2 == 0 ? 6 : 40; // both sides of the pairwise bound
      List<String> a = randomIds(random, max);
      List<String> b = randomIds(random, max);
      Provenance pa = new Provenance(List.of("c"), List.of(), a, List.of());
      Provenance pb = new Provenance(List.of("c"), List.of(), b, List.of());
      assertThat(pa.nodes()).as("round " + round).isEqualTo(firstSeen(a, List.of()));
      Provenance merged = pa.merge(pb);
      assertThat(merged.nodes()).as("round " + round).isEqualTo(firstSeen(a, b));
      assertThat(merged.nodes().hashCode()).isEqualTo(firstSeen(a, b).hashCode());
      assertThat(merged.nodes().toString()).isEqualTo(firstSeen(a, b).toString());
      assertThat(merged.merge(pa)).isEqualTo(merged);
      assertThat(merged.merge(merged).nodes()).isSameAs(merged.nodes());
    }
  }

  @Test
  void aLongListItMadeIsTakenAsItIsWhenRebuilt() {
    List<String> nodes = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      nodes.add("node-" + i);
    }
    nodes.add("node-3");
    Provenance p = new Provenance(List.of("evidence_node"), List.of("q"), nodes, List.of("r1"));
    assertThat(p.nodes()).hasSize(20).doesNotHaveDuplicates().startsWith("node-0", "node-1");
    // round twenty-four: on main every rebuild of more than eight nodes went through a set again
    assertThat(new Provenance(p.channels(), p.queries(), p.nodes(), p.routes()).nodes()).isSameAs(p.nodes());
    assertThat(p.merge(Provenance.of("evidence_node", "q", "node-7", "r1")).nodes()).isSameAs(p.nodes());
    assertThatThrownBy(() -> p.nodes().add("x")).isInstanceOf(UnsupportedOperationException.class);
    assertThatThrownBy(() -> p.nodes().set(0, "x")).isInstanceOf(UnsupportedOperationException.class);
  }

  @Test
  void aNullIsRefusedInShortAndLongLists() {
    List<String> longList = new ArrayList<>(Arrays.asList("a", "b", "c", "d", "e", "f", "g", "h", "i", "j"));
    longList.add(null);
    assertThatThrownBy(() -> new Provenance(List.of(), List.of(), longList, List.of()))
        .isInstanceOf(NullPointerException.class);
    assertThatThrownBy(() -> new Provenance(List.of(), List.of(), Arrays.asList("a", null), List.of()))
        .isInstanceOf(NullPointerException.class);
  }
}
