package dev.lychee.bench.jmh;

import dev.lychee.bench.systems.ExactTopK;
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
 * How long does an exact top-k search over one namespace's turn vectors take, at LoCoMo sizes
 * (one conversation ~ 600 turns, 20 conversations ~ 12,000), with BGE-small's 384 dimensions?
 * Measures the harness's dense baseline search ({@link ExactTopK}).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class ExactTopKBench {
  @Param({"600", "12000"})
  public int rows;

  @Param({"20"})
  public int k;

  private float[][] matrix;
  private float[] query;

  @Setup
  public void setUp() {
    Random random = new Random(42);
    matrix = new float[rows][];
    for (int i = 0; i < rows; i++) {
      matrix[i] = unit(random, 384);
    }
    query = unit(random, 384);
  }

  static float[] unit(Random random, int dim) {
    float[] v = new float[dim];
    double norm = 0;
    for (int i = 0; i < dim; i++) {
      v[i] = (float) random.nextGaussian();
      norm += v[i] * v[i];
    }
    float inv = (float) (1 / Math.sqrt(norm));
    for (int i = 0; i < dim; i++) {
      v[i] *= inv;
    }
    return v;
  }

  @Benchmark
  public int[] topK() {
    return ExactTopK.topK(matrix, query, k);
  }
}
