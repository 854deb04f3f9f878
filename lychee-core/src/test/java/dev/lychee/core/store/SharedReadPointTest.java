package dev.lychee.core.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * {@link SharedReadPoint}: one read per point, whichever thread and however many reads ask; only the
 * innermost point of the asking kind, database and namespace answers; the thread is left as it was.
 */
class SharedReadPointTest {
  /** A point whose shared value counts the reads of its database. */
  static final class Counting extends SharedReadPoint<Integer> {
    private final AtomicInteger database;

    Counting(AtomicInteger database, String namespace) {
      super(database, namespace);
      this.database = database;
    }

    @Override
    protected Integer read() {
      return database.incrementAndGet();
    }

    static Integer at(AtomicInteger database, String namespace) {
      return entered(Counting.class, database, namespace);
    }
  }

  /** Another kind of point on the same database. */
  static final class Other extends SharedReadPoint<String> {
    Other(Object database, String namespace) {
      super(database, namespace);
    }

    @Override
    protected String read() {
      return "other";
    }
  }

  /** A point whose read wrongly answers null. */
  static final class Empty extends SharedReadPoint<String> {
    Empty(Object database, String namespace) {
      super(database, namespace);
    }

    @Override
    protected String read() {
      return null;
    }
  }

  @Test
  void everyReadInsideOnePointOnAnyThreadSharesOneValueReadOnce() {
    AtomicInteger db = new AtomicInteger();
    Counting point = new Counting(db, "ns");
    assertThat(Counting.at(db, "ns")).as("outside every point").isNull();
    int[] seen = point.call(() -> {
      int first = Counting.at(db, "ns");
      int again = Counting.at(db, "ns");
      int other = CompletableFuture.supplyAsync(() -> point.call(() -> Counting.at(db, "ns"))).join();
      return new int[] {first, again, other};
    });
    assertThat(seen).containsExactly(1, 1, 1);
    assertThat(db.get()).as("reads of the database").isEqualTo(1);
    assertThat(Counting.at(db, "ns")).as("the thread is left outside").isNull();
    assertThat(new Counting(db, "ns").call(() -> Counting.at(db, "ns"))).as("a new point reads anew").isEqualTo(2);
  }

  @Test
  void aPointThatNoReadAsksReadsNothing() {
    AtomicInteger db = new AtomicInteger();
    assertThat(new Counting(db, "ns").call(() -> "done")).isEqualTo("done");
    assertThat(db.get()).isZero();
  }

  @Test
  void onlyTheInnermostPointOfTheSameKindDatabaseAndNamespaceAnswers() {
    AtomicInteger db = new AtomicInteger(10);
    AtomicInteger elsewhere = new AtomicInteger(20);
    Counting outer = new Counting(db, "ns");
    outer.call(() -> {
      assertThat(Counting.at(db, "ns")).isEqualTo(11);
      assertThat(Counting.at(db, "another")).as("another namespace").isNull();
      assertThat(Counting.at(elsewhere, "ns")).as("another database").isNull();
      assertThat(new Counting(db, "ns").call(() -> Counting.at(db, "ns"))).as("the inner point").isEqualTo(12);
      assertThat(new Other(db, "ns").call(() -> Counting.at(db, "ns"))).as("inside another kind").isNull();
      assertThat(Counting.at(db, "ns")).as("the outer point again, not read anew").isEqualTo(11);
      return null;
    });
  }

  @Test
  void aThrowingReadLeavesTheThreadOutsideAndNullsAreRefused() {
    AtomicInteger db = new AtomicInteger();
    Counting point = new Counting(db, "ns");
    assertThatThrownBy(() -> point.call(() -> {
      throw new IllegalStateException("boom");
    })).hasMessage("boom");
    assertThat(Counting.at(db, "ns")).isNull();
    assertThatThrownBy(() -> point.call(null)).isInstanceOf(NullPointerException.class);
    Empty empty = new Empty(db, "ns");
    assertThatThrownBy(() -> empty.call(() -> SharedReadPoint.entered(Empty.class, db, "ns")))
        .isInstanceOf(NullPointerException.class).hasMessageContaining("shared value");
  }
}
