package dev.lychee.bench.jmh;

import dev.lychee.bench.systems.ReciprocalRankFusion;
import java.util.ArrayList;
import java.util.Collections;
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
 * What does reciprocal rank fusion (k = 60) of several overlapping rankings cost per question?
 * Rankings of 100 ids drawn from a pool of 300, as the hybrid baseline fuses them.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class RrfFusionBench {
  @Param({"2", "6"})
  public int rankings;

  private List<List<String>> lists;
  private final ReciprocalRankFusion rrf = new ReciprocalRankFusion(ReciprocalRankFusion.DEFAULT_K);

  @Setup
  public void setUp() {
    Random random = new Random(7);
    List<String> pool = new ArrayList<>();
    for (int i = 0; i < 300; i++) {
      pool.add("episode:D" + (i / 20 + 1) + ":" + (i % 20));
    }
    lists = new ArrayList<>();
    for (int r = 0; r < rankings; r++) {
      List<String> shuffled = new ArrayList<>(pool);
      Collections.shuffle(shuffled, random);
      lists.add(List.copyOf(shuffled.subList(0, 100)));
    }
  }

  @Benchmark
  public List<String> fuse() {
    return rrf.fuse(lists);
  }
}
