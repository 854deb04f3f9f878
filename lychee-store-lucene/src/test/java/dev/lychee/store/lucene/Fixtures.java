package dev.lychee.store.lucene;

import dev.lychee.api.CloseReason;
import dev.lychee.api.DateRange;
import dev.lychee.api.EvidenceNode;
import dev.lychee.api.MemoryRecord;
import dev.lychee.api.MemoryType;
import dev.lychee.api.NodeKind;
import dev.lychee.api.RawTurn;
import dev.lychee.api.ScoredId;
import dev.lychee.api.Role;
import dev.lychee.api.Segment;
import dev.lychee.api.SegmentState;
import dev.lychee.api.SourceRole;
import dev.lychee.api.TemporalScope;
import dev.lychee.api.TurnRange;
import dev.lychee.api.TurnRef;
import dev.lychee.core.score.TopScored;
import java.io.IOException;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.TopDocs;

/** Small builders of API values for the Lucene store tests. */
final class Fixtures {
  static final LocalDateTime DAY = LocalDateTime.of(2023, 5, 8, 13, 56);

  private Fixtures() {}

  static RawTurn turn(String ns, String session, int index, String text) {
    return new RawTurn(ns, TurnRef.of(session, index), index % 2 == 0 ? Role.USER : Role.ASSISTANT,
        index % 2 == 0 ? "Nadia" : null, text, DAY);
  }

  static List<RawTurn> turns(String ns, String session, int from, int count) {
    List<RawTurn> out = new ArrayList<>();
    for (int i = from; i < from + count; i++) {
      out.add(turn(ns, session, i, "turn number " + i + " of " + session));
    }
    return out;
  }

  static Segment segment(List<RawTurn> turns) {
    RawTurn first = turns.get(0);
    return new Segment(first.namespace(), first.session(), turns, turns.size() / 2 + 1, 40 * turns.size(),
        CloseReason.SEMANTIC_BOUNDARY, 0.42, Double.NaN);
  }

  /**
   * Appends the first four turns of a session and stores two pending segments of two turns each,
   * which it returns in order.
   */
  static List<Segment> twoPendingSegments(LuceneRecordStore store, String ns, String session) {
    List<RawTurn> t = turns(ns, session, 0, 4);
    store.appendTurns(ns, session, t);
    List<Segment> segments = List.of(segment(t.subList(0, 2)), segment(t.subList(2, 4)));
    for (Segment s : segments) {
      if (!store.putSegment(s, SegmentState.PENDING)) {
        throw new IllegalStateException("segment refused: " + s.id());
      }
    }
    return segments;
  }

  static MemoryRecord record(String ns, String session, String text, int... turnIndices) {
    List<TurnRef> refs = new ArrayList<>();
    for (int i : turnIndices) {
      refs.add(TurnRef.of(session, i));
    }
    return new MemoryRecord(null, ns, MemoryType.EVENT, text, List.of("Nadia"), List.of("choir rehearsal"),
        new TemporalScope("2023-05-07", "", "", DateRange.day(LocalDate.of(2023, 5, 7)), false), refs, session,
        session + ":0-3", SourceRole.USER, DAY);
  }

  static MemoryRecord record(String ns, String session, String text, DateRange span, int... turnIndices) {
    MemoryRecord r = record(ns, session, text, turnIndices);
    return new MemoryRecord(r.id(), ns, MemoryType.FACT, text, r.entities(), r.tags(),
        span == null ? TemporalScope.NONE : new TemporalScope("x", "", "", span, false), r.evidence(), session,
        r.segmentId(), SourceRole.BOTH, null);
  }

  static EvidenceNode entityNode(String ns, String key, String session, String... recordIds) {
    return new EvidenceNode(null, ns, NodeKind.ENTITY, key, key, "Entity: " + key, List.of(recordIds),
        List.of(session), List.of(key), List.of("tag"), DateRange.day(LocalDate.of(2023, 5, 7)),
        List.of(new TurnRange(session, 0, 3)));
  }

  /** A recall's lexical variants over the texts of {@link #textSegments}. */
  static final List<String> VARIANTS = List.of(
      "When did Nadia go to the choir rehearsal?", "choir rehearsal Nadia", "the puppy and the choir", "garden hose");

  /**
   * Three commits (three segments) of turns and records of a namespace, the records of earlier
   * calls rewritten (deleted documents count in BM25 until merged away).
   */
  static void textSegments(LuceneIndex index, String ns, int from) {
    String[] texts = {"Nadia went to the choir rehearsal", "the puppy chewed the garden hose",
        "choir practice moved to Monday", "a golden puppy at the rehearsal"};
    for (int batch = 0; batch < 3; batch++) {
      int base = from + batch * 10;
      index.write((IndexWriter w, IndexSearcher s) -> {
        for (int i = 0; i < texts.length; i++) {
          w.addDocument(StoreDocuments.turn(turn(ns, "s" + base, i, texts[i] + " " + base), base + i));
        }
        for (int i = 0; i < texts.length; i++) {
          MemoryRecord r = withId(record(ns, "s1", texts[(i + base) % texts.length], 0), "r" + i);
          w.updateDocument(StoreFields.uid(StoreFields.KIND_RECORD, ns, r.id()), StoreDocuments.record(r, base + i));
        }
        return null;
      });
    }
  }

  /**
   * Every hit of Lucene's search of {@code query}, best first by score, then id (the order the
   * store returns equal scores in since round twenty-two), cut to {@code k}.
   */
  static List<ScoredId> ranked(IndexSearcher s, Query query, int k) throws IOException {
    TopDocs td = s.search(query, Math.max(1, s.getIndexReader().maxDoc()));
    String[] ids = DocIds.of(s, td.scoreDocs);
    List<ScoredId> out = new ArrayList<>();
    for (int i = 0; i < ids.length; i++) {
      out.add(new ScoredId(ids[i], td.scoreDocs[i].score));
    }
    out.sort(TopScored.BEST_FIRST);
    return List.copyOf(out.subList(0, Math.min(k, out.size())));
  }

  static MemoryRecord withId(MemoryRecord r, String id) {
    return new MemoryRecord(id, r.namespace(), r.type(), r.text(), r.entities(), r.tags(), r.temporal(),
        r.evidence(), r.session(), r.segmentId(), r.sourceRole(), r.createdAt());
  }
}
