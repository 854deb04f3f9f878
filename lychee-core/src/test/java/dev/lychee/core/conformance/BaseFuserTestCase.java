package dev.lychee.core.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lychee.api.Candidate;
import dev.lychee.api.spi.Fuser;
import dev.lychee.api.spi.RouteRanking;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Conformance suite of the {@link Fuser} contract: every id of every ranking appears exactly once
 * (the whole pool, not just k), fused scores lie in [0, 1], an id found by two routes keeps what
 * both know about it, a lone ranking keeps its best item first, nothing in gives nothing out, and
 * the same rankings fuse the same way.
 */
public abstract class BaseFuserTestCase {
  /** A fresh fuser. */
  protected abstract Fuser newFuser();

  protected Fuser fuser;

  @BeforeEach
  void createFuser() {
    fuser = newFuser();
  }

  @Test
  void everyIdOnceAndTheWholePool() {
    List<Candidate> out = fuser.fuse(StageInputs.rankings(), StageInputs.context(2));
    Set<String> all = StageInputs.rankings().stream().flatMap(r -> r.candidates().stream())
        .map(Candidate::id).collect(Collectors.toSet());
    assertThat(out).extracting(Candidate::id).doesNotHaveDuplicates();
    assertThat(new HashSet<>(out.stream().map(Candidate::id).toList())).isEqualTo(all);
  }

  @Test
  void fusedScoresLieInTheUnitRange() {
    assertThat(fuser.fuse(StageInputs.rankings(), StageInputs.context(5)))
        .allSatisfy(c -> assertThat(c.score()).isBetween(0.0, 1.0));
  }

  @Test
  void anIdFoundByTwoRoutesKeepsBothRoutes() {
    Candidate marathon = fuser.fuse(StageInputs.rankings(), StageInputs.context(5)).stream()
        .filter(c -> c.id().equals("rec-marathon")).findFirst().orElseThrow();
    assertThat(marathon.provenance().routes()).contains("r1", "r2");
  }

  @Test
  void aLoneRankingKeepsItsBestFirst() {
    RouteRanking only = StageInputs.rankings().get(1);
    List<Candidate> out = fuser.fuse(List.of(only), StageInputs.context(3));
    assertThat(out).isNotEmpty();
    assertThat(out.get(0).id()).isEqualTo(only.candidates().get(0).id());
  }

  @Test
  void nothingInNothingOut() {
    assertThat(fuser.fuse(List.of(), StageInputs.context(3))).isEmpty();
    assertThat(fuser.fuse(List.of(new RouteRanking(StageInputs.R1, List.of())), StageInputs.context(3))).isEmpty();
  }

  @Test
  void sameRankingsFuseTheSameWay() {
    List<String> a = fuser.fuse(StageInputs.rankings(), StageInputs.context(4)).stream()
        .map(c -> c.id() + "@" + c.score()).toList();
    List<String> b = newFuser().fuse(StageInputs.rankings(), StageInputs.context(4)).stream()
        .map(c -> c.id() + "@" + c.score()).toList();
    assertThat(b).isEqualTo(a);
  }
}
