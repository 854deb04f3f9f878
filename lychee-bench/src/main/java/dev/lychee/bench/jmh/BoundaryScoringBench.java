package dev.lychee.bench.jmh;

import dev.lychee.api.spi.EmbeddingProfile;
import dev.lychee.core.segment.BoundaryDecision;
import dev.lychee.core.segment.BoundarySignals;
import dev.lychee.core.segment.SegmentationConfig;
import java.util.ArrayList;
import java.util.List;
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
 * What does one segment-boundary decision cost per incoming exchange (§1.5: centroid, tail,
 * surprise, cohesion drop, robust z over the history, length and turn curves)? The segment
 * helper's {@link BoundarySignals} with an open segment of {@code open} 384-dimensional vectors
 * and a full 64-value surprise history.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class BoundaryScoringBench {
  @Param({"3", "10"})
  public int open;

  private BoundarySignals signals;
  private List<float[]> segment;
  private float[] incoming;
  private double[] history;

  @Setup
  public void setUp() {
    Random random = new Random(3);
    signals = new BoundarySignals(SegmentationConfig.defaults(), new EmbeddingProfile(0.12, 0.05));
    segment = new ArrayList<>();
    for (int i = 0; i < open; i++) {
      segment.add(BenchData.unit(random, 384));
    }
    incoming = BenchData.unit(random, 384);
    history = new double[64];
    for (int i = 0; i < history.length; i++) {
      history[i] = 0.05 + 0.2 * random.nextDouble();
    }
  }

  @Benchmark
  public BoundaryDecision decide() {
    return signals.decide(segment, incoming, 900, history);
  }
}
