package dev.lychee.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** A candidate's turns: sorted and distinct however it was built, rebuilt or merged. */
class CandidateTurnsTest {

  private static Candidate record(List<TurnRef> turns, double score) {
    return new Candidate("rec-1", CandidateKind.RECORD, "ns", "text", "D1", turns, null, null,
        MemoryType.FACT, SourceRole.USER, List.of(), List.of(), score, 0, Provenance.EMPTY);
  }

  @Test
  void unsortedTurnsWithRepeatsAreSortedOnce() {
    Candidate c = record(List.of(TurnRef.of("D2", 1), TurnRef.of("D1", 7), TurnRef.of("D2", 1),
        TurnRef.of("D1", 3)), 0.5);
    assertThat(c.turns()).containsExactly(TurnRef.of("D1", 3), TurnRef.of("D1", 7), TurnRef.of("D2", 1));
    assertThat(c.withScore(0.9).turns()).isEqualTo(c.turns());
  }

  @Test
  void turnsAreImmutableAndEqualToAnyListOfTheSameTurns() {
    List<TurnRef> given = new ArrayList<>(List.of(TurnRef.of("D1", 1), TurnRef.of("D1", 2)));
    Candidate c = record(given, 0.5);
    given.add(TurnRef.of("D1", 3));
    assertThat(c.turns()).hasSize(2);
    assertThat(c.turns()).isEqualTo(List.of(TurnRef.of("D1", 1), TurnRef.of("D1", 2)));
    assertThat(c.turns().hashCode()).isEqualTo(List.of(TurnRef.of("D1", 1), TurnRef.of("D1", 2)).hashCode());
    assertThat(c).isEqualTo(record(List.of(TurnRef.of("D1", 1), TurnRef.of("D1", 2)), 0.5));
    assertThatThrownBy(() -> c.turns().add(TurnRef.of("D9", 9))).isInstanceOf(UnsupportedOperationException.class);
    assertThatThrownBy(() -> c.turns().set(0, TurnRef.of("D9", 9))).isInstanceOf(UnsupportedOperationException.class);
  }

  @Test
  void aCandidateOfARecordTakesTheRecordsTurnsWithoutACopy() {
    MemoryRecord r = new MemoryRecord(null, "ns", MemoryType.FACT, "Dana adopted a beagle.", List.of("Dana"), List.of(),
        null, List.of(TurnRef.of("D2", 1), TurnRef.of("D1", 7), TurnRef.of("D2", 1)), "D1", "seg", SourceRole.USER, null);
    assertThat(r.evidence()).containsExactly(TurnRef.of("D1", 7), TurnRef.of("D2", 1));
    // round twenty-four: a record's evidence is marked sorted, so every recall's candidate of it
    // shares the list (on main each one copied and checked it)
    assertThat(Candidate.ofRecord(r, 0.5, 0, Provenance.EMPTY).turns()).isSameAs(r.evidence());
    assertThat(r.evidence()).isEqualTo(List.of(TurnRef.of("D1", 7), TurnRef.of("D2", 1)));
    assertThatThrownBy(() -> r.evidence().add(TurnRef.of("D9", 9))).isInstanceOf(UnsupportedOperationException.class);
  }

  @Test
  void aNullTurnIsRefused() {
    assertThatThrownBy(() -> record(Arrays.asList(TurnRef.of("D1", 1), null), 0.5))
        .isInstanceOf(NullPointerException.class);
    assertThatThrownBy(() -> record(Arrays.asList((TurnRef) null), 0.5)).isInstanceOf(NullPointerException.class);
  }

  @Test
  void mergingUnionsTheTurnsSortedAndDistinct() {
    Random random = new Random(7);
    for (int round = 0; round < 200; round++) {
      List<TurnRef> a = randomTurns(random);
      List<TurnRef> b = randomTurns(random);
      Candidate merged = record(a, 0.3).mergedWith(record(b, 0.6));
      TreeSet<TurnRef> expected = new TreeSet<>(a);
      expected.addAll(b);
      assertThat(merged.turns()).containsExactlyElementsOf(expected);
      assertThat(merged.score()).isEqualTo(0.6);
      // merged again, and with itself, nothing changes
      assertThat(merged.mergedWith(merged).turns()).containsExactlyElementsOf(expected);
      assertThat(merged.mergedWith(record(a, 0.1)).turns()).containsExactlyElementsOf(expected);
    }
  }

  private static List<TurnRef> randomTurns(Random random) {
    List<TurnRef> out = new ArrayList<>();
    int n = random.nextInt(6);
    for (int i = 0; i < n; i++) {
      out.add(TurnRef.of("D" + random.nextInt(3), random.nextInt(5)));
    }
    return out;
  }
}
