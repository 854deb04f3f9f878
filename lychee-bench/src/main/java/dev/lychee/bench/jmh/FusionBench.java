package dev.lychee.bench.jmh;

import dev.lychee.api.Candidate;
import dev.lychee.api.Question;
import dev.lychee.api.QuestionType;
import dev.lychee.api.RecallPlan;
import dev.lychee.api.RecallRoute;
import dev.lychee.api.TokenUsage;
import dev.lychee.api.spi.RecallContext;
import dev.lychee.api.spi.RouteRanking;
import dev.lychee.core.fuse.RrfQuotaFuser;
import dev.lychee.core.fuse.FusionConfig;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * What does cross-route fusion (RRF k = 60 with per-route quota, §4.10) cost per question? The
 * retrieval helper's {@link RrfQuotaFuser} on {@code routes} rankings of 60 candidates each
 * (overlapping ids), at the paper's effective depth k = 15.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class FusionBench {
  @Param({"1", "3", "5"})
  public int routes;

  /**
   * Turns each record cites: 1 as in a namespace of one conversation, 100 as in {@code eval speed}'s
   * namespace at scale 100, where every record cites the turns of all copies.
   */
  @Param({"1", "100"})
  public int recordTurns;

  private RrfQuotaFuser fuser;
  private List<RouteRanking> rankings;
  private RecallContext context;

  @Setup
  public void setUp() {
    Random random = new Random(11);
    fuser = new RrfQuotaFuser(FusionConfig.defaults());
    List<RecallRoute> planRoutes = new ArrayList<>();
    rankings = new ArrayList<>();
    for (int r = 0; r < routes; r++) {
      RecallRoute route = RecallRoute.simple("r" + (r + 1), "query " + r);
      planRoutes.add(route);
      Map<String, Candidate> byId = new LinkedHashMap<>();
      while (byId.size() < 60) {
        Candidate c = BenchData.candidate(random, random.nextInt(200), route.id(), recordTurns);
        byId.putIfAbsent(c.id(), c);
      }
      List<Candidate> ranked = new ArrayList<>(byId.values());
      ranked.sort(Comparator.comparingDouble(Candidate::score).reversed());
      rankings.add(new RouteRanking(route, ranked));
    }
    RecallPlan plan = new RecallPlan(QuestionType.AGGREGATE, "bench", planRoutes, null, TokenUsage.ZERO);
    context = new RecallContext(new Question("bench", "bench question", 15, null), plan, 15, List.of());
  }

  @Benchmark
  public List<Candidate> rrfWithQuota() {
    return fuser.fuse(rankings, context);
  }
}
