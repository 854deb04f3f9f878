package dev.lychee.store.postgres;

import static dev.lychee.core.conformance.StoreFixtures.segment;
import dev.lychee.api.CloseReason;
import dev.lychee.api.RawTurn;
import dev.lychee.api.Segment;
import dev.lychee.api.SegmentState;
import dev.lychee.api.StoredSegment;
import dev.lychee.api.Turn;
import dev.lychee.core.Lychee;
import dev.lychee.core.LycheeConfig;
import dev.lychee.core.ingest.IngestConfig;
import dev.lychee.core.ingest.IngestConfig.EncodeMode;
import dev.lychee.api.spi.RecordStore;
import dev.lychee.core.testing.CountingEncoder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import static dev.lychee.core.conformance.StoreFixtures.turns;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Core's background encoder on the PostgreSQL claims: two Lychee instances (each its own pool and
 * owner) work off one durable queue of PENDING segments, and no segment is encoded twice.
 */
class SharedEncodingQueueTest {
  private static final int SESSIONS = 6;
  private static final int PER_SESSION = 4;

  private static Lychee instance(String url, PostgresStoreConfig config, Map<String, AtomicInteger> calls) {
    LycheeConfig lychee = LycheeConfig.builder()
        .ingest(IngestConfig.builder().encodeMode(EncodeMode.ASYNC).concurrency(3).build()).build();
    return Lychee.create(lychee, new PostgresStoreModule(url, config), CountingEncoder.module(calls));
  }

  /** PENDING segments, as a writer that crashed before encoding leaves them. */
  private static List<String> pendingSegments(String url, PostgresStoreConfig config) {
    List<String> ids = new ArrayList<>();
    try (RecordStore store = PostgresRecordStore.open(url, config)) {
      Random rnd = new Random(11);
      for (int s = 0; s < SESSIONS; s++) {
        for (int k = 0; k < PER_SESSION; k++) {
          List<RawTurn> t = turns("ns", "s" + s, k * 2, 2, rnd, "pending");
          store.appendTurns("ns", "s" + s, t);
          Segment seg = segment(t, CloseReason.TARGET_LENGTH);
          store.putSegment(seg, SegmentState.PENDING);
          ids.add(seg.id());
        }
      }
    }
    return ids;
  }

  @Test
  @Timeout(180)
  void threeProcessesDrainingOneQueueEncodeEverySegmentOnce() throws Exception {
    String url = TestPostgres.get().url();
    String schema = TestPostgres.freshSchema();
    PostgresStoreConfig config = PostgresStoreConfig.builder().schema(schema).maxPoolSize(2).build();
    List<String> ids = pendingSegments(url, config);
    List<String> encoded = new ArrayList<>();
    List<ChildJvm> children = new ArrayList<>();
    try {
      for (int i = 0; i < 3; i++) {
        children.add(ChildJvm.start(EncoderChild.class, url, schema, "ns"));
      }
      for (ChildJvm c : children) {
        c.await("READY");
      }
      for (ChildJvm c : children) {
        c.send("GO");
      }
      for (ChildJvm c : children) {
        for (String line = c.await(""); !line.equals("DONE"); line = c.await("")) {
          assertThat(line).as("child output").doesNotStartWith("NOT IDLE");
          if (line.startsWith("ENC ")) {
            encoded.add(line.substring(4));
          }
        }
        assertThat(c.waitFor(60)).isZero();
      }
    } finally {
      children.forEach(ChildJvm::close);
    }
    assertThat(encoded).as("each segment reached one encoder once").containsExactlyInAnyOrderElementsOf(ids);
    try (RecordStore store = PostgresRecordStore.open(url, config)) {
      assertThat(store.segments("ns")).hasSize(ids.size())
          .allSatisfy(s -> assertThat(s.state()).isEqualTo(SegmentState.ENCODED));
    }
  }

  @Test
  @Timeout(120)
  void twoInstancesResumingOneQueueEncodeEverySegmentOnce() {
    String url = TestPostgres.get().url();
    PostgresStoreConfig config = PostgresStoreConfig.builder().schema(TestPostgres.freshSchema()).maxPoolSize(4).build();
    // a crashed writer left PENDING segments behind: both instances queue all of them at open
    List<String> ids = pendingSegments(url, config);
    Map<String, AtomicInteger> calls = new ConcurrentHashMap<>();
    try (Lychee first = instance(url, config, calls); Lychee second = instance(url, config, calls)) {
      // each also appends a session of its own, whose segments both then offer to the queue
      first.append("ns", "from-first", List.of(Turn.user("Ann", "I moved to Porto in May."),
          Turn.assistant("How do you like Porto?")));
      second.append("ns", "from-second", List.of(Turn.user("Bob", "My sister plays the cello."),
          Turn.assistant("Since when does she play?")));
      first.flush("ns", "from-first");
      second.flush("ns", "from-second");
      first.encodePending("ns");
      second.encodePending("ns");
      assertThat(first.awaitIdle("ns", Duration.ofSeconds(90))).isTrue();
      assertThat(second.awaitIdle("ns", Duration.ofSeconds(90))).isTrue();

      List<StoredSegment> stored = first.store().segments("ns");
      assertThat(stored).hasSize(ids.size() + 2)
          .allSatisfy(s -> assertThat(s.state()).as(s.segment().id()).isEqualTo(SegmentState.ENCODED));
      assertThat(calls.keySet()).containsExactlyInAnyOrderElementsOf(
          stored.stream().map(s -> s.segment().id()).toList());
      assertThat(calls).allSatisfy((id, n) -> assertThat(n.get()).as("encodings of %s", id).isEqualTo(1));
      PostgresSegmentClaims claims = new PostgresSegmentClaims(TestPostgres.databaseOf(first.store()));
      assertThat(ids).allSatisfy(id -> assertThat(claims.attempts("ns", id)).isEqualTo(1));
      assertThat(first.store().records("ns")).isNotEmpty();
    }
  }
}
