package dev.lychee.core.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lychee.api.SegmentState;
import dev.lychee.api.StoredSegment;
import dev.lychee.api.Turn;
import dev.lychee.api.spi.RecordStore;
import dev.lychee.core.Lychee;
import dev.lychee.core.LycheeConfig;
import dev.lychee.core.encode.EncodingConfig;
import dev.lychee.core.encode.ReferenceContextTracker;
import dev.lychee.core.store.InMemoryRecordStore;
import dev.lychee.core.testing.HashingEmbedder;
import jakarta.inject.Inject;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What the write path keeps per session in memory, and what becomes of a session's open segment
 * when nobody flushes it (review C, F7 and F11).
 */
class SessionStateTest {
  private static final LocalDateTime DAY = LocalDateTime.of(2024, 3, 1, 10, 0);

  /** The writer and the reference contexts of one Lychee, injected by its own injector. */
  static final class Inside {
    @Inject MemoryWriter writer;
    @Inject ReferenceContextTracker contexts;
  }

  private static RecordStore keptOpen(RecordStore target) {
    return (RecordStore) Proxy.newProxyInstance(RecordStore.class.getClassLoader(), new Class<?>[] {RecordStore.class},
        (proxy, method, args) -> {
          if (method.getName().equals("close")) {
            return null;
          }
          try {
            return method.invoke(target, args);
          } catch (InvocationTargetException e) {
            throw e.getCause();
          }
        });
  }

  private static List<Turn> conversation(int from, int count) {
    List<Turn> out = new ArrayList<>();
    for (int i = from; i < from + count; i++) {
      out.add(i % 2 == 0 ? Turn.user("Ada", "Turn " + i + ": I adopted a cat named Pixel in Lisbon last spring.")
          : Turn.assistant("Turn " + i + ": Pixel sounds lovely, how is she settling in?"));
    }
    return out;
  }

  private static LycheeConfig config(IngestConfig.EncodeMode mode) {
    return LycheeConfig.builder().segmenter("semantic")
        .ingest(IngestConfig.builder().encodeMode(mode).build()).build();
  }

  private static List<Integer> covered(List<StoredSegment> segments) {
    List<Integer> out = new ArrayList<>();
    segments.forEach(s -> s.segment().turns().forEach(t -> out.add(t.index())));
    return out;
  }

  /**
   * F11, synchronous. Before: the open segment was dropped at close, and after the reopen nothing
   * segmented its turns until the session's next append or flush, which a chat integration never
   * sends for a conversation that has ended.
   */
  @Test
  void closeStoresTheOpenSegmentAndTheNextOpenEncodesItWithoutAnotherAppend() {
    closeThenReopen(IngestConfig.EncodeMode.SYNC);
  }

  /** F11 in the background mode (segmentation and encoding off the caller's thread). */
  @Test
  void closeStoresTheOpenSegmentInTheBackgroundModeToo() {
    closeThenReopen(IngestConfig.EncodeMode.ASYNC);
  }

  private static void closeThenReopen(IngestConfig.EncodeMode mode) {
    RecordStore store = keptOpen(new InMemoryRecordStore());
    try (Lychee first = Lychee.builder().embedder(new HashingEmbedder()).store(store).config(config(mode)).build()) {
      assertThat(first.append("ns", "chat-1", DAY, conversation(0, 3)).turnsStored()).isEqualTo(3);
    }
    assertThat(covered(store.segments("ns"))).as("close stored the open segment").containsExactly(0, 1, 2);
    try (Lychee reopened = Lychee.builder().embedder(new HashingEmbedder()).store(store).config(config(mode)).build()) {
      assertThat(reopened.awaitIdle("ns", Duration.ofSeconds(60))).isTrue();
      assertThat(store.segments("ns")).isNotEmpty().allMatch(s -> s.state() == SegmentState.ENCODED);
      assertThat(store.records("ns")).isNotEmpty();
      // nothing is segmented twice when the conversation goes on after the restart
      reopened.append("ns", "chat-1", DAY, conversation(3, 2));
      reopened.flush("ns", "chat-1");
      assertThat(reopened.awaitIdle("ns", Duration.ofSeconds(60))).isTrue();
      assertThat(covered(store.segments("ns"))).containsExactlyInAnyOrder(0, 1, 2, 3, 4);
    }
  }

  /**
   * F7. Before: the writer's two lock maps held an entry for each of the 10,000 sessions, and the
   * reference contexts one context each, until close.
   */
  @Test
  void tenThousandSessionsAppendedAndFlushedLeaveNoPerSessionStateBehind() {
    Inside inside = new Inside();
    LycheeConfig config = LycheeConfig.builder().segmenter("turn")
        .encoding(EncodingConfig.builder().maxSessionContexts(100).build())
        .ingest(IngestConfig.builder().encodeMode(IngestConfig.EncodeMode.SYNC).build()).build();
    try (Lychee l = Lychee.builder().embedder(new HashingEmbedder()).config(config)
        .module(b -> b.requestInjection(inside)).build()) {
      for (int i = 0; i < 10_000; i++) {
        String ns = "user-" + (i % 100);
        String session = "s" + i;
        l.append(ns, session, DAY, List.of(Turn.user("Ada", "Session " + i + ": my cat Pixel chased a moth today.")));
        l.flush(ns, session);
      }
      assertThat(l.store().countTurns("user-7")).isEqualTo(100);
      assertThat(inside.writer.sessionEntries()).isZero();
      assertThat(inside.contexts.size()).isBetween(1, 100);
    }
  }

  /**
   * F7 and F11 for integrations that never flush: sessions nobody used for {@code idleFlush} are
   * flushed in the background, their segments encoded and their state released.
   */
  @Test
  void idleSessionsAreFlushedAndReleasedWithoutAFlushCall() throws InterruptedException {
    Inside inside = new Inside();
    LycheeConfig config = LycheeConfig.builder().segmenter("semantic")
        .ingest(IngestConfig.builder().encodeMode(IngestConfig.EncodeMode.SYNC).idleFlush(Duration.ofMillis(50)).build())
        .build();
    try (Lychee l = Lychee.builder().embedder(new HashingEmbedder()).config(config)
        .module(b -> b.requestInjection(inside)).build()) {
      for (int i = 0; i < 20; i++) {
        // one namespace each, so that no append flushes another session of its namespace
        l.append("user-" + i, "chat", DAY, conversation(0, 3));
      }
      // the idle flush releases a session, then encodes its segment: wait for both
      long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
      while ((inside.writer.sessionEntries() > 0 || !allEncoded(l, 20)) && System.nanoTime() < deadline) {
        Thread.sleep(20);
      }
      assertThat(inside.writer.sessionEntries()).isZero();
      for (int i = 0; i < 20; i++) {
        List<StoredSegment> segments = l.store().segments("user-" + i);
        assertThat(covered(segments)).as("user-%d", i).containsExactly(0, 1, 2);
        assertThat(segments).allMatch(s -> s.state() == SegmentState.ENCODED);
      }
    }
  }

  private static boolean allEncoded(Lychee l, int namespaces) {
    for (int i = 0; i < namespaces; i++) {
      List<StoredSegment> segments = l.store().segments("user-" + i);
      if (segments.isEmpty() || segments.stream().anyMatch(s -> s.state() != SegmentState.ENCODED)) {
        return false;
      }
    }
    return true;
  }

  @Test
  void idleFlushIsValidatedAndChecksAtASensiblePace() {
    assertThat(IngestConfig.defaults().idleFlush()).isEqualTo(Duration.ofMinutes(30));
    assertThat(MemoryWriter.idleCheckPeriod(Duration.ofMinutes(30))).isEqualTo(Duration.ofMinutes(1));
    assertThat(MemoryWriter.idleCheckPeriod(Duration.ofMillis(10))).isEqualTo(Duration.ofMillis(10));
    assertThat(MemoryWriter.idleCheckPeriod(Duration.ofSeconds(10))).isEqualTo(Duration.ofSeconds(5));
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> IngestConfig.builder().idleFlush(Duration.ofMillis(5)).build())
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("idleFlush");
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> IngestConfig.builder().idleFlush(Duration.ofMillis(-1)).build())
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("idleFlush");
    assertThat(IngestConfig.builder().idleFlush(Duration.ZERO).build().idleFlush()).isZero();
  }
}
