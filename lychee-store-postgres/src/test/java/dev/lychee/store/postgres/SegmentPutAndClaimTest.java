package dev.lychee.store.postgres;

import static dev.lychee.core.conformance.StoreFixtures.segment;
import static dev.lychee.core.conformance.StoreFixtures.turns;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lychee.api.CloseReason;
import dev.lychee.api.RawTurn;
import dev.lychee.api.Segment;
import dev.lychee.api.SegmentClaim;
import dev.lychee.api.SegmentState;
import dev.lychee.api.StoredSegment;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The segment put and the claim, which the encoder sends for every segment (round twenty): one
 * statement each, the claim's commit not waiting for the WAL flush, and each still deciding under
 * its lock on what the lock's previous holder committed.
 */
class SegmentPutAndClaimTest {
  private static final Duration LEASE = Duration.ofMinutes(5);

  private String schema;
  private CountingDataSource counting;
  private PostgresDatabase db;
  private PostgresRecordStore store;
  private PostgresSegmentClaims claims;

  @BeforeEach
  void open() {
    schema = TestPostgres.freshSchema();
    counting = new CountingDataSource(TestPostgres.get().url());
    db = PostgresDatabase.open(counting, PostgresStoreConfig.builder().maxPoolSize(2).schema(schema)
        .claimWait(Duration.ZERO).build());
    store = new PostgresRecordStore(db);
    claims = new PostgresSegmentClaims(db);
  }

  @AfterEach
  void close() {
    store.close();
  }

  /** Turns {@code from} to {@code to} (exclusive) of {@code t} as one segment. */
  private static Segment of(List<RawTurn> t, int from, int to) {
    return segment(t.subList(from, to), CloseReason.TARGET_LENGTH);
  }

  /** Two PENDING segments of two turns each in session "s". */
  private List<Segment> twoPending() {
    List<RawTurn> t = stored("s", 0, 4);
    List<Segment> out = List.of(of(t, 0, 2), of(t, 2, 4));
    out.forEach(s -> store.putSegment(s, SegmentState.PENDING));
    return out;
  }

  private List<RawTurn> stored(String session, int from, int n) {
    List<RawTurn> t = turns("ns", session, from, n, new Random(from), "x");
    store.appendTurns("ns", session, t);
    return t;
  }

  /**
   * A put is one statement, committed synced as before (before: the session lock, the overlap read,
   * the insert and a {@code COMMIT}, 4 round trips); a segment whose range meets a stored one's
   * without sharing a turn is still stored, and one sharing a turn is refused.
   */
  @Test
  void aSegmentPutIsOneStatement() {
    List<RawTurn> t = stored("s", 0, 6);
    counting.drain();
    assertThat(store.putSegment(of(t, 0, 2), SegmentState.PENDING)).isTrue();
    List<String> sent = counting.drain();
    assertThat(sent).as("statements sent: %s", sent).hasSize(1).noneMatch("COMMIT"::equals);
    assertThat(sent.get(0)).doesNotContain("synchronous_commit");

    // turns 2 and 4 as one segment, then turn 3 alone: the ranges meet, no turn is shared
    assertThat(store.putSegment(segment(List.of(t.get(2), t.get(4)), CloseReason.TARGET_LENGTH),
        SegmentState.PENDING)).isTrue();
    assertThat(store.putSegment(segment(List.of(t.get(3)), CloseReason.TARGET_LENGTH), SegmentState.PENDING)).isTrue();
    assertThat(store.putSegment(of(t, 4, 6), SegmentState.PENDING)).isFalse();
    assertThat(store.segments("ns")).extracting(s -> s.segment().firstIndex()).containsExactly(0, 2, 3);
    assertThat(store.segmentedThrough("ns", "s")).isEqualTo(4);
  }

  /** A put in a session without turns leaves no session row behind, as the transaction did. */
  @Test
  void aPutInASessionWithoutTurnsLeavesNoSessionRow() {
    List<RawTurn> t = turns("ns", "empty", 0, 2, new Random(3), "x");
    assertThat(store.putSegment(segment(t, CloseReason.TARGET_LENGTH), SegmentState.PENDING)).isTrue();
    int rows = db.read(h -> h.createQuery("SELECT COUNT(*) FROM sessions WHERE session = 'empty'")
        .mapTo(Integer.class).one());
    assertThat(rows).isZero();
    assertThat(store.segments("ns")).hasSize(1);
  }

  /**
   * A claim is one statement that skips the flush wait for its own transaction only (before: the
   * advisory lock, the busy check, the claim and a synced {@code COMMIT}); the claim holds, a renewal
   * by its owner is no new attempt, and another owner is refused while it is live.
   */
  @Test
  void aClaimIsOneStatementThatSkipsTheFlushWait() {
    List<Segment> both = twoPending();
    Segment first = both.get(0);
    Segment second = both.get(1);
    counting.drain();
    Optional<SegmentClaim> c = claims.claim(first, "a", LEASE);
    List<String> sent = counting.drain();
    assertThat(sent).as("statements sent: %s", sent).hasSize(1).noneMatch("COMMIT"::equals);
    assertThat(sent.get(0)).contains("set_config('synchronous_commit', 'off', true)");
    assertThat(sent).noneMatch(sql -> sql.toUpperCase(Locale.ROOT).startsWith("SET"));
    String mode = db.read(h -> h.createQuery("SHOW synchronous_commit").mapTo(String.class).one());
    assertThat(mode).isEqualTo("on");

    assertThat(c).isPresent();
    assertThat(c.get().attempts()).isZero();
    assertThat(claims.claim(first, "a", LEASE)).get().extracting(SegmentClaim::attempts).isEqualTo(0);
    assertThat(claims.attempts("ns", first.id())).isEqualTo(1);
    assertThat(claims.claim(second, "b", LEASE)).isEmpty();
    assertThat(claims.claimNext("ns", "b", LEASE)).isEmpty();
    assertThat(claims.commitClaimed(c.get(), List.of(), List.of())).isTrue();
    counting.drain();
    Optional<SegmentClaim> next = claims.claimNext("ns", "b", LEASE);
    assertThat(next).get().extracting(SegmentClaim::segmentId).isEqualTo(second.id());
    // the candidates' read, then one statement for the claim
    assertThat(counting.drain()).hasSize(2).noneMatch("COMMIT"::equals);
  }

  /**
   * A put that waits for the session's row lock decides on what the lock's holder committed: a
   * single statement's snapshot, taken before the wait, would miss the holder's segment and store
   * an overlapping one; the function's reads take theirs after the lock.
   */
  @Test
  @Timeout(60)
  void aPutWaitingForTheSessionLockSeesWhatItsHolderCommitted() throws Exception {
    List<RawTurn> t = stored("s", 0, 4);
    Segment held = of(t, 0, 2);
    try (Connection other = connection()) {
      other.setAutoCommit(false);
      try (Statement st = other.createStatement()) {
        st.execute("UPDATE sessions SET next_idx = next_idx WHERE namespace = 'ns' AND session = 's'");
      }
      CompletableFuture<Boolean> put = waitingFor(other, () -> store.putSegment(of(t, 1, 3), SegmentState.PENDING));
      // the holder stores an overlapping segment and commits while the put waits
      insertAsHolder(other, held);
      other.commit();
      assertThat(put.get(30, TimeUnit.SECONDS)).isFalse();
    }
    assertThat(store.segments("ns")).extracting(StoredSegment::segment).extracting(Segment::id)
        .containsExactly(held.id());
  }

  /**
   * A claim that waits for the session's advisory lock decides on what the lock's holder committed:
   * the holder's claim on another segment of the session, committed while this one waited, makes
   * the session busy.
   */
  @Test
  @Timeout(60)
  void aClaimWaitingForTheSessionLockSeesTheClaimItsHolderCommitted() throws Exception {
    List<Segment> both = twoPending();
    Segment first = both.get(0);
    Segment second = both.get(1);
    try (Connection other = connection()) {
      other.setAutoCommit(false);
      try (PreparedStatement ps = other.prepareStatement("SELECT pg_advisory_xact_lock(?, ?)")) {
        ps.setInt(1, 0x4c796368);
        ps.setInt(2, dev.lychee.api.spi.CompositeKey.of("ns", "s").hashCode());
        ps.execute();
      }
      CompletableFuture<Boolean> claim = waitingFor(other, () -> claims.claim(second, "late", LEASE).isPresent());
      try (PreparedStatement ps = other.prepareStatement("UPDATE segments SET claimed_by = 'holder',"
          + " claim_expires = now() + interval '5 minutes', attempts = attempts + 1 WHERE namespace = 'ns' AND id = ?")) {
        ps.setString(1, first.id());
        ps.execute();
      }
      other.commit();
      assertThat(claim.get(30, TimeUnit.SECONDS)).isFalse();
    }
    assertThat(claims.attempts("ns", second.id())).isZero();
  }

  private void insertAsHolder(Connection other, Segment s) throws Exception {
    try (PreparedStatement ps = other.prepareStatement("SELECT segment_put(?, ?, ?, ?, ?, 'PENDING', 1, 10,"
        + " 'TARGET_LENGTH', NULL, NULL, ?)")) {
      ps.setString(1, s.namespace());
      ps.setString(2, s.session());
      ps.setString(3, s.id());
      ps.setInt(4, s.firstIndex());
      ps.setInt(5, s.lastIndex());
      ps.setString(6, dev.lychee.core.store.JsonColumns.segmentTurns(s.turns()));
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        assertThat(rs.getBoolean(1)).isTrue();
      }
    }
  }

  private Connection connection() throws Exception {
    Connection c = DriverManager.getConnection(TestPostgres.get().url());
    c.setSchema(schema);
    return c;
  }

  /**
   * Runs {@code call} on another thread and returns once the server shows it waiting for a lock
   * that {@code holder}'s transaction holds.
   */
  private static <T> CompletableFuture<T> waitingFor(Connection holder, Supplier<T> call) throws Exception {
    int pid;
    try (Statement st = holder.createStatement(); ResultSet rs = st.executeQuery("SELECT pg_backend_pid()")) {
      rs.next();
      pid = rs.getInt(1);
    }
    CompletableFuture<T> out = CompletableFuture.supplyAsync(call);
    List<Integer> blocked = new ArrayList<>();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    try (Connection watch = DriverManager.getConnection(TestPostgres.get().url());
        PreparedStatement ps = watch.prepareStatement("SELECT pid FROM pg_stat_activity WHERE ? = ANY(pg_blocking_pids(pid))")) {
      ps.setInt(1, pid);
      while (blocked.isEmpty() && System.nanoTime() < deadline && !out.isDone()) {
        try (ResultSet rs = ps.executeQuery()) {
          while (rs.next()) {
            blocked.add(rs.getInt(1));
          }
        }
        Thread.sleep(20);
      }
    }
    assertThat(blocked).as("a backend waiting for the holder's lock").isNotEmpty();
    return out;
  }
}
