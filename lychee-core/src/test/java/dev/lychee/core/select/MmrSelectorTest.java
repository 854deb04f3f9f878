package dev.lychee.core.select;

import dev.lychee.api.Candidate;
import dev.lychee.api.Evidence;
import dev.lychee.api.Question;
import dev.lychee.api.RecallPlan;
import dev.lychee.api.spi.RecallContext;
import dev.lychee.core.strategy.Strategies;
import dev.lychee.core.testing.Cands;
import java.util.List;
import org.junit.jupiter.api.Test;
import static org.assertj.core.api.Assertions.assertThat;

class MmrSelectorTest {
  private static RecallContext ctx(int k) {
    return new RecallContext(new Question("ns", "q", k, null), RecallPlan.singleRoute("q"), k, List.of());
  }

  private final Candidate a = Cands.turn("s1", 1, "Rafael painted a sunrise over the lake last year", .90);
  private final Candidate aDup = Cands.turn("s1", 2, "Rafael painted a sunrise over the lake last year", .89);
  private final Candidate b = Cands.turn("s7", 40, "Nadia went to a choir rehearsal meeting", .85);
  private final Candidate c = Cands.turn("s9", 12, "Pavel opened a dance studio downtown", .80);

  @Test
  void mmrDropsANearDuplicateFromTheSelectedSet() {
    MmrSelector s = new MmrSelector(MmrConfig.defaults(), Strategies.defaults());
    List<Evidence> out = s.select(List.of(a, aDup, b, c), ctx(3));
    assertThat(out).extracting(e -> e.candidate().id())
        .containsExactly(a.id(), b.id(), c.id());
    assertThat(out).extracting(Evidence::rank).containsExactly(1, 2, 3);
  }

  @Test
  void withoutDiversityTheTopKByOrderIsTaken() {
    MmrConfig off = MmrConfig.builder().enabled(false).build();
    List<Evidence> out = new MmrSelector(off, Strategies.defaults()).select(List.of(a, aDup, b, c), ctx(3));
    assertThat(out).extracting(e -> e.candidate().id()).containsExactly(a.id(), aDup.id(), b.id());
    out = new TopKSelector().select(List.of(a, aDup, b, c), ctx(3));
    assertThat(out).extracting(e -> e.candidate().id()).containsExactly(a.id(), aDup.id(), b.id());
  }

  @Test
  void neverReturnsMoreThanKOrMoreThanThePool() {
    MmrSelector s = new MmrSelector(MmrConfig.defaults(), Strategies.defaults());
    assertThat(s.select(List.of(a, b), ctx(5))).hasSize(2);
    assertThat(s.select(List.of(), ctx(5))).isEmpty();
    assertThat(s.select(List.of(a, aDup, b, c), ctx(1))).extracting(e -> e.candidate().id()).containsExactly(a.id());
  }

  @Test
  void signatureSimilarityFollowsTheWeights() {
    MmrConfig w = MmrConfig.defaults();
    // identical text, same session, same query, different turn: .15 + .15 + .25 = .55
    Signature.Dictionary d = new Signature.Dictionary();
    double sim = Signature.of(a, d).similarity(Signature.of(aDup, d), w);
    assertThat(sim).isBetween(.549, .551);
    assertThat(Signature.of(a, d).similarity(Signature.of(c, d), w)).isLessThan(.1);
  }

  @Test
  void episodeLimiterCapsRawItemsWhenRecordsExist() {
    MmrConfig cfg = MmrConfig.builder().enabled(false).diversity(.25).contained(0).episodeLimiter(true).build();
    List<Candidate> pool = new java.util.ArrayList<>();
    for (int i = 0; i < 8; i++) {
      pool.add(Cands.turn("s1", i, "turn " + i, .9 - i * .01));
    }
    for (int i = 0; i < 8; i++) {
      pool.add(Cands.record("rec" + i, "record " + i, .5 - i * .01, "r1"));
    }
    // k = 5: budget max(2, round(5·.40) = 2) = 2 episodes; the rest are records
    List<Evidence> out = new MmrSelector(cfg, Strategies.defaults()).select(pool, ctx(5));
    assertThat(out).hasSize(5);
    assertThat(out.stream().filter(e -> e.candidate().kind() == dev.lychee.api.CandidateKind.RAW_TURN)).hasSize(2);
  }
}
