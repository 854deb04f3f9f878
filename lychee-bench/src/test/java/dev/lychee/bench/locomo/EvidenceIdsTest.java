package dev.lychee.bench.locomo;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class EvidenceIdsTest {
  private static final Set<DiaId> TURNS = Set.of(new DiaId(8, 6), new DiaId(9, 17), new DiaId(11, 26),
      new DiaId(30, 5), new DiaId(1, 18), new DiaId(1, 20), new DiaId(10, 16));

  @Test
  void splitsOnSemicolonsCommasAndSpaces() {
    assertThat(EvidenceIds.clean(List.of("D8:6; D9:17"), TURNS)).containsExactly(new DiaId(8, 6), new DiaId(9, 17));
    assertThat(EvidenceIds.clean(List.of("D8:6,D9:17"), TURNS)).containsExactly(new DiaId(8, 6), new DiaId(9, 17));
    assertThat(EvidenceIds.clean(List.of(" D9:17  D8:6 "), TURNS)).containsExactly(new DiaId(9, 17), new DiaId(8, 6));
  }

  @Test
  void repairsColonAfterDAndDropsLeadingZeros() {
    assertThat(EvidenceIds.clean(List.of("D:11:26"), TURNS)).containsExactly(new DiaId(11, 26));
    assertThat(EvidenceIds.clean(List.of("D30:05"), TURNS)).containsExactly(new DiaId(30, 5));
    assertThat(EvidenceIds.clean(List.of("D030:005"), TURNS)).containsExactly(new DiaId(30, 5));
  }

  @Test
  void dropsIdsThatNameNoTurnAndKeepsTheRest() {
    // The README's unfixable cases: a turn past the session's end, and a bare "D".
    assertThat(EvidenceIds.clean(List.of("D10:19", "D10:16"), TURNS)).containsExactly(new DiaId(10, 16));
    assertThat(EvidenceIds.clean(List.of("D", "D1:18", "D1:20"), TURNS)).containsExactly(new DiaId(1, 18), new DiaId(1, 20));
    assertThat(EvidenceIds.clean(List.of("D0:1", "D1:0", "X1:18", "D1:18x", "D99999999999:1"), TURNS)).isEmpty();
    assertThat(EvidenceIds.clean(List.of(), TURNS)).isEmpty();
  }

  @Test
  void removesDuplicatesKeepingFirstSeenOrder() {
    assertThat(EvidenceIds.clean(List.of("D9:17", "D8:6", "D09:17"), TURNS))
        .containsExactly(new DiaId(9, 17), new DiaId(8, 6));
  }

  @Test
  void diaIdsMapToLycheeTurnRefsAndBack() {
    DiaId id = new DiaId(3, 7);
    assertThat(id.toTurnRef().session()).isEqualTo("D3");
    assertThat(id.toTurnRef().index()).isEqualTo(6);
    assertThat(DiaId.fromTurnRef(id.toTurnRef())).isEqualTo(id);
    assertThat(DiaId.fromTurnRef(dev.lychee.api.TurnRef.of("D3r2", 6))).isNull();
    assertThat(DiaId.fromTurnRef(dev.lychee.api.TurnRef.of("session-1", 0))).isNull();
  }
}
