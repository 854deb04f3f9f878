package dev.lychee.store.lucene;

import static dev.lychee.store.lucene.StoreFields.KIND_SEGMENT;

import dev.lychee.api.Segment;
import dev.lychee.api.SegmentState;
import dev.lychee.api.StoredSegment;
import dev.lychee.core.store.SegmentOverlap;
import dev.lychee.core.store.VersionedCache;
import java.io.IOException;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.NumericDocValuesField;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.Sort;
import org.apache.lucene.search.SortField;
import org.apache.lucene.search.TermQuery;

/** Segment documents: one per closed segment, replaced whole when its state changes. */
final class SegmentDocs {
  private static final Sort BY_LAST_DESC = new Sort(new SortField(StoreFields.LAST, SortField.Type.INT, true));
  private static final Sort BY_SESSION_FIRST = new Sort(
      new SortField(StoreFields.SESSION_SORT, SortField.Type.STRING),
      new SortField(StoreFields.FIRST, SortField.Type.INT));

  private final LuceneIndex index;
  private final ReaderCache cache;

  SegmentDocs(LuceneIndex index, ReaderCache cache) {
    this.index = index;
    this.cache = cache;
  }

  /**
   * Stores the segment unless a stored one of its session shares a turn ({@link SegmentOverlap});
   * runs inside a write call, so the check sees every earlier write under the index's write lock.
   */
  static boolean put(IndexWriter writer, IndexSearcher searcher, Segment segment, SegmentState state)
      throws IOException {
    Query meeting = new BooleanQuery.Builder()
        .add(StoreFields.sessionScope(segment.namespace(), KIND_SEGMENT, segment.session()), BooleanClause.Occur.FILTER)
        .add(NumericDocValuesField.newSlowRangeQuery(StoreFields.FIRST, Long.MIN_VALUE, segment.lastIndex()),
            BooleanClause.Occur.FILTER)
        .add(NumericDocValuesField.newSlowRangeQuery(StoreFields.LAST, segment.firstIndex(), Long.MAX_VALUE),
            BooleanClause.Occur.FILTER)
        .build();
    boolean overlaps = SegmentOverlap.sharesTurn(segment, Hits.all(searcher, meeting, BY_SESSION_FIRST).stream()
        .map(d -> JsonCodec.segment(Hits.json(d)).segment()).toList());
    if (!overlaps) {
      write(writer, new StoredSegment(segment, state, null));
    }
    return !overlaps;
  }

  void setState(String namespace, String segmentId, SegmentState state, String error) {
    index.write((writer, searcher) -> {
      setState(writer, searcher, namespace, segmentId, state, error);
      return null;
    });
  }

  /**
   * Changes the state inside a caller's write call.
   *
   * @throws IllegalArgumentException if no such segment is stored
   */
  static void setState(IndexWriter writer, IndexSearcher searcher, String namespace, String segmentId,
      SegmentState state, String error) throws IOException {
    write(writer, withState(searcher, namespace, segmentId, state, error));
  }

  /**
   * Adds the segment's document with its state changed to a block a caller's write call writes
   * whole ({@link DocumentBlock}).
   *
   * @throws IllegalArgumentException if no such segment is stored
   */
  static void addState(DocumentBlock.Builder block, IndexSearcher searcher, String namespace, String segmentId,
      SegmentState state, String error) throws IOException {
    StoredSegment s = withState(searcher, namespace, segmentId, state, error);
    block.add(key(s), StoreDocuments.segment(s));
  }

  /**
   * As {@link #addState(DocumentBlock.Builder, IndexSearcher, String, String, SegmentState, String)}
   * for a segment whose stored value the caller knows ({@code stored}, decoded from the JSON its
   * document holds): no read of the searcher.
   */
  static void addState(DocumentBlock.Builder block, StoredSegment stored, SegmentState state, String error) {
    StoredSegment s = new StoredSegment(stored.segment(), state, error);
    block.add(key(s), StoreDocuments.segment(s));
  }

  private static StoredSegment withState(IndexSearcher searcher, String namespace, String segmentId,
      SegmentState state, String error) throws IOException {
    StoredSegment current = Hits.byKey(searcher, StoreFields.uid(KIND_SEGMENT, namespace, segmentId))
        .map(d -> JsonCodec.segment(Hits.json(d)))
        .orElseThrow(() -> new IllegalArgumentException("no segment " + segmentId + " in namespace " + namespace));
    return new StoredSegment(current.segment(), state, error);
  }

  private static void write(IndexWriter writer, StoredSegment s) throws IOException {
    writer.updateDocument(key(s), StoreDocuments.segment(s));
  }

  private static Term key(StoredSegment s) {
    return StoreFields.uid(KIND_SEGMENT, s.segment().namespace(), s.segment().id());
  }

  List<StoredSegment> all(String namespace) {
    return index.read(s -> cache.get(s, new VersionedCache.Key('g', namespace, ""),
        () -> Hits.all(s, StoreFields.scope(namespace, KIND_SEGMENT).build(), BY_SESSION_FIRST)
            .stream().map(d -> JsonCodec.segment(Hits.json(d))).toList()));
  }

  /**
   * The namespace's segments not encoded yet: the documents whose state term is not ENCODED, so an
   * encoded segment is not read (review C F8). A document written before the state field existed
   * matches too and is dropped after decoding when its JSON says ENCODED; such documents are read
   * until their segment is written again, which an encoded one never is.
   */
  List<StoredSegment> pending(String namespace) {
    return index.read(s -> Hits.all(s, notEncoded(StoreFields.scope(namespace, KIND_SEGMENT).build()), BY_SESSION_FIRST)
        .stream().map(d -> JsonCodec.segment(Hits.json(d))).filter(x -> x.state() != SegmentState.ENCODED).toList());
  }

  /** The namespaces with a segment not encoded yet, read as {@link #pending} reads one namespace's. */
  List<String> pendingNamespaces() {
    return index.read(s -> {
      Query segments = new TermQuery(new Term(StoreFields.DOC, KIND_SEGMENT));
      Set<String> out = new LinkedHashSet<>();
      for (Document d : Hits.all(s, notEncoded(segments), Sort.INDEXORDER)) {
        StoredSegment x = JsonCodec.segment(Hits.json(d));
        if (x.state() != SegmentState.ENCODED) {
          out.add(x.segment().namespace());
        }
      }
      return List.copyOf(out);
    });
  }

  private static Query notEncoded(Query scope) {
    return new BooleanQuery.Builder().add(scope, BooleanClause.Occur.FILTER)
        .add(new TermQuery(new Term(StoreFields.STATE, SegmentState.ENCODED.name())), BooleanClause.Occur.MUST_NOT)
        .build();
  }

  int segmentedThrough(String namespace, String session) {
    return index.read(s -> {
      List<Document> top = Hits.top(s, StoreFields.sessionScope(namespace, KIND_SEGMENT, session), 1, BY_LAST_DESC);
      return top.isEmpty() ? -1 : JsonCodec.segment(Hits.json(top.get(0))).segment().lastIndex();
    });
  }
}
