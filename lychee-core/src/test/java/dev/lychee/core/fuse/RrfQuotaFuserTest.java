package dev.lychee.core.fuse;

import dev.lychee.api.Candidate;
import dev.lychee.api.Question;
import dev.lychee.api.QuestionType;
import dev.lychee.api.RecallPlan;
import dev.lychee.api.RecallRoute;
import dev.lychee.api.TokenUsage;
import dev.lychee.api.spi.RecallContext;
import dev.lychee.api.spi.RouteRanking;
import dev.lychee.core.testing.Cands;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class RrfQuotaFuserTest {
  private final RrfQuotaFuser fuser = new RrfQuotaFuser(FusionConfig.defaults());

  private static RecallContext ctx(int k, List<RecallRoute> routes) {
    RecallPlan plan = new RecallPlan(QuestionType.COMPARISON, "", routes, null, TokenUsage.ZERO);
    return new RecallContext(new Question("ns", "q", k, null), plan, k, List.of());
  }

  @Test
  void quotaFollowsTheFormula() {
    assertThat(fuser.quota(15, 1)).isEqualTo(4);
    assertThat(fuser.quota(15, 2)).isEqualTo(4);
    assertThat(fuser.quota(15, 4)).isEqualTo(3);
    assertThat(fuser.quota(15, 8)).isEqualTo(1);
    assertThat(fuser.quota(3, 8)).isEqualTo(1);
    assertThat(fuser.quota(10, 3)).isEqualTo(3);
  }

  @Test
  void rrfArithmeticAndBlendMatchAHandComputation() {
    RecallRoute r1 = RecallRoute.simple("r1", "a");
    RecallRoute r2 = RecallRoute.simple("r2", "b");
    // x: rank 1 in r1 (score .9), rank 2 in r2 (score .5); y: rank 2 in r1 (.6); z: rank 1 in r2 (.7)
    RouteRanking a = new RouteRanking(r1, List.of(Cands.turn("s", 1, "x", .9, "r1"), Cands.turn("s", 2, "y", .6, "r1")));
    RouteRanking b = new RouteRanking(r2, List.of(Cands.turn("s", 3, "z", .7, "r2"), Cands.turn("s", 1, "x", .5, "r2")));
    List<Candidate> out = fuser.fuse(List.of(a, b), ctx(15, List.of(r1, r2)));

    double rrfX = 1.0 / 61 + 1.0 / 62;
    double rrfY = 1.0 / 62;
    double rrfZ = 1.0 / 61;
    double max = rrfX;
    assertThat(out).extracting(Candidate::id)
        .containsExactly("episode:s:1", "episode:s:2", "episode:s:3");
    assertThat(out.get(0).score()).isCloseTo(.82 * .9 + .18 * rrfX / max, within(1e-9));
    assertThat(out.get(1).score()).isCloseTo(.82 * .6 + .18 * rrfY / max, within(1e-9));
    assertThat(out.get(2).score()).isCloseTo(.82 * .7 + .18 * rrfZ / max, within(1e-9));
    // x keeps the provenance of both routes
    assertThat(out.get(0).provenance().routes()).containsExactly("r1", "r2");
  }

  @Test
  void quotaProtectsAWeakRouteAheadOfStrongerItems() {
    RecallRoute r1 = RecallRoute.simple("r1", "a");
    RecallRoute r2 = RecallRoute.simple("r2", "b");
    List<Candidate> strong = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      strong.add(Cands.turn("s", i, "strong " + i, .9 - i * .01, "r1"));
    }
    List<Candidate> weak = List.of(Cands.turn("t", 0, "weak 0", .2, "r2"), Cands.turn("t", 1, "weak 1", .1, "r2"));
    // k = 4, m = 2 -> q = 2: the pool starts with r1's two best, then r2's two best
    List<Candidate> out = fuser.fuse(List.of(new RouteRanking(r1, strong), new RouteRanking(r2, weak)),
        ctx(4, List.of(r1, r2)));
    assertThat(out).hasSize(12);
    assertThat(out.subList(0, 4)).extracting(Candidate::id)
        .containsExactly("episode:s:0", "episode:s:1", "episode:t:0", "episode:t:1");
    assertThat(out.get(4).id()).isEqualTo("episode:s:2");
  }

  @Test
  void tiesInFusedScoreBreakByBestRankThenId() {
    RecallRoute r1 = RecallRoute.simple("r1", "a");
    RecallRoute r2 = RecallRoute.simple("r2", "b");
    // two items with identical score at the same rank in different routes: same fused score
    RouteRanking a = new RouteRanking(r1, List.of(Cands.turn("s", 9, "p", .5, "r1")));
    RouteRanking b = new RouteRanking(r2, List.of(Cands.turn("s", 1, "q", .5, "r2")));
    List<Candidate> out = fuser.fuse(List.of(a, b), ctx(15, List.of(r1, r2)));
    assertThat(out.get(0).score()).isEqualTo(out.get(1).score());
    // quota order: route order first
    assertThat(out).extracting(Candidate::id).containsExactly("episode:s:9", "episode:s:1");
  }

  @Test
  void ranksBeyondTheRrfDepthAddNoRrf() {
    RecallRoute r1 = RecallRoute.simple("r1", "a");
    List<Candidate> many = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      many.add(Cands.turn("s", i, "t" + i, .5, "r1"));
    }
    // k = 1 -> q = 1 and depth max(4, 4) = 4: ranks 5 and 6 get only the .82 share
    List<Candidate> out = fuser.fuse(List.of(new RouteRanking(r1, many)), ctx(1, List.of(r1)));
    assertThat(out.get(5).score()).isCloseTo(.82 * .5, within(1e-9));
    assertThat(out.get(3).score()).isGreaterThan(.82 * .5);
  }
}
