package dev.lychee.store.lucene;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lychee.api.EvidenceNode;
import dev.lychee.api.MemoryRecord;
import dev.lychee.api.RawTurn;
import dev.lychee.api.SegmentState;
import dev.lychee.api.StoredSegment;
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.store.FSDirectory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Turns and pending segments are durable through the record store's write-ahead log before any
 * Lucene commit holds them: a process that dies with them only in the log has them back after a
 * reopen, exactly once; a torn tail is dropped with a warning; entries a commit already holds
 * change nothing when replayed.
 */
class LuceneWriteAheadLogTest {
  @TempDir Path dir;

  private static final String NS = "wal";
  private static final String S = "s";

  /** Commits are deferred by an hour, so within a test only the log (or a close) makes writes durable. */
  private static final LuceneStoreConfig LOGGED = LuceneStoreConfig.builder().deferredCommit(Duration.ofHours(1)).build();

  /** Turn documents in the last commit on disk, as a process opening the directory now would see them. */
  private static int committedTurns(Path index) throws IOException {
    try (FSDirectory fs = FSDirectory.open(index); DirectoryReader r = DirectoryReader.open(fs)) {
      return new IndexSearcher(r).count(new TermQuery(new Term(StoreFields.DOC, StoreFields.KIND_TURN)));
    }
  }

  @Test
  void turnsAndSegmentsOfAKilledProcessComeBackFromTheLogExactlyOnce() throws Exception {
    Path index = dir.resolve("killed");
    List<String> first = runChildAndKill(index, 10);
    assertThat(first).contains("turn 9", "segment s:4-7", "waiting");
    // no commit holds them: only the log does
    assertThat(committedTurns(index)).isZero();
    List<String> second = runChildAndKill(index, 5);
    assertThat(second).contains("turn 14", "segment s:8-11", "waiting");
    assertThat(committedTurns(index)).as("the second child's open committed what it replayed").isEqualTo(10);
    try (LuceneRecordStore store = new LuceneRecordStore(index, LOGGED)) {
      assertThat(store.turns(NS, S)).extracting(RawTurn::index)
          .containsExactlyElementsOf(IntStream.range(0, 15).boxed().toList());
      assertThat(store.turns(NS, S)).extracting(RawTurn::text).contains("logged turn 0", "logged turn 14");
      assertThat(store.countTurns(NS)).isEqualTo(15);
      assertThat(store.sessions(NS)).containsExactly(S);
      assertThat(store.segments(NS)).extracting(s -> s.segment().id()).containsExactly("s:0-3", "s:4-7", "s:8-11");
      assertThat(store.segments(NS)).extracting(StoredSegment::state).containsOnly(SegmentState.PENDING);
      assertThat(store.nextTurnIndex(NS, S)).isEqualTo(15);
    }
    assertThat(committedTurns(index)).isEqualTo(15);
  }

  @Test
  void writesOnlyInTheLogAreReadableAtOnceAndSurviveACopyOfTheDiskWithoutACommit() throws IOException {
    Path live = dir.resolve("live");
    Path crashed = dir.resolve("crashed");
    try (LuceneRecordStore store = new LuceneRecordStore(live, LOGGED)) {
      List<RawTurn> turns = Fixtures.turns(NS, S, 0, 4);
      assertThat(store.appendTurns(NS, S, turns)).hasSize(4);
      assertThat(store.putSegment(Fixtures.segment(turns), SegmentState.PENDING)).isTrue();
      assertThat(store.turns(NS, S)).hasSize(4);
      assertThat(store.segments(NS)).hasSize(1);
      assertThat(committedTurns(live)).isZero();
      // what the disk holds at this moment, as if the process died now (without its lock file)
      copy(live, crashed);
    }
    try (LuceneRecordStore store = new LuceneRecordStore(crashed, LOGGED)) {
      assertThat(store.turns(NS, S)).containsExactlyElementsOf(Fixtures.turns(NS, S, 0, 4));
      assertThat(store.segments(NS)).extracting(s -> s.segment().id()).containsExactly("s:0-3");
      assertThat(store.appendTurns(NS, S, Fixtures.turns(NS, S, 0, 5))).extracting(RawTurn::index).containsExactly(4);
    }
  }

  @Test
  void aTornTailIsDroppedWithAWarningAndLaterEntriesFollowTheWholeOnes() throws IOException {
    Path live = dir.resolve("live");
    Path crashed = dir.resolve("crashed");
    try (LuceneRecordStore store = new LuceneRecordStore(live, LOGGED)) {
      store.appendTurns(NS, S, Fixtures.turns(NS, S, 0, 2));
      long whole = Files.size(live.resolve(WriteAheadLog.FILE_NAMES.get(0)));
      store.appendTurns(NS, S, Fixtures.turns(NS, S, 2, 1));
      copy(live, crashed);
      // the process died half-way through writing the second entry
      Path log = crashed.resolve(WriteAheadLog.FILE_NAMES.get(0));
      long full = Files.size(log);
      try (var ch = java.nio.channels.FileChannel.open(log, java.nio.file.StandardOpenOption.WRITE)) {
        ch.truncate(whole + (full - whole) / 2);
      }
    }
    String warnings = stderrOf(() -> {
      try (LuceneRecordStore store = new LuceneRecordStore(crashed, LOGGED)) {
        assertThat(store.turns(NS, S)).extracting(RawTurn::index).containsExactly(0, 1);
        store.appendTurns(NS, S, Fixtures.turns(NS, S, 2, 2));
        // only in the log again: the dropped tail must not hide it
        copy(crashed, dir.resolve("again"));
      }
    });
    assertThat(warnings).contains("write-ahead log").contains("dropped a torn tail of");
    try (LuceneRecordStore store = new LuceneRecordStore(dir.resolve("again"), LOGGED)) {
      assertThat(store.turns(NS, S)).extracting(RawTurn::index).containsExactly(0, 1, 2, 3);
    }
  }

  @Test
  void garbageAfterTheLastWholeEntryIsDroppedToo() throws IOException {
    Path live = dir.resolve("live");
    Path crashed = dir.resolve("crashed");
    try (LuceneRecordStore store = new LuceneRecordStore(live, LOGGED)) {
      store.appendTurns(NS, S, Fixtures.turns(NS, S, 0, 3));
      copy(live, crashed);
    }
    Files.write(crashed.resolve(WriteAheadLog.FILE_NAMES.get(0)), new byte[] {'L', 'W', 'A', 'L', 0, 0, 0, 9, 1, 2},
        java.nio.file.StandardOpenOption.APPEND);
    try (LuceneRecordStore store = new LuceneRecordStore(crashed, LOGGED)) {
      assertThat(store.turns(NS, S)).extracting(RawTurn::index).containsExactly(0, 1, 2);
    }
  }

  @Test
  void entriesACommitAlreadyHoldsChangeNothingWhenReplayed() throws IOException {
    Path index = dir.resolve("index");
    byte[] logged;
    try (LuceneRecordStore store = new LuceneRecordStore(index, LOGGED)) {
      List<RawTurn> turns = Fixtures.turns(NS, S, 0, 4);
      store.appendTurns(NS, S, turns.subList(0, 2));
      store.appendTurns(NS, S, turns.subList(2, 4));
      store.putSegment(Fixtures.segment(turns), SegmentState.PENDING);
      logged = Files.readAllBytes(index.resolve(WriteAheadLog.FILE_NAMES.get(0)));
    }
    // the close committed them and emptied the log
    assertThat(logBytes(index)).isZero();
    assertThat(committedTurns(index)).isEqualTo(4);
    // the worst case: a commit holding the entries' changes but recording none of them, and the
    // log still full (a commit may hold more than it records; replay must then change nothing)
    try (FSDirectory fs = FSDirectory.open(index);
        IndexWriter w = new IndexWriter(fs, new IndexWriterConfig().setOpenMode(IndexWriterConfig.OpenMode.APPEND))) {
      w.setLiveCommitData(Map.of(LuceneIndex.LOG_LSN, "0").entrySet());
      w.commit();
    }
    Files.write(index.resolve(WriteAheadLog.FILE_NAMES.get(0)), logged);
    try (LuceneRecordStore store = new LuceneRecordStore(index, LOGGED)) {
      assertThat(store.turns(NS, S)).extracting(RawTurn::index).containsExactly(0, 1, 2, 3);
      assertThat(store.countTurns(NS)).isEqualTo(4);
      assertThat(store.sessions(NS)).containsExactly(S);
      assertThat(store.segments(NS)).hasSize(1);
    }
    assertThat(committedTurns(index)).isEqualTo(4);
    // and entries a commit records as held are skipped outright: the same log again
    Files.write(index.resolve(WriteAheadLog.FILE_NAMES.get(0)), logged);
    try (LuceneRecordStore store = new LuceneRecordStore(index, LOGGED)) {
      assertThat(store.countTurns(NS)).isEqualTo(4);
      assertThat(store.segments(NS)).hasSize(1);
    }
  }

  @Test
  void anotherWriteCommitsTheLoggedOnesAndEmptiesTheLog() throws IOException {
    Path index = dir.resolve("index");
    try (LuceneRecordStore store = new LuceneRecordStore(index, LOGGED)) {
      List<RawTurn> turns = Fixtures.turns(NS, S, 0, 4);
      store.appendTurns(NS, S, turns);
      store.putSegment(Fixtures.segment(turns), SegmentState.PENDING);
      assertThat(logBytes(index)).isPositive();
      // a durable write: the encoding is logged too (round nineteen), a state change commits
      store.setSegmentState(NS, Fixtures.segment(turns).id(), SegmentState.FAILED, "encoder down");
      assertThat(committedTurns(index)).isEqualTo(4);
      assertThat(logBytes(index)).isZero();
      // a repeated append is a no-op and logs nothing
      assertThat(store.appendTurns(NS, S, turns)).isEmpty();
      assertThat(logBytes(index)).isZero();
    }
  }

  @Test
  void anEncodingOnlyInTheLogComesBackWholeAndLaterValuesStillComeAfterIt() throws IOException {
    Path live = dir.resolve("live");
    Path crashed = dir.resolve("crashed");
    List<RawTurn> turns = Fixtures.turns(NS, S, 0, 4);
    String segment = Fixtures.segment(turns).id();
    MemoryRecord first = Fixtures.record(NS, S, "Nadia sings in a choir", 0);
    MemoryRecord second = Fixtures.record(NS, S, "Nadia rehearses on Sundays", 2);
    EvidenceNode node = Fixtures.entityNode(NS, "nadia", S, first.id(), second.id());
    try (LuceneRecordStore store = new LuceneRecordStore(live, LOGGED)) {
      store.appendTurns(NS, S, turns);
      store.putSegment(Fixtures.segment(turns), SegmentState.PENDING);
      long before = logBytes(live);
      store.commitEncoding(NS, segment, List.of(first, second), List.of(node));
      assertThat(logBytes(live)).as("one more entry, no commit").isGreaterThan(before);
      assertThat(committedTurns(live)).isZero();
      copy(live, crashed);
    }
    try (LuceneRecordStore store = new LuceneRecordStore(crashed, LOGGED)) {
      assertThat(store.segments(NS)).extracting(StoredSegment::state).containsExactly(SegmentState.ENCODED);
      assertThat(store.records(NS)).containsExactly(first, second);
      assertThat(store.nodes(NS, List.of(node.id()))).containsExactly(node);
      assertThat(store.searchText(NS, dev.lychee.api.spi.TextField.RECORDS, "sings", 5))
          .extracting(dev.lychee.api.ScoredId::id).containsExactly(first.id());
      // the sequence moved past the replayed values: a new record is listed after them
      MemoryRecord third = Fixtures.record(NS, S, "Nadia moved to Lyon", 3);
      List<RawTurn> more = Fixtures.turns(NS, S, 4, 4);
      store.appendTurns(NS, S, more);
      store.putSegment(Fixtures.segment(more), SegmentState.PENDING);
      store.commitEncoding(NS, Fixtures.segment(more).id(), List.of(third), List.of());
      assertThat(store.records(NS)).containsExactly(first, second, third);
    }
  }

  @Test
  void aScheduledCommitTakesLoggedWritesToTheIndex() throws Exception {
    Path index = dir.resolve("index");
    LuceneStoreConfig soon = LuceneStoreConfig.builder().deferredCommit(Duration.ofMillis(20)).build();
    try (LuceneRecordStore store = new LuceneRecordStore(index, soon)) {
      store.appendTurns(NS, S, Fixtures.turns(NS, S, 0, 3));
      long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
      while (committedTurns(index) < 3 && System.nanoTime() < deadline) {
        Thread.sleep(10);
      }
      assertThat(committedTurns(index)).isEqualTo(3);
    }
  }

  @Test
  void withoutTheLogEachAppendIsCommitted() throws IOException {
    Path index = dir.resolve("index");
    LuceneStoreConfig off = LOGGED.toBuilder().writeAheadLog(false).build();
    try (LuceneRecordStore store = new LuceneRecordStore(index, off)) {
      store.appendTurns(NS, S, Fixtures.turns(NS, S, 0, 2));
      assertThat(committedTurns(index)).isEqualTo(2);
      assertThat(logBytes(index)).isZero();
    }
    assertThat(LuceneStoreConfig.defaults().writeAheadLog()).isTrue();
  }

  /** Starts a {@link LoggedAppendChild}, waits until it has written everything, kills it. */
  private static List<String> runChildAndKill(Path index, int count) throws Exception {
    Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", System.getProperty("java.class.path"), "-Xmx256m", LoggedAppendChild.class.getName(),
        index.toString(), Integer.toString(count))
        .redirectError(ProcessBuilder.Redirect.INHERIT)
        .start();
    List<String> lines = new CopyOnWriteArrayList<>();
    Thread reader = new Thread(() -> {
      try (BufferedReader in = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
        String line;
        while ((line = in.readLine()) != null) {
          lines.add(line);
        }
      } catch (IOException e) {
        // the pipe breaks when the child dies; what was read is what counts
      }
    });
    reader.start();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    while (!lines.contains("waiting") && child.isAlive() && System.nanoTime() < deadline) {
      Thread.sleep(5);
    }
    child.destroyForcibly();
    assertThat(child.waitFor(30, TimeUnit.SECONDS)).isTrue();
    reader.join(10_000);
    return lines;
  }

  /** Bytes in both files of the log. */
  private static long logBytes(Path index) throws IOException {
    long n = 0;
    for (String f : WriteAheadLog.FILE_NAMES) {
      n += Files.size(index.resolve(f));
    }
    return n;
  }

  private static void copy(Path from, Path to) throws IOException {
    DiskCopy.asIfCrashed(from, to);
  }

  /** What {@code work} printed to standard error (where the test's SLF4J logger writes). */
  private static String stderrOf(IoWork work) throws IOException {
    PrintStream original = System.err;
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
    try {
      work.run();
    } finally {
      System.setErr(original);
    }
    String text = captured.toString(StandardCharsets.UTF_8);
    original.print(text);
    return text;
  }

  @FunctionalInterface
  private interface IoWork {
    void run() throws IOException;
  }
}
