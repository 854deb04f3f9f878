package dev.lychee.store.lucene;

import dev.lychee.api.RawTurn;
import dev.lychee.api.SegmentState;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * The child process of {@link LuceneWriteAheadLogTest}: appends turns one call at a time and a
 * pending segment every four, with commits deferred by an hour (so only the write-ahead log holds
 * them), reports each write after it returned, then says {@code waiting} and waits to be killed.
 */
public final class LoggedAppendChild {
  static final String NS = "wal";
  static final String SESSION = "s";

  private LoggedAppendChild() {}

  public static void main(String[] args) throws InterruptedException {
    Path dir = Path.of(args[0]);
    int count = Integer.parseInt(args[1]);
    LuceneStoreConfig config = LuceneStoreConfig.builder().deferredCommit(Duration.ofHours(1)).build();
    // never closed: the process dies with the writer open, as on a crash
    LuceneRecordStore store = new LuceneRecordStore(dir, config);
    int first = store.nextTurnIndex(NS, SESSION);
    for (int i = first; i < first + count; i++) {
      store.appendTurns(NS, SESSION, List.of(Fixtures.turn(NS, SESSION, i, "logged turn " + i)));
      System.out.println("turn " + i);
      if ((i + 1) % 4 == 0) {
        List<RawTurn> four = store.turns(NS, SESSION, i - 3, i);
        store.putSegment(Fixtures.segment(four), SegmentState.PENDING);
        System.out.println("segment " + Fixtures.segment(four).id());
      }
    }
    System.out.println("waiting");
    System.out.flush();
    Thread.sleep(Duration.ofMinutes(10).toMillis());
  }
}
