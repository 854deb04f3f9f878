package dev.lychee.store.lucene;

import dev.lychee.api.CloseReason;
import dev.lychee.api.EvidenceNode;
import dev.lychee.api.MemoryRecord;
import dev.lychee.api.MemoryType;
import dev.lychee.api.NodeKind;
import dev.lychee.api.RawTurn;
import dev.lychee.api.Role;
import dev.lychee.api.Segment;
import dev.lychee.api.SegmentState;
import dev.lychee.api.SourceRole;
import dev.lychee.api.TemporalScope;
import dev.lychee.api.TurnRange;
import dev.lychee.api.TurnRef;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The child process of {@link LuceneCrashRecoveryTest}: writes turn batches, segments and
 * encodings in a loop and reports each write only after it returned, until it is killed.
 *
 * <p>Lines: {@code turns <lastIndex>}, {@code segment <id>}, {@code encoded <id>}.
 */
public final class CrashWriterMain {
  static final String NS = "crash";
  static final String SESSION = "s";
  static final int BATCH = 4;
  static final int RECORDS_PER_SEGMENT = 3;

  private CrashWriterMain() {}

  public static void main(String[] args) {
    Path dir = Path.of(args[0]);
    int maxBatches = Integer.parseInt(args[1]);
    PrintStream out = System.out;
    try (LuceneRecordStore store = new LuceneRecordStore(dir)) {
      int next = store.nextTurnIndex(NS, SESSION);
      for (int b = 0; b < maxBatches; b++) {
        List<RawTurn> turns = new ArrayList<>();
        for (int i = next; i < next + BATCH; i++) {
          turns.add(new RawTurn(NS, TurnRef.of(SESSION, i), Role.USER, "Ann", "message " + i, null));
        }
        store.appendTurns(NS, SESSION, turns);
        report(out, "turns " + (next + BATCH - 1));
        Segment seg = new Segment(NS, SESSION, turns, 2, 20, CloseReason.TARGET_LENGTH, 0.5, 0.5);
        store.putSegment(seg, SegmentState.PENDING);
        report(out, "segment " + seg.id());
        if (b % 3 != 2) {
          store.commitEncoding(NS, seg.id(), records(seg), List.of(node(seg)));
          report(out, "encoded " + seg.id());
        }
        next += BATCH;
      }
    }
    report(out, "done");
  }

  private static void report(PrintStream out, String line) {
    out.println(line);
    out.flush();
  }

  static List<MemoryRecord> records(Segment seg) {
    List<MemoryRecord> out = new ArrayList<>();
    for (int k = 0; k < RECORDS_PER_SEGMENT; k++) {
      out.add(new MemoryRecord(null, NS, MemoryType.FACT, "Fact " + k + " of segment " + seg.id(), List.of("Ann"),
          List.of("crash"), TemporalScope.NONE, List.of(TurnRef.of(SESSION, seg.firstIndex() + k)), SESSION, seg.id(),
          SourceRole.USER, null));
    }
    return out;
  }

  static EvidenceNode node(Segment seg) {
    List<String> ids = records(seg).stream().map(MemoryRecord::id).toList();
    return new EvidenceNode(null, NS, NodeKind.EVENT_FRAME, seg.id(), seg.id(), "Records of " + seg.id(), ids,
        List.of(SESSION), List.of("Ann"), List.of("crash"), null,
        List.of(new TurnRange(SESSION, seg.firstIndex(), seg.lastIndex())));
  }
}
