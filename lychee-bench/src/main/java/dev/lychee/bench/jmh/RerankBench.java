package dev.lychee.bench.jmh;

import dev.lychee.api.Candidate;
import dev.lychee.api.Question;
import dev.lychee.api.RecallPlan;
import dev.lychee.api.spi.RecallContext;
import dev.lychee.core.rerank.FeatureReranker;
import dev.lychee.core.rerank.RerankWeights;
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
 * What does the feature reranker cost per question? It rescores the whole fused pool, which on
 * LoCoMo holds several hundred candidates per question and grows as the evidence nodes of a
 * namespace link more records: {@link FeatureReranker} on pools of 200 and 2,000 candidates,
 * with a question naming a person (so the speaker feature is computed).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class RerankBench {
  @Param({"200", "2000"})
  public int pool;

  /**
   * Turns each record cites: 1 as in a namespace of one conversation, 100 as in {@code eval speed}'s
   * namespace at scale 100, where every record cites the turns of all copies.
   */
  @Param({"1", "100"})
  public int recordTurns;

  private FeatureReranker reranker;
  private List<Candidate> candidates;
  private RecallContext context;

  @Setup
  public void setUp() {
    Random random = new Random(3);
    reranker = new FeatureReranker(RerankWeights.defaults());
    Map<String, Candidate> byId = new LinkedHashMap<>();
    int i = 0;
    while (byId.size() < pool) {
      Candidate c = BenchData.candidate(random, i++, "r1", recordTurns);
      byId.putIfAbsent(c.id(), c);
    }
    candidates = new ArrayList<>(byId.values());
    candidates.sort(Comparator.comparingDouble(Candidate::score).reversed());
    String q = "When did Speaker go hiking by the river with the beagle?";
    context = new RecallContext(new Question("bench", q, 10, null), RecallPlan.singleRoute(q), 10, List.of());
  }

  @Benchmark
  public List<Candidate> rerank() {
    return reranker.rerank(candidates, context);
  }
}
