package dev.lychee.store.lucene;

import dev.lychee.api.EvidenceNode;
import dev.lychee.api.MemoryRecord;
import dev.lychee.api.RawTurn;
import dev.lychee.api.StoredSegment;
import dev.lychee.api.TurnRef;
import java.util.LinkedHashSet;
import java.util.Set;
import org.apache.lucene.document.BinaryDocValuesField;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.NumericDocValuesField;
import org.apache.lucene.document.SortedDocValuesField;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.IndexableField;
import org.apache.lucene.util.BytesRef;

/** Builds the Lucene documents of the record store from API values (see {@link StoreFields}). */
final class StoreDocuments {
  private StoreDocuments() {}

  static Document turn(RawTurn t, long seq) {
    Document d = base(StoreFields.KIND_TURN, t.namespace(), t.id(), seq);
    d.add(new StringField(StoreFields.SESSION, t.session(), Field.Store.NO));
    d.add(new NumericDocValuesField(StoreFields.INDEX, t.index()));
    d.add(new TextField(StoreFields.TEXT, t.content(), Field.Store.NO));
    json(d, JsonCodec.turn(t));
    return d;
  }

  /** The marker of a session: its sequence number orders {@code sessions()} and {@code namespaces()}. */
  static Document session(String namespace, String session, long seq) {
    Document d = base(StoreFields.KIND_SESSION, namespace, session, seq);
    d.add(new StringField(StoreFields.SESSION, session, Field.Store.NO));
    return d;
  }

  static Document segment(StoredSegment s) {
    var seg = s.segment();
    Document d = base(StoreFields.KIND_SEGMENT, seg.namespace(), seg.id(), 0);
    d.add(new StringField(StoreFields.SESSION, seg.session(), Field.Store.NO));
    d.add(new SortedDocValuesField(StoreFields.SESSION_SORT, new BytesRef(seg.session())));
    d.add(new NumericDocValuesField(StoreFields.FIRST, seg.firstIndex()));
    d.add(new NumericDocValuesField(StoreFields.LAST, seg.lastIndex()));
    d.add(new StringField(StoreFields.STATE, s.state().name(), Field.Store.NO));
    d.add(new StoredField(StoreFields.JSON, JsonCodec.segment(s)));
    return d;
  }

  static Document record(MemoryRecord r, long seq) {
    Document d = base(StoreFields.KIND_RECORD, r.namespace(), r.id(), seq);
    // every session the record touches, so that forgetting a session finds it
    Set<String> sessions = new LinkedHashSet<>();
    sessions.add(r.session());
    for (TurnRef ref : r.evidence()) {
      sessions.add(ref.session());
    }
    for (String s : sessions) {
      d.add(new StringField(StoreFields.SESSION, s, Field.Store.NO));
    }
    // the type twice: as written (failure_pattern) and as words (failure pattern)
    String text = r.type().wireName() + " " + r.type().wireName().replace('_', ' ') + "\n" + r.text() + "\n"
        + String.join("\n", r.entities()) + "\n" + String.join("\n", r.tags());
    d.add(new TextField(StoreFields.TEXT, text, Field.Store.NO));
    json(d, JsonCodec.record(r));
    return d;
  }

  static Document node(EvidenceNode n, long seq) {
    Document d = base(StoreFields.KIND_NODE, n.namespace(), n.id(), seq);
    d.add(new StringField(StoreFields.NODE_KIND, n.kind().wireName(), Field.Store.NO));
    d.add(new SortedDocValuesField(StoreFields.NODE_KEY, new BytesRef(n.key())));
    for (String id : n.recordIds()) {
      d.add(new StringField(StoreFields.NODE_RECORD, id, Field.Store.NO));
    }
    Set<String> sessions = new LinkedHashSet<>(n.sessions());
    n.turnRanges().forEach(r -> sessions.add(r.session()));
    for (String s : sessions) {
      d.add(new StringField(StoreFields.SESSION, s, Field.Store.NO));
    }
    json(d, JsonCodec.node(n));
    return d;
  }

  /**
   * The value's JSON, stored and as binary doc values: the stored copy is what whole-document reads
   * (windows, listings, merges) load, the doc values copy what reads by id load without
   * decompressing a block of stored fields per document ({@link DocIds}).
   */
  private static void json(Document d, String json) {
    d.add(new StoredField(StoreFields.JSON, json));
    d.add(new BinaryDocValuesField(StoreFields.JSON_VALUES, new BytesRef(json)));
  }

  /** Sets the insertion sequence of a document built by this class (its doc value and stored copy). */
  static void setSeq(Document d, long seq) {
    for (IndexableField f : d.getFields(StoreFields.SEQ)) {
      ((Field) f).setLongValue(seq);
    }
  }

  private static Document base(String kind, String namespace, String id, long seq) {
    Document d = new Document();
    d.add(new StringField(StoreFields.UID, StoreFields.uid(kind, namespace, id).text(), Field.Store.NO));
    d.add(new StringField(StoreFields.NS, namespace, Field.Store.YES));
    d.add(new StringField(StoreFields.DOC, kind, Field.Store.NO));
    d.add(new StoredField(StoreFields.ID, id));
    d.add(new BinaryDocValuesField(StoreFields.ID_VALUES, new BytesRef(id)));
    d.add(new NumericDocValuesField(StoreFields.SEQ, seq));
    d.add(new StoredField(StoreFields.SEQ, seq));
    return d;
  }
}
