package dev.lychee.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lychee.api.Turn;
import dev.lychee.core.Lychee;
import dev.lychee.core.LycheeConfig;
import dev.lychee.core.ingest.IngestConfig;
import dev.lychee.core.segment.SegmentationConfig;
import dev.lychee.core.testing.CountingEncoder;
import dev.lychee.core.testing.SegmentCoverage;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Two instances (each its own pool, segmenters and encoder) appending to the SAME session at once,
 * so both hold open segments over the same turns: once both flushed, every turn lies in exactly
 * one segment, and each segment was encoded once.
 */
class SameSessionWritersTest {
  private static final int ROUNDS = 12;

  /**
   * An instance whose segments close every {@code window} exchanges: instances with different
   * windows close segments that overlap without being equal, as semantic segmenters fed different
   * batches do.
   */
  private static Lychee instance(String url, PostgresStoreConfig config, Map<String, AtomicInteger> encodings,
      int window) {
    LycheeConfig lychee = LycheeConfig.builder().segmenter("fixed")
        .segmentation(SegmentationConfig.builder().windowExchanges(window).build())
        .encodeMode(IngestConfig.EncodeMode.SYNC).build();
    return Lychee.create(lychee, new PostgresStoreModule(url, config), CountingEncoder.module(encodings));
  }

  @Test
  @Timeout(240)
  void twoInstancesAppendingToOneSessionAtOnceSegmentEveryTurnOnce() throws Exception {
    String url = TestPostgres.get().url();
    PostgresStoreConfig config = PostgresStoreConfig.builder().schema(TestPostgres.freshSchema()).maxPoolSize(3).build();
    Map<String, AtomicInteger> encodings = new ConcurrentHashMap<>();
    List<Throwable> errors = new CopyOnWriteArrayList<>();
    AtomicInteger exchanges = new AtomicInteger();
    try (Lychee first = instance(url, config, encodings, 3); Lychee second = instance(url, config, encodings, 4)) {
      CyclicBarrier together = new CyclicBarrier(2);
      List<Thread> threads = new ArrayList<>();
      for (Lychee w : List.of(first, second)) {
        int seed = threads.size();
        threads.add(new Thread(() -> {
          Random rnd = new Random(31 + seed);
          try {
            for (int round = 0; round < ROUNDS; round++) {
              // in step each round, so the two segmenters keep overlapping open segments
              together.await();
              List<Turn> turns = new ArrayList<>();
              for (int k = 0; k < 1 + rnd.nextInt(2); k++) {
                int n = exchanges.getAndIncrement();
                turns.add(Turn.user("Ada", "Ada tells story " + n + " about her garden in Lyon."));
                turns.add(Turn.assistant("What happened next in story " + n + "?"));
              }
              assertThat(w.append("ns", "s", turns).failures()).isEmpty();
              if (rnd.nextInt(5) == 0) {
                assertThat(w.flush("ns", "s").failures()).isEmpty();
              }
            }
            together.await();
            assertThat(w.flush("ns", "s").failures()).isEmpty();
          } catch (Throwable t) {
            errors.add(t);
            together.reset();
          }
        }));
      }
      threads.forEach(Thread::start);
      for (Thread t : threads) {
        t.join();
      }
      assertThat(errors).isEmpty();
      assertThat(first.store().turns("ns", "s")).hasSize(2 * exchanges.get());
      SegmentCoverage.assertEachTurnInOneEncodedSegment(first.store(), "ns", "s", encodings);
    }
  }
}
