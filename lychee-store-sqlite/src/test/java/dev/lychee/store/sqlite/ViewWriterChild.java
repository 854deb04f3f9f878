package dev.lychee.store.sqlite;

import dev.lychee.api.CloseReason;
import dev.lychee.api.DateRange;
import dev.lychee.api.EvidenceNode;
import dev.lychee.api.MemoryRecord;
import dev.lychee.api.MemoryType;
import dev.lychee.api.NodeKind;
import dev.lychee.api.RawTurn;
import dev.lychee.api.Role;
import dev.lychee.api.Segment;
import dev.lychee.api.SourceRole;
import dev.lychee.api.TemporalScope;
import dev.lychee.api.TurnRange;
import dev.lychee.api.TurnRef;
import dev.lychee.core.testing.StoreWrites;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.List;

/**
 * The child process of {@link TwoProcessViewsTest}: into a shared SQLite file, appends one turn in
 * session {@value #SESSION} and commits its segment's encoding, one record and one temporal node
 * of a new day ({@value #DAY}), all holding the word {@value #WORD}; prints {@code done}.
 */
public final class ViewWriterChild {
  static final String SESSION = "child";
  static final String WORD = "marathon";
  static final String DAY = "2023-06-01";

  private ViewWriterChild() {}

  public static void main(String[] args) {
    Path db = Path.of(args[0]);
    String ns = args[1];
    try (SqliteRecordStore store = new SqliteRecordStore(SqliteDatabase.open(db, SqliteStoreConfig.defaults()))) {
      List<RawTurn> turns = store.appendTurns(ns, SESSION, List.of(new RawTurn(ns, TurnRef.of(SESSION, 0), Role.USER,
          "Nadia", "I ran a " + WORD + " on June first.", null)));
      MemoryRecord r = new MemoryRecord(null, ns, MemoryType.EVENT, "Nadia ran a " + WORD + ".", List.of(), List.of(),
          TemporalScope.NONE, List.of(TurnRef.of(SESSION, 0)), SESSION, SESSION + ":0-0", SourceRole.USER, null);
      LocalDate day = LocalDate.parse(DAY);
      EvidenceNode n = new EvidenceNode(null, ns, NodeKind.TEMPORAL, "day:" + day, "day", WORD, List.of(r.id()),
          List.of(SESSION), List.of(), List.of(), DateRange.day(day), List.of(new TurnRange(SESSION, 0, 0)));
      Segment segment = new Segment(ns, SESSION, turns, 1, 0, CloseReason.SESSION_FLUSH, Double.NaN, Double.NaN);
      StoreWrites.encode(store, segment, List.of(r), List.of(n));
    }
    System.out.println("done");
  }
}
