package dev.lychee.store.postgres;

import static dev.lychee.core.conformance.StoreFixtures.record;
import static dev.lychee.core.conformance.StoreFixtures.segment;
import static dev.lychee.core.conformance.StoreFixtures.turns;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lychee.api.CloseReason;
import dev.lychee.api.MemoryRecord;
import dev.lychee.api.RawTurn;
import dev.lychee.api.Segment;
import dev.lychee.api.SegmentClaim;
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
  private PostgresSegmentClaims claims;

  @BeforeEach
  void open() {
    schema = TestPostgres.freshSchema();
    store = TestPostgres.rawStore(TestPostgres.get().url(),
        PostgresStoreConfig.builder().schema(schema).maxPoolSize(8).claimWait(Duration.ZERO).build());
    claims = new PostgresSegmentClaims(store.database());
  }

  @AfterEach
  void close() {
    store.close();
  }

  /** {@code segments} PENDING segments of two turns each, all in session "s". */
  private List<Segment> pending(String ns, int segments) {
    return pending(ns, "s", segments);
  }

  private List<Segment> pending(String ns, String session, int segments) {
    List<Segment> out = new ArrayList<>();
    Random rnd = new Random(5);
    for (int s = 0; s < segments; s++) {
      List<RawTurn> t = turns(ns, session, s * 2, 2, rnd, "x");
      store.appendTurns(ns, session, t);
      Segment seg = segment(t, CloseReason.TARGET_LENGTH);
      store.putSegment(seg, SegmentState.PENDING);
      out.add(seg);
    }
    return out;
  }

  private static List<String> ids(List<Segment> segments) {
    return segments.stream().map(Segment::id).toList();
  }

  @Test
  @Timeout(60)
  void concurrentClaimersNeverTakeTheSameSegmentAndKeepSessionOrder() throws Exception {
    List<String> ids = new ArrayList<>();
    for (int session = 0; session < 8; session++) {
      ids.addAll(ids(pending("ns", "s" + session, 5)));
    }
    ConcurrentLinkedQueue<SegmentClaim> taken = new ConcurrentLinkedQueue<>();
    ConcurrentLinkedQueue<Throwable> errors = new ConcurrentLinkedQueue<>();
    CountDownLatch go = new CountDownLatch(1);
    List<Thread> threads = new ArrayList<>();
    for (int w = 0; w < 4; w++) {
      String owner = "worker-" + w;
      threads.add(new Thread(() -> {
        try {
          go.await();
          // empty while others hold every claimable session: keep going until nothing is pending
          while (store.segments("ns").stream().anyMatch(s -> s.state() != SegmentState.ENCODED)) {
            Optional<SegmentClaim> c = claims.claimNext(null, owner, Duration.ofMinutes(5));
            if (c.isEmpty()) {
              Thread.onSpinWait();
              continue;
            }
            String session = c.get().segment().session();
            // session order: every earlier segment of the session is encoded already
            for (StoredSegment s : store.segments("ns")) {
              if (s.segment().session().equals(session) && s.segment().firstIndex() < c.get().segment().firstIndex()) {
                assertThat(s.state()).isEqualTo(SegmentState.ENCODED);
              }
            }
            taken.add(c.get());
            assertThat(c.get().attempts()).isZero();
            assertThat(claims.commitClaimed(c.get(), List.of(), List.of())).isTrue();
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
    assertThat(taken).extracting(SegmentClaim::segmentId)
        .hasSize(ids.size()).doesNotHaveDuplicates().containsExactlyInAnyOrderElementsOf(ids);
    assertThat(store.segments("ns")).allSatisfy(s -> assertThat(s.state()).isEqualTo(SegmentState.ENCODED));
  }

  @Test
  void aLiveClaimExcludesEveryOtherClaimerOfItsSession() {
    List<Segment> segs = pending("ns", 2);
    Segment elsewhere = pending("other-ns", "s", 1).get(0);
    SegmentClaim held = claims.claimNext("ns", "holder", Duration.ofMinutes(10)).orElseThrow();
    assertThat(held.segmentId()).as("the session's earliest first").isEqualTo(segs.get(0).id());
    assertThat(claims.claim(segs.get(0), "other", Duration.ofMinutes(1))).isEmpty();
    assertThat(claims.claim(segs.get(1), "other", Duration.ofMinutes(1))).as("later segment, same session").isEmpty();
    assertThat(claims.claimNext("ns", "other", Duration.ofMinutes(1))).isEmpty();
    assertThat(claims.renew(held, Duration.ofMinutes(10))).isTrue();
    assertThat(claims.claimNext(null, "other", Duration.ofMinutes(1))).as("only the other namespace is free").get()
        .extracting(SegmentClaim::segment).isEqualTo(elsewhere);
    assertThat(claims.claim(segs.get(0), "holder", Duration.ofMinutes(10))).as("the holder renews").isPresent();
    assertThat(claims.attempts("ns", segs.get(0).id())).isEqualTo(1);
    assertThat(claims.commitClaimed(held, List.of(), List.of())).isTrue();
    assertThat(claims.claimNext("ns", "other", Duration.ofMinutes(1))).get()
        .extracting(SegmentClaim::segmentId).isEqualTo(segs.get(1).id());
  }

  @Test
  @Timeout(30)
  void claimingASegmentWaitsForTheEarlierClaimInItsSession() throws Exception {
    List<Segment> segs = pending("ns", 2);
    PostgresDatabase db = PostgresDatabase.open(TestPostgres.get().url(),
        PostgresStoreConfig.builder().schema(schema).maxPoolSize(2).claimWait(Duration.ofSeconds(20)).build());
    db.acquire();
    try {
      claimAfterTheEarlierOne(segs, new PostgresSegmentClaims(db));
    } finally {
      db.release();
    }
  }

  private void claimAfterTheEarlierOne(List<Segment> segs, PostgresSegmentClaims waiting) throws Exception {
    SegmentClaim first = claims.claim(segs.get(0), "a", Duration.ofMinutes(5)).orElseThrow();
    CountDownLatch started = new CountDownLatch(1);
    var second = java.util.concurrent.CompletableFuture.supplyAsync(() -> {
      started.countDown();
      return waiting.claim(segs.get(1), "b", Duration.ofMinutes(5));
    });
    started.await();
    assertThat(second).isNotDone();
    assertThat(claims.commitClaimed(first, List.of(), List.of())).isTrue();
    assertThat(second.get(20, java.util.concurrent.TimeUnit.SECONDS)).get()
        .extracting(SegmentClaim::owner).isEqualTo("b");
  }

  @Test
  void anExpiredClaimIsTakenOverAndTheOldHolderIsFencedOut() throws Exception {
    String id = pending("ns", 1).get(0).id();
    SegmentClaim slow = claims.claimNext("ns", "slow", Duration.ofMillis(300)).orElseThrow();
    assertThat(slow.segmentId()).isEqualTo(id);
    assertThat(claims.claimNext("other-ns", "fast", Duration.ofMinutes(1))).isEmpty();
    SegmentClaim fast = awaitClaim("fast");
    assertThat(fast.attempts()).isEqualTo(1);
    assertThat(claims.attempts("ns", id)).isEqualTo(2);

    MemoryRecord late = record("ns", "The slow holder wrote this.", TurnRef.of("s", 0));
    MemoryRecord mine = record("ns", "The new holder wrote this.", TurnRef.of("s", 0));
    assertThat(claims.renew(slow, Duration.ofMinutes(1))).isFalse();
    assertThat(claims.commitClaimed(slow, List.of(late), List.of())).isFalse();
    assertThat(claims.complete(slow)).as("another owner holds it").isFalse();
    assertThat(claims.commitClaimed(fast, List.of(mine), List.of())).isTrue();
    assertThat(claims.commitClaimed(fast, List.of(mine), List.of())).as("encoded once").isFalse();
    assertThat(store.records("ns")).extracting(MemoryRecord::text).containsExactly(mine.text());
    assertThat(store.segments("ns")).singleElement().extracting(StoredSegment::state).isEqualTo(SegmentState.ENCODED);
  }

  @Test
  void aReleasedClaimKeepsTheErrorAndCanBeClaimedAgain() {
    Segment seg = pending("ns", 1).get(0);
    SegmentClaim first = claims.claim(seg, "a", Duration.ofMinutes(1)).orElseThrow();
    claims.release(first, "encoder timed out");
    assertThat(store.segments("ns")).singleElement().satisfies(s -> {
      assertThat(s.state()).isEqualTo(SegmentState.PENDING);
      assertThat(s.error()).isEqualTo("encoder timed out");
    });
    SegmentClaim second = claims.claimNext("ns", "b", Duration.ofMinutes(1)).orElseThrow();
    assertThat(second.attempts()).isEqualTo(1);
    claims.release(first, "stale");
    assertThat(store.segments("ns")).singleElement().extracting(StoredSegment::error).isEqualTo("encoder timed out");
    assertThat(claims.claimNext("ns", "c", Duration.ofMinutes(1))).as("b still holds it").isEmpty();
    claims.release(second, "failed again");
    store.setSegmentState("ns", seg.id(), SegmentState.FAILED, "gave up");
    assertThat(claims.claim(seg, "c", Duration.ofMinutes(1))).as("FAILED is retried on request").get()
        .extracting(SegmentClaim::attempts).isEqualTo(2);
    assertThatThrownBy(() -> claims.claimNext("ns", " ", Duration.ofMinutes(1))).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> claims.claimNext("ns", "x", Duration.ZERO)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  @Timeout(120)
  void aKilledHolderLosesItsClaimAfterTheLeaseAndTheSegmentIsEncodedOnce() throws Exception {
    String id = pending("ns", 1).get(0).id();
    try (ChildJvm child = ChildJvm.start(ClaimChild.class, TestPostgres.get().url(), schema, "ns", "2000")) {
      assertThat(child.await("CLAIMED")).isEqualTo("CLAIMED " + id);
      child.kill();
    }
    SegmentClaim taken = awaitClaim("survivor");
    assertThat(taken.segmentId()).isEqualTo(id);
    assertThat(taken.attempts()).as("the dead holder's claim counts").isEqualTo(1);
    MemoryRecord r = record("ns", "Encoded by the survivor.", TurnRef.of("s", 0));
    assertThat(claims.commitClaimed(taken, List.of(r), List.of())).isTrue();
    assertThat(claims.claimNext("ns", "third", Duration.ofMillis(10))).isEmpty();
    assertThat(store.records("ns")).containsExactly(r);
    assertThat(store.segments("ns")).singleElement().extracting(StoredSegment::state).isEqualTo(SegmentState.ENCODED);
    assertThat(claims.attempts("ns", id)).isEqualTo(2);
  }

  /** Polls until the current holder's lease has passed and this owner takes the segment (bounded). */
  private SegmentClaim awaitClaim(String owner) throws InterruptedException {
    // the lease runs on the server's clock, so poll the server rather than guess a local sleep
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (System.nanoTime() < deadline) {
      Optional<SegmentClaim> c = claims.claimNext("ns", owner, Duration.ofMinutes(1));
      if (c.isPresent()) {
        return c.get();
      }
      Thread.sleep(100);
    }
    throw new AssertionError("the claim never expired");
  }
}
