package dev.lychee.bench.jmh;

import dev.lychee.api.ScoredId;
import dev.lychee.api.spi.VectorIndex;
import dev.lychee.bench.systems.ExactTopK;
import dev.lychee.core.vector.ExactVectorIndex;
import dev.lychee.core.vector.Vectors;
import java.util.HashMap;
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
import org.openjdk.jmh.annotations.TearDown;

/**
 * How long does an exact top-k vector search take over one namespace at LoCoMo sizes (one
 * conversation ~ 600 turns, twenty ~ 12,000, a hundred copies of the 419-turn one ~ 42,000) with BGE-small's 384 dimensions? Measures the
 * store's {@link ExactVectorIndex} beside the bench's plain matrix scan ({@link ExactTopK}, the
 * dense baseline's search) as a floor.
 *
 * <p>{@code kernel} picks the dot-product kernel of the fork ({@code lychee.vector.kernel},
 * docs/defaults.md §3.5): {@code auto} is SIMD when the fork has {@code jdk.incubator.vector} (the
 * launcher adds it), {@code scalar} the plain-Java kernel; JMH forks a JVM per parameter set, so the
 * property is set before the first vector is scored.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class ExactVectorSearchBench {
  @Param({"600", "12000", "42000"})
  public int rows;

  @Param({"20"})
  public int k;

  @Param({"auto", "scalar"})
  public String kernel;

  private ExactVectorIndex index;
  private float[][] matrix;
  private float[] query;
  private List<float[]> variants;

  @Setup
  public void setUp() {
    System.setProperty("lychee.vector.kernel", kernel);
    Random random = new Random(42);
    index = new ExactVectorIndex();
    matrix = new float[rows][];
    Map<String, float[]> vectors = new HashMap<>();
    for (int i = 0; i < rows; i++) {
      matrix[i] = BenchData.unit(random, 384);
      vectors.put("episode:D" + (i / 30 + 1) + ":" + (i % 30), matrix[i]);
    }
    index.upsert("bench", VectorIndex.TURNS, vectors);
    if (kernel.equals("scalar") != Vectors.kernel().equals("scalar")) {
      // auto without the module (or scalar ignored) would time the wrong kernel under this label
      throw new IllegalStateException("kernel " + kernel + " asked, " + Vectors.kernel() + " running");
    }
    query = BenchData.unit(random, 384);
    variants = List.of(query, BenchData.unit(random, 384), BenchData.unit(random, 384), BenchData.unit(random, 384));
  }

  @TearDown
  public void tearDown() {
    index.close();
  }

  @Benchmark
  public List<ScoredId> exactVectorIndex() {
    return index.search("bench", VectorIndex.TURNS, query, k, null);
  }

  /**
   * A route's query variants (four, about what the rule planner makes) against one index, as the
   * recall channels search them: one {@link VectorIndex#searchAll} call.
   */
  @Benchmark
  public List<List<ScoredId>> fourVariants() {
    return index.searchAll("bench", VectorIndex.TURNS, variants, k, null);
  }

  @Benchmark
  public int[] matrixScan() {
    return ExactTopK.topK(matrix, query, k);
  }
}
