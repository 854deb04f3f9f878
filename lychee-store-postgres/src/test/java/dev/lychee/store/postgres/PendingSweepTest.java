package dev.lychee.store.postgres;

import static dev.lychee.core.conformance.StoreFixtures.segment;
import static dev.lychee.core.conformance.StoreFixtures.turns;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lychee.api.CloseReason;
import dev.lychee.api.RawTurn;
import dev.lychee.api.Segment;
import dev.lychee.api.SegmentState;
import dev.lychee.api.StoredSegment;
import dev.lychee.core.Lychee;
import dev.lychee.core.LycheeConfig;
import dev.lychee.core.ingest.IngestConfig;
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

/**
 * The background encoder's periodic sweep: segments a dead instance left claimed are skipped at
 * open (the claim is still live past {@code claimWait}) and stay PENDING; the sweep queues them
 * again, and once the dead claim's lease lapses they are taken over and encoded, once, without a
 * restart or an {@code encodePending}.
 */
class PendingSweepTest {

  @Test
  @Timeout(120)
  void segmentsOrphanedByADeadInstanceAreEncodedByTheSweep() throws Exception {
    String url = TestPostgres.get().url();
    PostgresStoreConfig config = PostgresStoreConfig.builder().schema(TestPostgres.freshSchema()).maxPoolSize(3)
        .claimWait(Duration.ofMillis(200)).build();
    List<Segment> orphans = new ArrayList<>();
    try (PostgresRecordStore store = TestPostgres.rawStore(url, config)) {
      PostgresSegmentClaims dead = new PostgresSegmentClaims(store.database());
      Random rnd = new Random(3);
      for (String session : List.of("a", "b")) {
        List<RawTurn> t = turns("ns", session, 0, 2, rnd, "orphan");
        store.appendTurns("ns", session, t);
        Segment seg = segment(t, CloseReason.TARGET_LENGTH);
        assertThat(store.putSegment(seg, SegmentState.PENDING)).isTrue();
        // an instance that claimed it and died: its claim lapses on its own, after the lease
        assertThat(dead.claim(seg, "dead-instance", Duration.ofSeconds(3))).isPresent();
        orphans.add(seg);
      }
    }
    Map<String, AtomicInteger> encodings = new ConcurrentHashMap<>();
    LycheeConfig lychee = LycheeConfig.builder().ingest(IngestConfig.builder()
        .encodeMode(IngestConfig.EncodeMode.ASYNC).claimLease(Duration.ofSeconds(30))
        .sweepPeriod(Duration.ofMillis(300)).build()).build();
    try (Lychee survivor = Lychee.create(lychee, new PostgresStoreModule(url, config), CountingEncoder.module(encodings))) {
      // the open queued both, found them claimed by the dead instance, and skipped them
      assertThat(survivor.awaitIdle("ns", Duration.ofSeconds(30))).isTrue();
      long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
      while (!allEncoded(survivor) && System.nanoTime() < deadline) {
        Thread.sleep(100);
      }
      assertThat(survivor.store().segments("ns")).extracting(StoredSegment::state)
          .containsOnly(SegmentState.ENCODED);
      assertThat(encodings.keySet()).containsExactlyInAnyOrderElementsOf(orphans.stream().map(Segment::id).toList());
      assertThat(encodings).allSatisfy((id, n) -> assertThat(n.get()).as("encodings of %s", id).isEqualTo(1));
      PostgresSegmentClaims claims = new PostgresSegmentClaims(TestPostgres.databaseOf(survivor.store()));
      // the dead instance's attempt and the survivor's take-over
      assertThat(orphans).allSatisfy(s -> assertThat(claims.attempts("ns", s.id())).isEqualTo(2));
    }
  }

  private static boolean allEncoded(Lychee l) {
    return l.store().segments("ns").stream().allMatch(s -> s.state() == SegmentState.ENCODED);
  }
}
