package dev.lychee.store.lucene;

import static dev.lychee.store.lucene.StoreFields.KIND_SESSION;
import static dev.lychee.store.lucene.StoreFields.KIND_TURN;

import dev.lychee.api.RawTurn;
import dev.lychee.api.TurnRef;
import dev.lychee.core.store.VersionedCache;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.LongSupplier;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.NumericDocValuesField;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.Sort;
import org.apache.lucene.search.SortField;
import org.apache.lucene.search.TermQuery;

/**
 * Turn documents and session markers: the turn log of the Lucene store. A session's marker is
 * written with its first turn; its sequence number orders {@code sessions()} and {@code namespaces()}.
 */
final class TurnDocs {
  private static final Sort BY_SEQ = new Sort(new SortField(StoreFields.SEQ, SortField.Type.LONG));
  static final Sort BY_INDEX = new Sort(new SortField(StoreFields.INDEX, SortField.Type.INT));
  private static final Sort BY_INDEX_DESC = new Sort(new SortField(StoreFields.INDEX, SortField.Type.INT, true));

  private final LuceneIndex index;
  private final ReaderCache cache;
  private final JsonDocs<RawTurn> byId;

  TurnDocs(LuceneIndex index, ReaderCache cache) {
    this.index = index;
    this.cache = cache;
    // a recall's turn reads by id: per-segment copies (docs/defaults.md §3.3)
    this.byId = new JsonDocs<>(index, cache, KIND_TURN, 't', JsonCodec::turn, true);
  }

  /** Writes the turns not stored yet (and the session marker if new); runs inside a write call. */
  static List<RawTurn> insert(IndexWriter writer, IndexSearcher searcher, String namespace, String session,
      List<RawTurn> turns, StoreSequence seq) throws IOException {
    List<RawTurn> fresh = new ArrayList<>();
    Set<Integer> seen = new HashSet<>();
    for (RawTurn t : turns) {
      if (seen.add(t.index()) && searcher.count(new TermQuery(StoreFields.uid(KIND_TURN, namespace, t.id()))) == 0) {
        fresh.add(t);
      }
    }
    if (fresh.isEmpty()) {
      return List.of();
    }
    List<Document> docs = new ArrayList<>();
    if (searcher.count(new TermQuery(StoreFields.uid(KIND_SESSION, namespace, session))) == 0) {
      docs.add(StoreDocuments.session(namespace, session, seq.next()));
    }
    for (RawTurn t : fresh) {
      docs.add(StoreDocuments.turn(t, seq.next()));
    }
    // one atomic block: a commit running beside this write (LuceneIndex) holds all of it or none
    writer.addDocuments(docs);
    return List.copyOf(fresh);
  }

  /**
   * Writes turns that come after every stored turn of a session that has turns (the caller knows
   * this; see {@code LuceneRecordStore.appendTurns}): none can be stored yet and the session's
   * marker exists, so nothing is looked up. Runs inside a write call.
   */
  static List<RawTurn> insertAfterStored(IndexWriter writer, List<RawTurn> turns, StoreSequence seq) throws IOException {
    if (turns.isEmpty()) {
      return List.of();
    }
    List<Document> docs = new ArrayList<>(turns.size());
    for (RawTurn t : turns) {
      docs.add(StoreDocuments.turn(t, seq.next()));
    }
    // one atomic block, as in insert
    writer.addDocuments(docs);
    return List.copyOf(turns);
  }

  /** How many per-segment copies the turn reads by id hold (for tests). */
  int segmentCopies() {
    return byId.segmentCopies();
  }

  /**
   * One past the session's highest stored turn index, read on searchers that cover {@code since}
   * ({@link LuceneIndex#read(LuceneIndex.ReadWork, LongSupplier)}): the change count after the
   * last write that added or removed turns of the session.
   */
  int nextIndex(String namespace, String session, LongSupplier since) {
    return index.read(s -> {
      List<Document> last = Hits.top(s, StoreFields.sessionScope(namespace, KIND_TURN, session), 1, BY_INDEX_DESC);
      return last.isEmpty() ? 0 : JsonCodec.turn(Hits.json(last.get(0))).index() + 1;
    }, since);
  }

  Optional<RawTurn> turn(String namespace, TurnRef ref) {
    return index.read(s -> Hits.byKey(s, StoreFields.uid(KIND_TURN, namespace, ref.id())))
        .map(d -> JsonCodec.turn(Hits.json(d)));
  }

  /** One query for all refs (a terms filter on the unique keys); decoded turns are cached. */
  List<RawTurn> turns(String namespace, Collection<TurnRef> refs) {
    List<TurnRef> wanted = List.copyOf(new LinkedHashSet<>(refs));
    Map<String, RawTurn> found = byId.byIds(namespace, wanted.stream().map(TurnRef::id).toList());
    return wanted.stream().map(r -> found.get(r.id())).filter(Objects::nonNull).toList();
  }

  /** Source windows ask for the same short ranges route after route, hence the cache. */
  List<RawTurn> window(String namespace, String session, int from, int to) {
    Query q = StoreFields.scope(namespace, KIND_TURN)
        .add(new TermQuery(new Term(StoreFields.SESSION, session)), BooleanClause.Occur.FILTER)
        // doc values range: the session filter already narrows to a few docs, so no points index is needed
        .add(NumericDocValuesField.newSlowRangeQuery(StoreFields.INDEX, from, to), BooleanClause.Occur.FILTER)
        .build();
    return index.read(s -> cache.get(s, new VersionedCache.Key('w', namespace, List.of(session, from, to)),
        () -> Hits.all(s, q, BY_INDEX).stream().map(d -> JsonCodec.turn(Hits.json(d))).toList()));
  }

  List<RawTurn> all(String namespace, String session) {
    Query q = StoreFields.sessionScope(namespace, KIND_TURN, session);
    return index.read(s -> Hits.all(s, q, BY_INDEX)).stream().map(d -> JsonCodec.turn(Hits.json(d))).toList();
  }

  List<String> sessions(String namespace) {
    return index.read(s -> Hits.ids(s, StoreFields.scope(namespace, KIND_SESSION).build(), BY_SEQ));
  }

  /** Namespaces in the order their first session was stored. */
  List<String> namespaces() {
    Query q = new TermQuery(new Term(StoreFields.DOC, KIND_SESSION));
    return index.read(s -> {
      Set<String> out = new LinkedHashSet<>();
      for (Document d : Hits.all(s, q, BY_SEQ)) {
        out.add(d.get(StoreFields.NS));
      }
      return List.copyOf(out);
    });
  }

  long count(String namespace) {
    return index.read(s -> (long) s.count(StoreFields.scope(namespace, KIND_TURN).build()));
  }
}
