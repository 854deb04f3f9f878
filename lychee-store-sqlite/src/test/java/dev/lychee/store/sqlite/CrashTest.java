package dev.lychee.store.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lychee.api.EvidenceNode;
import dev.lychee.api.MemoryRecord;
import dev.lychee.api.NodeKind;
import dev.lychee.api.RawTurn;
import dev.lychee.api.ScoredId;
import dev.lychee.api.SegmentState;
import dev.lychee.api.StoredSegment;
import dev.lychee.api.spi.RecordStore;
import dev.lychee.api.spi.TextField;
import dev.lychee.api.spi.VectorIndex;
import dev.lychee.core.Lychee;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kills a writing child JVM with SIGKILL at random points and checks that the reopened database
 * holds every reported write exactly once and no half-committed encoding.
 */
class CrashTest {
  @TempDir
  Path dir;

  @Test
  void aKilledWriterLosesNothingItReportedAndLeavesNoHalfEncodedSegment() throws Exception {
    Random rnd = new Random(4242);
    // the second round resumes on the file the first one crashed, and is killed again
    Path db = dir.resolve("crash.db");
    Reported reported = new Reported();
    for (int round = 0; round < 2; round++) {
      int killAfter = 20 + rnd.nextInt(120);
      runAndKill(db, killAfter, reported, CrashChild.class);
      assertThat(reported.lastTurn).as("child made progress").isGreaterThanOrEqualTo(0);
      verify(db, reported);
    }
  }

  @Test
  void aKilledLycheeLosesNoTurnAndRecoversEveryPendingSegment() throws Exception {
    Random rnd = new Random(777);
    Path db = dir.resolve("facade.db");
    Reported reported = new Reported();
    runAndKill(db, 5 + rnd.nextInt(30), reported, FacadeCrashChild.class);
    verifyFacade(db, reported);
  }

  private void verifyFacade(Path db, Reported reported) {
    String ns = FacadeCrashChild.NS;
    try (Lychee lychee = FacadeCrashChild.open(db)) {
      RecordStore store = lychee.store();
      List<RawTurn> turns = store.turns(ns, FacadeCrashChild.SESSION);
      assertThat(turns.size()).isGreaterThanOrEqualTo(reported.lastTurn + 1);
      assertThat(turns.size() % FacadeCrashChild.BATCH).isZero();
      for (int i = 0; i < turns.size(); i++) {
        assertThat(turns.get(i).index()).isEqualTo(i);
      }
      // before recovery: no record exists whose segment is not encoded
      Set<String> encoded = new HashSet<>();
      store.segments(ns).stream().filter(s -> s.state() == SegmentState.ENCODED)
          .forEach(s -> encoded.add(s.segment().id()));
      assertThat(store.records(ns)).allSatisfy(r -> assertThat(encoded).contains(r.segmentId()));

      // the open recovered by itself (review C F3: no encodePending): every turn has its vector
      // again and the pending segments are encoded (synchronous mode)
      assertThat(lychee.vectors().size(ns, VectorIndex.TURNS)).isEqualTo(turns.size());
      assertThat(lychee.status(ns).turnsWithoutVectors()).isZero();
      assertThat(store.segments(ns)).allSatisfy(s -> assertThat(s.state()).isEqualTo(SegmentState.ENCODED));
      // the tail the killed process left unsegmented closes with the session's flush
      lychee.flush(ns, FacadeCrashChild.SESSION);
      List<StoredSegment> segments = store.segments(ns);
      assertThat(segments).allSatisfy(s -> assertThat(s.state()).isEqualTo(SegmentState.ENCODED));
      int expectedFirst = 0;
      for (StoredSegment s : segments) {
        // segments tile the session: no turn in two segments, none left out
        assertThat(s.segment().firstIndex()).as("segment %s", s.segment().id()).isEqualTo(expectedFirst);
        expectedFirst = s.segment().lastIndex() + 1;
      }
      assertThat(expectedFirst).isEqualTo(turns.size());
      assertThat(lychee.vectors().size(ns, VectorIndex.TURNS)).isEqualTo(turns.size());
      Set<String> recordVectors = new HashSet<>();
      lychee.vectors().search(ns, VectorIndex.RECORDS, lychee.embedder().embedQuery("kitten"), 1_000_000, null)
          .forEach(h -> recordVectors.add(h.id()));
      assertThat(store.records(ns)).isNotEmpty()
          .allSatisfy(r -> assertThat(recordVectors).contains(r.id()));
      assertThat(lychee.recall(ns, "What is the name of Alice's kitten?").evidence()).isNotEmpty();
    }
  }

  private static final class Reported {
    int lastTurn = -1;
    final Set<String> segments = new HashSet<>();
    final Set<String> encoded = new HashSet<>();
  }

  private void runAndKill(Path db, int killAfterLines, Reported r, Class<?> main) throws Exception {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    ProcessBuilder pb = new ProcessBuilder(java, "-Xmx256m", "-cp", System.getProperty("java.class.path"),
        main.getName(), db.toString());
    Path err = dir.resolve("child-" + db.getFileName() + ".err");
    pb.redirectError(err.toFile());
    Process child = pb.start();
    try (BufferedReader in = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
      int lines = 0;
      String line;
      while (lines < killAfterLines && (line = in.readLine()) != null) {
        if (line.startsWith("T ")) {
          r.lastTurn = Integer.parseInt(line.substring(2).trim());
        } else if (line.startsWith("S ")) {
          r.segments.add(line.substring(2).trim());
        } else if (line.startsWith("E ")) {
          r.encoded.add(line.substring(2).trim());
        } else {
          continue;
        }
        lines++;
      }
      child.destroyForcibly();
      assertThat(child.waitFor(60, TimeUnit.SECONDS)).isTrue();
      assertThat(lines).as("lines the child printed before it was killed; its stderr:%n%s",
          Files.readString(err)).isEqualTo(killAfterLines);
    } finally {
      child.destroyForcibly();
    }
  }

  private void verify(Path db, Reported reported) {
    try (RecordStore store = SqliteRecordStore.open(db, SqliteStoreConfig.defaults())) {
      List<RawTurn> turns = store.turns(CrashChild.NS, CrashChild.SESSION);
      // every reported turn is there, turns are contiguous from 0, and whole batches only
      assertThat(turns.size()).isGreaterThanOrEqualTo(reported.lastTurn + 1).isEqualTo((int) store.countTurns(CrashChild.NS));
      assertThat(turns.size() % CrashChild.BATCH).isZero();
      for (int i = 0; i < turns.size(); i++) {
        assertThat(turns.get(i).index()).isEqualTo(i);
      }
      // the lexical index is in step: each turn's unique token finds exactly that turn
      for (int i = 0; i < turns.size(); i += Math.max(1, turns.size() / 25)) {
        assertThat(store.searchText(CrashChild.NS, TextField.TURNS, "tok" + i, 5)).extracting(ScoredId::id)
            .containsExactly(turns.get(i).id());
      }
      List<StoredSegment> segments = store.segments(CrashChild.NS);
      Set<String> listed = new HashSet<>();
      boolean pendingSeen = false;
      for (StoredSegment s : segments) {
        listed.add(s.segment().id());
        List<MemoryRecord> recs = store.records(CrashChild.NS,
            CrashChild.records(s.segment()).stream().map(MemoryRecord::id).toList());
        List<EvidenceNode> node = store.nodes(CrashChild.NS, List.of(EvidenceNode.idFor(NodeKind.EVENT_FRAME, s.segment().id())));
        if (s.state() == SegmentState.ENCODED) {
          assertThat(recs).as("records of encoded %s", s.segment().id()).hasSize(2);
          assertThat(node).hasSize(1);
          assertThat(store.searchText(CrashChild.NS, TextField.RECORDS, s.segment().id(), 50)).extracting(ScoredId::id)
              .contains(recs.get(0).id(), recs.get(1).id());
        } else {
          assertThat(s.state()).isEqualTo(SegmentState.PENDING);
          assertThat(recs).as("records of pending %s", s.segment().id()).isEmpty();
          assertThat(node).isEmpty();
          pendingSeen = true;
        }
        // every segment covers stored turns
        assertThat(s.segment().lastIndex()).isLessThan(turns.size());
      }
      assertThat(listed).containsAll(reported.segments);
      assertThat(pendingSeen).as("the last segment was still pending").isTrue();
      for (String id : reported.encoded) {
        assertThat(segments).filteredOn(s -> s.segment().id().equals(id)).singleElement()
            .satisfies(s -> assertThat(s.state()).isEqualTo(SegmentState.ENCODED));
      }
      assertThat(store.records(CrashChild.NS)).hasSize(2 * (int) segments.stream()
          .filter(s -> s.state() == SegmentState.ENCODED).count());
      // the store keeps working: re-sending everything stored adds nothing
      assertThat(store.appendTurns(CrashChild.NS, CrashChild.SESSION, turns)).isEmpty();
    }
  }
}
