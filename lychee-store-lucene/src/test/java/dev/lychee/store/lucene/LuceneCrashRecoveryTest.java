package dev.lychee.store.lucene;

import static dev.lychee.store.lucene.CrashWriterMain.NS;
import static dev.lychee.store.lucene.CrashWriterMain.SESSION;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lychee.api.EvidenceNode;
import dev.lychee.api.MemoryRecord;
import dev.lychee.api.RawTurn;
import dev.lychee.api.SegmentState;
import dev.lychee.api.StoredSegment;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kills a writing child JVM with SIGKILL at a random point, reopens the index (its
 * {@code write.lock} file left behind), and checks that every write the child reported survived,
 * exactly once, and that no encoding is half-visible. Two rounds, so the second child also proves
 * that a writer can reopen after the kill.
 */
class LuceneCrashRecoveryTest {
  @TempDir Path dir;

  @Test
  void killedWriterLeavesOnlyWholeCommits() throws Exception {
    long seed = System.nanoTime();
    Random rnd = new Random(seed);
    List<String> reported = new ArrayList<>();
    for (int round = 0; round < 2; round++) {
      reported.addAll(runAndKill(rnd));
      assertThat(Files.exists(dir.resolve("write.lock"))).as("lock file left by the killed child").isTrue();
      verify(reported, "seed " + seed + ", round " + round);
    }
  }

  /** Starts a child, kills it after a random number of reported writes, returns what it reported. */
  private List<String> runAndKill(Random rnd) throws Exception {
    int killAfter = 1 + rnd.nextInt(30);
    Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", System.getProperty("java.class.path"), "-Xmx256m", CrashWriterMain.class.getName(),
        dir.toString(), "400")
        .redirectError(ProcessBuilder.Redirect.INHERIT)
        .start();
    List<String> lines = new CopyOnWriteArrayList<>();
    Thread reader = new Thread(() -> {
      try (BufferedReader in = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
        String line;
        while ((line = in.readLine()) != null) {
          lines.add(line);
        }
      } catch (java.io.IOException e) {
        // the pipe breaks when the child dies; what was read is what counts
      }
    });
    reader.start();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (lines.size() < killAfter && child.isAlive() && System.nanoTime() < deadline) {
      Thread.sleep(1);
    }
    Thread.sleep(rnd.nextInt(15));
    child.destroyForcibly();
    assertThat(child.waitFor(30, TimeUnit.SECONDS)).isTrue();
    reader.join(10_000);
    assertThat(lines).as("the child reported writes before it was killed").isNotEmpty();
    assertThat(lines).doesNotContain("done");
    return lines;
  }

  private void verify(List<String> reported, String context) {
    try (LuceneRecordStore store = new LuceneRecordStore(dir)) {
      List<RawTurn> turns = store.turns(NS, SESSION);
      int lastReported = reported.stream().filter(l -> l.startsWith("turns "))
          .mapToInt(l -> Integer.parseInt(l.substring(6))).max().orElse(-1);
      // every reported turn present, exactly once, and no gaps
      assertThat(turns).as(context).extracting(RawTurn::index)
          .containsExactlyElementsOf(IntStream.range(0, turns.size()).boxed().toList());
      assertThat(turns.size() - 1).as(context).isGreaterThanOrEqualTo(lastReported);
      assertThat(store.countTurns(NS)).isEqualTo(turns.size());

      Map<String, StoredSegment> segments = store.segments(NS).stream()
          .collect(Collectors.toMap(s -> s.segment().id(), Function.identity()));
      for (String line : reported) {
        if (line.startsWith("segment ")) {
          assertThat(segments).as(context).containsKey(line.substring(8));
        } else if (line.startsWith("encoded ")) {
          assertThat(segments.get(line.substring(8)).state()).as(context).isEqualTo(SegmentState.ENCODED);
        }
      }
      Map<String, List<MemoryRecord>> recordsBySegment = store.records(NS).stream()
          .collect(Collectors.groupingBy(MemoryRecord::segmentId));
      for (StoredSegment s : segments.values()) {
        String id = s.segment().id();
        List<MemoryRecord> records = recordsBySegment.getOrDefault(id, List.of());
        List<EvidenceNode> nodes = store.nodes(NS, List.of(EvidenceNode.idFor(dev.lychee.api.NodeKind.EVENT_FRAME, id)));
        if (s.state() == SegmentState.ENCODED) {
          assertThat(records).as(context + " " + id).hasSize(CrashWriterMain.RECORDS_PER_SEGMENT);
          assertThat(nodes).as(context + " " + id).hasSize(1);
        } else {
          assertThat(s.state()).as(context + " " + id).isEqualTo(SegmentState.PENDING);
          assertThat(records).as(context + " " + id).isEmpty();
          assertThat(nodes).as(context + " " + id).isEmpty();
        }
      }
      assertThat(recordsBySegment.keySet()).as(context).isSubsetOf(segments.keySet());
    }
  }
}
