package dev.lychee.bench.jmh;

import dev.lychee.api.Candidate;
import dev.lychee.api.Evidence;
import dev.lychee.api.Question;
import dev.lychee.api.RecallPlan;
import dev.lychee.api.spi.RecallContext;
import dev.lychee.core.select.MmrConfig;
import dev.lychee.core.strategy.Strategies;
import dev.lychee.core.select.MmrSelector;
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
 * What does diversity-aware selection (greedy MMR over a 4k pool, then the episode limiter, §4.11
 * and §4.12) cost per question? The retrieval helper's {@link MmrSelector} on a fused pool of 200
 * candidates.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class MmrSelectionBench {
  @Param({"10", "15", "30"})
  public int k;

  /**
   * Turns each record cites: 1 as in a namespace of one conversation, 100 as in {@code eval speed}'s
   * namespace at scale 100, where every record cites the turns of all copies.
   */
  @Param({"1", "100"})
  public int recordTurns;

  private MmrSelector selector;
  private List<Candidate> pool;
  private RecallContext context;

  @Setup
  public void setUp() {
    Random random = new Random(5);
    selector = new MmrSelector(MmrConfig.defaults(), Strategies.defaults());
    Map<String, Candidate> byId = new LinkedHashMap<>();
    int i = 0;
    while (byId.size() < 200) {
      Candidate c = BenchData.candidate(random, i++, "r1", recordTurns);
      byId.putIfAbsent(c.id(), c);
    }
    pool = new ArrayList<>(byId.values());
    pool.sort(Comparator.comparingDouble(Candidate::score).reversed());
    context = new RecallContext(new Question("bench", "bench question", k, null),
        RecallPlan.singleRoute("bench question"), k, List.of());
  }

  @Benchmark
  public List<Evidence> select() {
    return selector.select(pool, context);
  }
}
