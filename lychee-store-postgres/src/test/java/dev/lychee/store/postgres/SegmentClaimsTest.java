package dev.lychee.store.postgres;

import static dev.lychee.core.conformance.StoreFixtures.record;
import static dev.lychee.core.conformance.StoreFixtures.segment;
import static dev.lychee.core.conformance.StoreFixtures.turns;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lychee.api.CloseReason;
import dev.lychee.api.MemoryRecord;
import dev.lychee.api.RawTurn;
import dev.lychee.api.SegmentState;
import dev.lychee.api.StoredSegment;
import dev.lychee.api.TurnRef;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** PENDING segments as a shared queue: exclusive claims, expiry, fenced commits, a killed holder. */
class SegmentClaimsTest {
  private String schema;
  private PostgresRecordStore store;
  private SegmentClaims claims;

  @BeforeEach
  void open() {
    schema = TestPostgres.freshSchema();
    store = PostgresRecordStore.open(TestPostgres.get().url(),
        PostgresStoreConfig.builder().schema(schema).maxPoolSize(8).build());
    claims = new SegmentClaims(store.database());
  }

  @AfterEach
  void close() {
    store.close();
  }

  private List<String> pending(String ns, int segments) {
    List<String> ids = new ArrayList<>();
    Random rnd = new Random(5);
    for (int s = 0; s < segments; s++) {
      List<RawTurn> t = turns(ns, "s", s * 2, 2, rnd, "x");
      store.appendTurns(ns, "s", t);
      var seg = segment(t, CloseReason.TARGET_LENGTH);
      store.putSegment(seg, SegmentState.PENDING);
      ids.add(seg.id());
    }
    return ids;
  }

  @Test
  @Timeout(60)
  void concurrentClaimersNeverTakeTheSameSegment() throws Exception {
    List<String> ids = pending("ns", 40);
    ConcurrentLinkedQueue<String> taken = new ConcurrentLinkedQueue<>();
    ConcurrentLinkedQueue<Throwable> errors = new ConcurrentLinkedQueue<>();
    CountDownLatch go = new CountDownLatch(1);
    List<Thread> threads = new ArrayList<>();
    for (int w = 0; w < 4; w++) {
      String owner = "worker-" + w;
      threads.add(new Thread(() -> {
        try {
          go.await();
          for (Optional<SegmentClaims.Claim> c = claims.claim(null, owner, Duration.ofMinutes(5)); c.isPresent();
              c = claims.claim(null, owner, Duration.ofMinutes(5))) {
            taken.add(c.get().segmentId());
            assertThat(c.get().attempt()).isEqualTo(1);
            assertThat(claims.commit(c.get(), List.of(), List.of())).isTrue();
          }
        } catch (Throwable t) {
          errors.add(t);
        }
      }));
    }
    threads.forEach(Thread::start);
    go.countDown();
    for (Thread t : threads) {
      t.join(50_000);
    }
    assertThat(errors).isEmpty();
    assertThat(taken).hasSize(ids.size()).doesNotHaveDuplicates().containsExactlyInAnyOrderElementsOf(ids);
    assertThat(store.segments("ns")).allSatisfy(s -> assertThat(s.state()).isEqualTo(SegmentState.ENCODED));
  }

  @Test
  void aLiveClaimExcludesEveryOtherClaimer() {
    String id = pending("ns", 1).get(0);
    SegmentClaims.Claim held = claims.claim("ns", "holder", Duration.ofMinutes(10)).orElseThrow();
    assertThat(held.segmentId()).isEqualTo(id);
    assertThat(claims.claim("ns", "other", Duration.ofMinutes(1))).isEmpty();
    assertThat(claims.claim(null, "other", Duration.ofMinutes(1))).isEmpty();
    assertThat(claims.renew(held, Duration.ofMinutes(10))).isTrue();
    assertThat(claims.claim("ns", "other", Duration.ofMinutes(1))).isEmpty();
  }

  @Test
  void anExpiredClaimIsTakenOverAndTheOldHolderIsFencedOut() throws Exception {
    String id = pending("ns", 1).get(0);
    SegmentClaims.Claim slow = claims.claim("ns", "slow", Duration.ofMillis(300)).orElseThrow();
    assertThat(slow.segmentId()).isEqualTo(id);
    assertThat(claims.claim("other-ns", "fast", Duration.ofMinutes(1))).isEmpty();
    SegmentClaims.Claim fast = awaitClaim("fast");
    assertThat(fast.attempt()).isEqualTo(2);
    assertThat(claims.attempts("ns", id)).isEqualTo(2);

    MemoryRecord late = record("ns", "The slow holder wrote this.", TurnRef.of("s", 0));
    MemoryRecord mine = record("ns", "The new holder wrote this.", TurnRef.of("s", 0));
    assertThat(claims.renew(slow, Duration.ofMinutes(1))).isFalse();
    assertThat(claims.commit(slow, List.of(late), List.of())).isFalse();
    assertThat(claims.commit(fast, List.of(mine), List.of())).isTrue();
    assertThat(claims.commit(fast, List.of(mine), List.of())).as("encoded once").isFalse();
    assertThat(store.records("ns")).extracting(MemoryRecord::text).containsExactly(mine.text());
    assertThat(store.segments("ns")).singleElement().extracting(StoredSegment::state).isEqualTo(SegmentState.ENCODED);
  }

  @Test
  void aReleasedClaimKeepsTheErrorAndCanBeClaimedAgain() {
    pending("ns", 1);
    SegmentClaims.Claim first = claims.claim("ns", "a", Duration.ofMinutes(1)).orElseThrow();
    assertThat(claims.release(first, "encoder timed out")).isTrue();
    assertThat(store.segments("ns")).singleElement().satisfies(s -> {
      assertThat(s.state()).isEqualTo(SegmentState.PENDING);
      assertThat(s.error()).isEqualTo("encoder timed out");
    });
    SegmentClaims.Claim second = claims.claim("ns", "b", Duration.ofMinutes(1)).orElseThrow();
    assertThat(second.attempt()).isEqualTo(2);
    assertThat(claims.release(first, "stale")).isFalse();
    claims.fail("ns", second.segmentId(), "gave up after 2 attempts");
    assertThat(claims.claim("ns", "c", Duration.ofMinutes(1))).isEmpty();
    assertThatThrownBy(() -> claims.claim("ns", " ", Duration.ofMinutes(1))).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> claims.claim("ns", "x", Duration.ZERO)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  @Timeout(120)
  void aKilledHolderLosesItsClaimAfterTheLeaseAndTheSegmentIsEncodedOnce() throws Exception {
    String id = pending("ns", 1).get(0);
    try (ChildJvm child = ChildJvm.start(ClaimChild.class, TestPostgres.get().url(), schema, "ns", "2000")) {
      assertThat(child.await("CLAIMED")).isEqualTo("CLAIMED " + id);
      child.kill();
    }
    SegmentClaims.Claim taken = awaitClaim("survivor");
    assertThat(taken.segmentId()).isEqualTo(id);
    assertThat(taken.attempt()).isEqualTo(2);
    MemoryRecord r = record("ns", "Encoded by the survivor.", TurnRef.of("s", 0));
    assertThat(claims.commit(taken, List.of(r), List.of())).isTrue();
    assertThat(claims.claim("ns", "third", Duration.ofMillis(10))).isEmpty();
    assertThat(store.records("ns")).containsExactly(r);
    assertThat(store.segments("ns")).singleElement().extracting(StoredSegment::state).isEqualTo(SegmentState.ENCODED);
    assertThat(claims.attempts("ns", id)).isEqualTo(2);
  }

  /** Polls until the current holder's lease has passed and this owner takes the segment (bounded). */
  private SegmentClaims.Claim awaitClaim(String owner) throws InterruptedException {
    // the lease runs on the server's clock, so poll the server rather than guess a local sleep
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (System.nanoTime() < deadline) {
      Optional<SegmentClaims.Claim> c = claims.claim("ns", owner, Duration.ofMinutes(1));
      if (c.isPresent()) {
        return c.get();
      }
      Thread.sleep(100);
    }
    throw new AssertionError("the claim never expired");
  }
}
