package dev.lychee.core.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lychee.api.Segment;
import dev.lychee.api.Turn;
import dev.lychee.api.spi.RecordStore;
import dev.lychee.core.Lychee;
import dev.lychee.core.LycheeConfig;
import dev.lychee.core.segment.SegmentationConfig;
import dev.lychee.core.store.CheckedRecordStore;
import dev.lychee.core.store.InMemoryRecordStore;
import dev.lychee.core.testing.CountingEncoder;
import dev.lychee.core.testing.SegmentCoverage;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Two writers (two Lychee instances over one store, as two application instances over one
 * database) whose segmenters hold open segments of the same session: the store refuses a segment
 * over turns another writer segmented, and the refused writer segments again after the stored
 * segments, so no turn feeds two segments and none is left out.
 */
class OverlappingWritersTest {

  /**
   * A writer whose segments close every {@code window} exchanges: writers with different windows
   * close segments that overlap without being equal, as semantic segmenters fed different batches
   * do.
   */
  private static Lychee writer(RecordStore shared, Map<String, AtomicInteger> encodings, int window) {
    LycheeConfig config = LycheeConfig.builder().segmenter("fixed")
        .segmentation(SegmentationConfig.builder().windowExchanges(window).build())
        .encodeMode(IngestConfig.EncodeMode.SYNC).build();
    return Lychee.create(config, binder -> binder.bind(RecordStore.class).toInstance(CheckedRecordStore.of(shared)),
        CountingEncoder.module(encodings));
  }

  /** The store, counting the segments it refuses. */
  private static RecordStore counting(RecordStore store, AtomicInteger refused) {
    return (RecordStore) Proxy.newProxyInstance(RecordStore.class.getClassLoader(), new Class<?>[] {RecordStore.class},
        (proxy, method, args) -> {
          try {
            Object out = method.invoke(store, args);
            if (method.getName().equals("putSegment") && Boolean.FALSE.equals(out)) {
              refused.incrementAndGet();
            }
            return out;
          } catch (InvocationTargetException e) {
            throw e.getCause();
          }
        });
  }

  @Test
  void interleavedAppendsAndFlushesOfOneSessionSegmentEveryTurnOnce() {
    AtomicInteger refused = new AtomicInteger();
    RecordStore shared = counting(new InMemoryRecordStore(), refused);
    Map<String, AtomicInteger> encodings = new ConcurrentHashMap<>();
    Random rnd = new Random(17);
    int n = 0;
    try (Lychee a = writer(shared, encodings, 3); Lychee b = writer(shared, encodings, 4)) {
      for (int step = 0; step < 60; step++) {
        Lychee w = rnd.nextBoolean() ? a : b;
        if (rnd.nextInt(6) == 0) {
          w.flush("ns", "s");
          continue;
        }
        List<Turn> turns = new ArrayList<>();
        for (int k = 0; k < 1 + rnd.nextInt(3); k++, n++) {
          turns.add(Turn.user("Ada", "Ada tells story " + n + " about her garden in Lyon."));
          turns.add(Turn.assistant("What happened next in story " + n + "?"));
        }
        assertThat(w.append("ns", "s", turns).failures()).isEmpty();
      }
      assertThat(a.flush("ns", "s").failures()).isEmpty();
      assertThat(b.flush("ns", "s").failures()).isEmpty();
      assertThat(shared.turns("ns", "s")).hasSize(2 * n);
      assertThat(refused.get()).as("segments refused for overlapping stored ones").isPositive();
      SegmentCoverage.assertEachTurnInOneEncodedSegment(shared, "ns", "s", encodings);
      assertThat(shared.segments("ns")).extracting(s -> s.segment()).extracting(Segment::session).containsOnly("s");
    }
  }
}
