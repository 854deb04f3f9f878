package dev.lychee.bench.jmh;

import dev.lychee.api.ScoredId;
import dev.lychee.core.store.Bm25Index;
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
 * One lexical query of the in-memory store ({@link Bm25Index}) over chat-like turns at the sizes
 * of one LoCoMo conversation (419 turns) and its copies x20 and x100 in one namespace. Turns draw
 * their words from a Zipf-like mix in which the commonest words sit in about half of the turns, as
 * in real chat, so a question's words match most of the index: what grows with the namespace is
 * the postings a query walks. Run with {@code -prof gc} for the bytes allocated per query.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class Bm25SearchBench {
  private static final String[] COMMON = {"it", "and", "to", "i", "a", "you", "the", "so", "that", "for", "me",
      "my", "of", "what", "did", "do", "was", "in", "is", "with"};

  @Param({"419", "8380", "41900"})
  public int docs;

  private Bm25Index index;
  private String query;

  @Setup
  public void setUp() {
    Random random = new Random(42);
    index = new Bm25Index();
    List<String> rare = new ArrayList<>();
    for (int i = 0; i < 2000; i++) {
      rare.add("w" + i);
    }
    for (int d = 0; d < docs; d++) {
      StringBuilder text = new StringBuilder();
      for (int w = 0, n = 6 + random.nextInt(20); w < n; w++) {
        double u = random.nextDouble();
        String word = u < 0.45 ? COMMON[(int) Math.floor(COMMON.length * u * u / 0.2025)]
            : u < 0.75 ? BenchData.word(random) : rare.get((int) (rare.size() * Math.pow(random.nextDouble(), 2)));
        text.append(word).append(' ');
      }
      index.put("episode:D" + (d / 30 + 1) + ":" + (d % 30), text.toString());
    }
    query = "what did the " + BenchData.word(random) + " and " + BenchData.word(random) + " do for " + rare.get(3);
  }

  @Benchmark
  public List<ScoredId> search() {
    return index.search(query, 30);
  }
}
