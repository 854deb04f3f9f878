package dev.lychee.store.sqlite;

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
import dev.lychee.api.spi.RecordStore;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The child process of {@link CrashTest}: appends turns in batches of three, stores each batch as
 * a pending segment and commits the encoding of the previous one, until it is killed, reporting every call that returned on stdout ({@code T <last
 * index>}, {@code S <segment id>}, {@code E <segment id>}).
 */
public final class CrashChild {
  static final String NS = "crash";
  static final String SESSION = "s";
  static final int BATCH = 3;

  private CrashChild() {}

  static List<RawTurn> batch(int b) {
    List<RawTurn> turns = new ArrayList<>();
    for (int i = b * BATCH; i < (b + 1) * BATCH; i++) {
      turns.add(new RawTurn(NS, TurnRef.of(SESSION, i), i % 2 == 0 ? Role.USER : Role.ASSISTANT, null,
          "turn number tok" + i + " " + "filler text ".repeat(20), null));
    }
    return turns;
  }

  static Segment segment(int b) {
    return new Segment(NS, SESSION, batch(b), 1, 30, CloseReason.TARGET_LENGTH, Double.NaN, Double.NaN);
  }

  static List<MemoryRecord> records(Segment seg) {
    List<MemoryRecord> out = new ArrayList<>();
    for (String part : List.of("A", "B")) {
      out.add(new MemoryRecord(null, NS, MemoryType.FACT, "Fact " + part + " of " + seg.id(), List.of(), List.of(),
          TemporalScope.NONE, List.of(TurnRef.of(SESSION, seg.firstIndex())), SESSION, seg.id(), SourceRole.USER, null));
    }
    return out;
  }

  public static void main(String[] args) {
    Path db = Path.of(args[0]);
    PrintStream out = System.out;
    RecordStore store = SqliteRecordStore.open(db, SqliteStoreConfig.defaults());
    // resume after an earlier killed run: batches are whole, so the next batch starts here
    int first = store.nextTurnIndex(NS, SESSION) / BATCH;
    for (int b = first; ; b++) {
      List<RawTurn> turns = batch(b);
      store.appendTurns(NS, SESSION, turns);
      out.println("T " + turns.get(turns.size() - 1).index());
      out.flush();
      Segment seg = segment(b);
      store.putSegment(seg, SegmentState.PENDING);
      out.println("S " + seg.id());
      out.flush();
      // every batch encodes the segment before it, so much of the child's time is spent committing
      if (b >= 1) {
        Segment prev = segment(b - 1);
        List<MemoryRecord> recs = records(prev);
        EvidenceNode node = new EvidenceNode(null, NS, NodeKind.EVENT_FRAME, prev.id(), prev.id(), "frame",
            recs.stream().map(MemoryRecord::id).toList(), List.of(SESSION), List.of(), List.of(), null,
            List.of(new TurnRange(SESSION, prev.firstIndex(), prev.lastIndex())));
        store.commitEncoding(NS, prev.id(), recs, List.of(node));
        out.println("E " + prev.id());
        out.flush();
      }
    }
  }
}
