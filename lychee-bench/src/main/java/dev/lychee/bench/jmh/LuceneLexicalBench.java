package dev.lychee.bench.jmh;

import dev.lychee.api.RawTurn;
import dev.lychee.api.Role;
import dev.lychee.api.ScoredId;
import dev.lychee.api.TurnRef;
import dev.lychee.api.spi.TextField;
import dev.lychee.store.lucene.LuceneRecordStore;
import dev.lychee.store.lucene.LuceneStoreConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * One route's lexical search on the Lucene store: a question's variants (the question, its two
 * halves and a rewrite) over the raw turns of one namespace, in one {@code searchTexts} call, as
 * the lexical channel asks for them. The namespace holds one chat of 419 turns copied 20 times (x20
 * of a LoCoMo conversation: every text 20 times, so ties are common), appended four turns at a time
 * with reads in between, so that the index has the several segments a live store has. The read
 * cache is off, so that every call searches. Run with {@code -prof gc} for the bytes allocated per
 * call (round twenty, docs/measurements.md §6).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class LuceneLexicalBench {
  private static final String NS = "bench";
  private static final String[] COMMON = {"it", "and", "to", "i", "a", "you", "the", "so", "that", "for", "me",
      "my", "of", "what", "did", "do", "was", "in", "is", "with", "really", "love", "great", "time", "kids"};

  /** Copies of the 419-turn chat in the namespace. */
  @Param({"20"})
  public int copies;

  private Path dir;
  private LuceneRecordStore store;
  private final List<List<String>> routes = new ArrayList<>();
  private int next;

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    dir = Files.createTempDirectory("lychee-lexical-bench");
    store = new LuceneRecordStore(dir, LuceneStoreConfig.builder().fsync(false).readCacheMaxEntries(0).build());
    Random random = new Random(42);
    List<String> chat = new ArrayList<>();
    for (int i = 0; i < 419; i++) {
      chat.add(sentence(random, 6 + random.nextInt(20)));
    }
    LocalDateTime at = LocalDateTime.of(2023, 5, 8, 13, 56);
    for (int c = 0; c < copies; c++) {
      String session = "copy" + c;
      for (int i = 0; i < chat.size(); i += 4) {
        List<RawTurn> batch = new ArrayList<>();
        for (int j = i; j < Math.min(i + 4, chat.size()); j++) {
          batch.add(new RawTurn(NS, TurnRef.of(session, j), j % 2 == 0 ? Role.USER : Role.ASSISTANT, null,
              chat.get(j), at));
        }
        store.appendTurns(NS, session, batch);
        if (i % 100 == 0) {
          // a read between writes, as recall does: the searchers reopen on what was written
          store.searchText(NS, TextField.TURNS, chat.get(i), 5);
        }
      }
    }
    for (int q = 0; q < 64; q++) {
      String question = "what did " + sentence(random, 4 + random.nextInt(6));
      String[] words = question.split(" ");
      routes.add(List.of(question,
          String.join(" ", List.of(words).subList(0, words.length / 2 + 1)),
          String.join(" ", List.of(words).subList(words.length / 2, words.length)),
          sentence(random, 3 + random.nextInt(4))));
    }
  }

  /** Chat-like words: the commonest in about half the texts, content words, and rarer ones. */
  private static String sentence(Random random, int words) {
    StringBuilder text = new StringBuilder();
    for (int w = 0; w < words; w++) {
      double u = random.nextDouble();
      text.append(u < 0.45 ? COMMON[(int) Math.floor(COMMON.length * u * u / 0.2025)]
          : u < 0.8 ? BenchData.word(random) : "w" + (int) (1500 * Math.pow(random.nextDouble(), 2))).append(' ');
    }
    return text.toString();
  }

  @TearDown(Level.Trial)
  public void tearDown() throws IOException {
    store.close();
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }

  /** One route's variants over the turns, 30 hits each. */
  @Benchmark
  public List<List<ScoredId>> routeVariants() {
    List<String> variants = routes.get(next);
    next = (next + 1) % routes.size();
    return store.searchTexts(NS, TextField.TURNS, variants, 30);
  }
}
