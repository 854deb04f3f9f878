package dev.lychee.core.store;

import static dev.lychee.core.conformance.StoreFixtures.node;
import static dev.lychee.core.conformance.StoreFixtures.record;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lychee.api.EvidenceNode;
import dev.lychee.api.MemoryRecord;
import dev.lychee.api.NodeKind;
import dev.lychee.api.TurnRef;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class MergeOnPutTest {

  @Test
  void storedValuesMergeAndKeepTheirPositionNewOnesAppend() {
    MemoryRecord stored = record("ns", "Ann has a cat.", TurnRef.of("s1", 0));
    MemoryRecord again = record("ns", "Ann has a cat.", TurnRef.of("s2", 3));
    MemoryRecord fresh = record("ns", "Bob paints.", TurnRef.of("s2", 4));
    Map<String, MergeOnPut.Placed<MemoryRecord>> table = Map.of(stored.id(), new MergeOnPut.Placed<>(stored, 7));

    List<MergeOnPut.Placed<MemoryRecord>> plan =
        MergeOnPut.records(List.of(fresh, again), id -> Optional.ofNullable(table.get(id)));

    assertThat(plan).extracting(MergeOnPut.Placed::value).containsExactly(fresh, stored.mergedWith(again));
    assertThat(plan.get(0).isNew()).isTrue();
    assertThat(plan.get(1).position()).isEqualTo(7);
    assertThat(plan.get(1).value().evidence()).containsExactly(TurnRef.of("s1", 0), TurnRef.of("s2", 3));
  }

  @Test
  void repeatsWithinOneCallMergeIntoOneValueLookedUpOnce() {
    EvidenceNode a = node("ns", NodeKind.TAG, "jam", "Tag: jam", List.of("r1"), "s", null);
    EvidenceNode b = node("ns", NodeKind.TAG, "jam", "Tag: jam", List.of("r2"), "s", null);
    EvidenceNode c = node("ns", NodeKind.TAG, "tea", "Tag: tea", List.of("r3"), "s", null);
    int[] lookups = {0};
    List<MergeOnPut.Placed<EvidenceNode>> plan = MergeOnPut.nodes(List.of(a, c, b), id -> {
      lookups[0]++;
      return Optional.empty();
    });
    assertThat(plan).extracting(MergeOnPut.Placed::value).containsExactly(a.mergedWith(b), c);
    assertThat(plan).allSatisfy(p -> assertThat(p.isNew()).isTrue());
    assertThat(lookups[0]).isEqualTo(2);
  }

  @Test
  void aFailingLookUpPropagatesItsCheckedException() {
    MemoryRecord r = record("ns", "Anything.", TurnRef.of("s", 0));
    assertThatThrownBy(() -> MergeOnPut.records(List.of(r), id -> {
      throw new IOException("disk gone");
    })).isInstanceOf(IOException.class).hasMessage("disk gone");
    assertThat(MergeOnPut.records(List.<MemoryRecord>of(), id -> Optional.empty())).isEmpty();
  }
}
