package dev.lychee.store.lucene;

import dev.lychee.api.spi.CompositeKey;
import java.util.List;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.TermQuery;

/**
 * Field names and document kinds of the record-store index. Every document carries its namespace
 * ({@link #NS}), its kind ({@link #DOC}) and a unique key ({@link #UID}) that updates and deletes
 * go through.
 */
final class StoreFields {
  private StoreFields() {}

  /** Unique key: kind, namespace and id as one {@link CompositeKey} (indexed, not stored). */
  static final String UID = "uid";
  /** Namespace (keyword, stored). */
  static final String NS = "ns";
  /** Document kind (keyword), one of the {@code KIND_*} values. */
  static final String DOC = "doc";
  /** The value's own id, stored (turn id, record id, node id, segment id). */
  static final String ID = "id";
  /**
   * The same id as binary doc values, so that a search hit's id is read without decompressing a
   * block of stored fields ({@link DocIds}). A field of its own: Lucene fixes one schema per field
   * name, and {@link #ID} has none in indexes written before it existed, whose documents lack it.
   */
  static final String ID_VALUES = "id_dv";
  /** Session (keyword); on records and nodes one value per session they cite. */
  static final String SESSION = "session";
  /** Turn index (doc values) on turns. */
  static final String INDEX = "index";
  /** First turn index of a segment (doc values). Lucene wants one schema per field name, hence apart from INDEX. */
  static final String FIRST = "first";
  /** Last turn index of a segment (doc values). */
  static final String LAST = "last";
  /**
   * State of a segment (keyword, not stored), so that the segments not encoded yet are read
   * without the others ({@link SegmentDocs#pending}). Segment documents written before it existed
   * lack it; they match the reads of pending segments and are told apart by their JSON.
   */
  static final String STATE = "state";
  /** Session of a segment as sortable doc values. */
  static final String SESSION_SORT = "session_sort";
  /** Insertion sequence (doc values, stored) for first-insertion order. */
  static final String SEQ = "seq";
  /** BM25 text (English analysis): a turn's content; a record's type, text, entities and tags. */
  static final String TEXT = "text";
  /** Node kind (keyword) and key (sortable doc values). */
  static final String NODE_KIND = "node_kind";
  static final String NODE_KEY = "node_key";
  /** Record ids a node links to (keyword, multi-valued). */
  static final String NODE_RECORD = "node_record";
  /** The full value as JSON (stored). */
  static final String JSON = "json";
  /**
   * The JSON of turns, records and nodes again as binary doc values, for reads by id ({@link
   * DocIds}); absent from documents written before it existed, as {@link #ID_VALUES}.
   */
  static final String JSON_VALUES = "json_dv";

  static final String KIND_TURN = "turn";
  static final String KIND_SESSION = "session";
  static final String KIND_SEGMENT = "segment";
  static final String KIND_RECORD = "record";
  static final String KIND_NODE = "node";

  static Term uid(String kind, String namespace, String id) {
    return new Term(UID, CompositeKey.of(kind, namespace, id));
  }

  /** Matches the documents of one kind in one namespace (no scoring). */
  static BooleanQuery.Builder scope(String namespace, String kind) {
    BooleanQuery.Builder scope = new BooleanQuery.Builder();
    for (Term t : scopeTerms(namespace, kind)) {
      scope.add(new TermQuery(t), BooleanClause.Occur.FILTER);
    }
    return scope;
  }

  /** The terms {@link #scope} filters on, in its clause order (for queries that build their own term queries). */
  static List<Term> scopeTerms(String namespace, String kind) {
    return List.of(new Term(NS, namespace), new Term(DOC, kind));
  }

  /** {@link #scope} narrowed to one session. */
  static Query sessionScope(String namespace, String kind, String session) {
    return scope(namespace, kind).add(new TermQuery(new Term(SESSION, session)), BooleanClause.Occur.FILTER).build();
  }
}
