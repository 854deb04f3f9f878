package dev.lychee.core.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lychee.api.CloseReason;
import dev.lychee.api.RawTurn;
import dev.lychee.api.Role;
import dev.lychee.api.Segment;
import dev.lychee.api.SegmentState;
import dev.lychee.api.Turn;
import dev.lychee.api.TurnRef;
import dev.lychee.api.spi.RecordStore;
import dev.lychee.core.Lychee;
import dev.lychee.core.LycheeConfig;
import dev.lychee.core.store.InMemoryRecordStore;
import dev.lychee.core.testing.HashingEmbedder;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Review C F8: the background sweep reads the pending work only ({@code pendingNamespaces}, then
 * {@code pendingSegments} of those namespaces), never every segment of every namespace, and still
 * queues a PENDING segment that no lane of the process holds.
 */
class SweepReadsTest {
  private static final LocalDateTime DAY = LocalDateTime.of(2024, 3, 1, 10, 0);

  @Test
  void theSweepReadsOnlyPendingWorkAndStillQueuesAnOrphanedSegment() throws InterruptedException {
    Map<String, AtomicInteger> calls = new ConcurrentHashMap<>();
    InMemoryRecordStore inner = new InMemoryRecordStore();
    RecordStore counting = (RecordStore) Proxy.newProxyInstance(RecordStore.class.getClassLoader(),
        new Class<?>[] {RecordStore.class}, (proxy, method, args) -> {
          calls.computeIfAbsent(method.getName(), k -> new AtomicInteger()).incrementAndGet();
          try {
            return method.invoke(inner, args);
          } catch (InvocationTargetException e) {
            throw e.getCause();
          }
        });
    LycheeConfig config = LycheeConfig.builder().segmenter("turn").ingest(IngestConfig.builder()
        .encodeMode(IngestConfig.EncodeMode.ASYNC).sweepPeriod(Duration.ofMillis(20)).build()).build();
    try (Lychee l = Lychee.builder().embedder(new HashingEmbedder()).store(counting).config(config).build()) {
      for (int i = 0; i < 5; i++) {
        l.append("ns" + i, "s", DAY, List.of(Turn.user("Ada", "My cat Pixel " + i + " likes the garden."),
            Turn.assistant("Pixel sounds happy there.")));
        l.flush("ns" + i, "s");
        assertThat(l.awaitIdle("ns" + i, Duration.ofSeconds(60))).isTrue();
      }
      assertThat(inner.segments("ns3")).isNotEmpty().allMatch(s -> s.state() == SegmentState.ENCODED);

      // a segment another writer stored and left PENDING: no lane here holds it
      RawTurn t = new RawTurn("orphan", TurnRef.of("s", 0), Role.USER, "Ada", "Pixel caught a moth at dawn.", DAY);
      inner.appendTurns("orphan", "s", List.of(t));
      Segment orphan = new Segment("orphan", "s", List.of(t), 1, 8, CloseReason.SESSION_FLUSH, Double.NaN, Double.NaN);
      inner.putSegment(orphan, SegmentState.PENDING);
      calls.clear();
      long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
      while (count(calls, "pendingNamespaces") < 3 && System.nanoTime() < deadline) {
        Thread.sleep(10);
      }
      assertThat(count(calls, "pendingNamespaces")).as("sweeps that ran").isGreaterThanOrEqualTo(3);
      assertThat(l.awaitIdle("orphan", Duration.ofSeconds(60))).isTrue();
      while (inner.segments("orphan").get(0).state() != SegmentState.ENCODED && System.nanoTime() < deadline) {
        Thread.sleep(10);
      }
      assertThat(inner.segments("orphan").get(0).state()).isEqualTo(SegmentState.ENCODED);
      // the sweeps read no full segment list and no namespace list
      assertThat(count(calls, "segments")).isZero();
      assertThat(count(calls, "namespaces")).isZero();
      assertThat(count(calls, "pendingSegments")).isPositive();
    }
  }

  private static int count(Map<String, AtomicInteger> calls, String method) {
    AtomicInteger n = calls.get(method);
    return n == null ? 0 : n.get();
  }
}
