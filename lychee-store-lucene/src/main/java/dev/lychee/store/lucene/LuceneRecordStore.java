package dev.lychee.store.lucene;

import static dev.lychee.store.lucene.StoreFields.KIND_NODE;
import static dev.lychee.store.lucene.StoreFields.KIND_RECORD;
import static dev.lychee.store.lucene.StoreFields.KIND_SEGMENT;
import static dev.lychee.store.lucene.StoreFields.KIND_SESSION;
import static dev.lychee.store.lucene.StoreFields.KIND_TURN;

import dev.lychee.api.DateRange;
import dev.lychee.api.EvidenceNode;
import dev.lychee.api.Forgotten;
import dev.lychee.api.MemoryRecord;
import dev.lychee.api.MemoryType;
import dev.lychee.api.NodeKind;
import dev.lychee.api.RawTurn;
import dev.lychee.api.ScoredId;
import dev.lychee.api.Segment;
import dev.lychee.api.SegmentState;
import dev.lychee.api.StoredSegment;
import dev.lychee.api.TurnRef;
import dev.lychee.api.spi.RecordStore;
import dev.lychee.api.spi.TextField;
import dev.lychee.core.store.SessionPruning;
import dev.lychee.core.store.VersionedCache;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.en.EnglishAnalyzer;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.NumericDocValuesField;
import org.apache.lucene.document.LongPoint;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.NumericDocValues;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.Sort;
import org.apache.lucene.search.SortField;
import org.apache.lucene.search.TermInSetQuery;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.util.BytesRef;

/**
 * A durable {@link RecordStore} on a Lucene index in one directory: one document per turn,
 * session marker, segment, record and evidence node, each holding its namespace, its kind and
 * its full value as stored JSON; turns and records also carry a BM25 text field with English
 * analysis.
 *
 * <p>Every write method is one commit: when it returns the change is on disk, and a crash
 * before that leaves none of it. Merges (records, nodes) read the stored version first under the
 * write lock. Lexical queries are built from analyzed tokens, never parsed, so no user text can
 * make them throw.
 *
 * <p>Recall reads the same turns, records, nodes and lexical hits many times per question; decoded
 * values are cached per reader version ({@link LuceneStoreConfig#readCacheMaxEntries()}), so every
 * commit retires them and a reader never sees another commit's data.
 */
public final class LuceneRecordStore implements RecordStore {
  private static final Sort BY_SEQ = new Sort(new SortField(StoreFields.SEQ, SortField.Type.LONG));
  private static final Sort BY_INDEX = new Sort(new SortField(StoreFields.INDEX, SortField.Type.INT));
  private static final Sort BY_INDEX_DESC = new Sort(new SortField(StoreFields.INDEX, SortField.Type.INT, true));
  private static final Sort BY_LAST_DESC = new Sort(new SortField(StoreFields.LAST, SortField.Type.INT, true));
  private static final Sort BY_SESSION_FIRST = new Sort(
      new SortField(StoreFields.SESSION_SORT, SortField.Type.STRING),
      new SortField(StoreFields.FIRST, SortField.Type.INT));
  private static final Sort BY_KEY = new Sort(new SortField(StoreFields.NODE_KEY, SortField.Type.STRING));

  private final LuceneStoreConfig config;
  private final Analyzer analyzer = new EnglishAnalyzer();
  private final LuceneIndex index;
  private final AtomicLong seq;
  private final ReaderCache cache;


  /** Opens (or creates) a store in {@code directory} with default settings. */
  public LuceneRecordStore(Path directory) {
    this(directory, LuceneStoreConfig.defaults());
  }

  /** Opens (or creates) a store in {@code directory}. */
  public LuceneRecordStore(Path directory, LuceneStoreConfig config) {
    this.config = Objects.requireNonNull(config, "config");
    this.index = new LuceneIndex(Objects.requireNonNull(directory, "directory"), analyzer, config);
    this.cache = new ReaderCache(config.readCacheMaxEntries());
    this.seq = new AtomicLong(index.read(LuceneRecordStore::maxSeq));
  }

  private static long maxSeq(IndexSearcher searcher) throws IOException {
    long max = 0;
    for (LeafReaderContext leaf : searcher.getIndexReader().leaves()) {
      NumericDocValues values = leaf.reader().getNumericDocValues(StoreFields.SEQ);
      if (values != null) {
        // read once at open; deleted documents count too, which only leaves a gap
        for (int doc = values.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = values.nextDoc()) {
          max = Math.max(max, values.longValue());
        }
      }
    }
    return max;
  }

  // ---- raw turns ----

  @Override
  public List<RawTurn> appendTurns(String namespace, String session, List<RawTurn> turns) {
    checkNamespace(namespace);
    checkSession(session);
    Objects.requireNonNull(turns, "turns");
    for (RawTurn t : turns) {
      Objects.requireNonNull(t, "turn");
      if (!t.namespace().equals(namespace)) {
        throw new IllegalArgumentException("turn " + t.id() + " belongs to namespace '" + t.namespace()
            + "', not '" + namespace + "'");
      }
      if (!t.session().equals(session)) {
        throw new IllegalArgumentException("turn " + t.id() + " belongs to session '" + t.session()
            + "', not '" + session + "'");
      }
    }
    index.ensureOpen();
    if (turns.isEmpty()) {
      return List.of();
    }
    return index.write((writer, searcher) -> {
      List<RawTurn> fresh = new ArrayList<>();
      Set<Integer> seen = new HashSet<>();
      for (RawTurn t : turns) {
        if (seen.add(t.index()) && searcher.count(new TermQuery(StoreFields.uid(KIND_TURN, namespace, t.id()))) == 0) {
          fresh.add(t);
        }
      }
      if (fresh.isEmpty()) {
        return List.<RawTurn>of();
      }
      Term sessionKey = StoreFields.uid(KIND_SESSION, namespace, session);
      if (searcher.count(new TermQuery(sessionKey)) == 0) {
        writer.addDocument(StoreDocuments.session(namespace, session, seq.incrementAndGet()));
      }
      for (RawTurn t : fresh) {
        writer.addDocument(StoreDocuments.turn(t, seq.incrementAndGet()));
      }
      return List.copyOf(fresh);
    });
  }

  @Override
  public int nextTurnIndex(String namespace, String session) {
    checkNamespace(namespace);
    checkSession(session);
    return index.read(s -> {
      List<Document> last = Hits.top(s, StoreFields.sessionScope(namespace, KIND_TURN, session), 1, BY_INDEX_DESC);
      return last.isEmpty() ? 0 : JsonCodec.turn(json(last.get(0))).index() + 1;
    });
  }

  @Override
  public Optional<RawTurn> turn(String namespace, TurnRef ref) {
    checkNamespace(namespace);
    Objects.requireNonNull(ref, "ref");
    return index.read(s -> Hits.byKey(s, StoreFields.uid(KIND_TURN, namespace, ref.id())))
        .map(d -> JsonCodec.turn(json(d)));
  }

  /** One query for all refs (a terms filter on the unique keys); decoded turns are cached. */
  @Override
  public List<RawTurn> turns(String namespace, Collection<TurnRef> refs) {
    checkNamespace(namespace);
    Objects.requireNonNull(refs, "refs");
    List<TurnRef> wanted = List.copyOf(new LinkedHashSet<>(refs));
    Map<String, RawTurn> found = cachedByIds(namespace, KIND_TURN, 't',
        wanted.stream().map(r -> Objects.requireNonNull(r, "ref").id()).toList(), JsonCodec::turn);
    return wanted.stream().map(r -> found.get(r.id())).filter(Objects::nonNull).toList();
  }

  @Override
  public List<RawTurn> turns(String namespace, String session, int from, int to) {
    checkNamespace(namespace);
    checkSession(session);
    if (from > to) {
      return List.of();
    }
    Query q = StoreFields.scope(namespace, KIND_TURN)
        .add(new TermQuery(new Term(StoreFields.SESSION, session)), BooleanClause.Occur.FILTER)
        // doc values range: the session filter already narrows to a few docs, so no points index is needed
        .add(NumericDocValuesField.newSlowRangeQuery(StoreFields.INDEX, from, to), BooleanClause.Occur.FILTER)
        .build();
    // source windows ask for the same short ranges route after route
    return index.read(s -> cache.get(s, new VersionedCache.Key('w', namespace, List.of(session, from, to)),
        () -> Hits.all(s, q, BY_INDEX).stream().map(d -> JsonCodec.turn(json(d))).toList()));
  }

  @Override
  public List<RawTurn> turns(String namespace, String session) {
    checkNamespace(namespace);
    checkSession(session);
    Query q = StoreFields.sessionScope(namespace, KIND_TURN, session);
    return index.read(s -> Hits.all(s, q, BY_INDEX)).stream().map(d -> JsonCodec.turn(json(d))).toList();
  }

  @Override
  public List<String> sessions(String namespace) {
    checkNamespace(namespace);
    return index.read(s -> Hits.all(s, StoreFields.scope(namespace, KIND_SESSION).build(), BY_SEQ))
        .stream().map(d -> d.get(StoreFields.ID)).toList();
  }

  @Override
  public List<String> namespaces() {
    Query q = new TermQuery(new Term(StoreFields.DOC, KIND_SESSION));
    return index.read(s -> {
      // namespaces in the order their first session was stored
      Set<String> out = new LinkedHashSet<>();
      for (Document d : Hits.all(s, q, BY_SEQ)) {
        out.add(d.get(StoreFields.NS));
      }
      return List.copyOf(out);
    });
  }

  @Override
  public long countTurns(String namespace) {
    checkNamespace(namespace);
    return index.read(s -> (long) s.count(StoreFields.scope(namespace, KIND_TURN).build()));
  }

  // ---- segments ----

  @Override
  public void putSegment(Segment segment, SegmentState state) {
    Objects.requireNonNull(segment, "segment");
    Objects.requireNonNull(state, "state");
    StoredSegment stored = new StoredSegment(segment, state, null);
    index.write((writer, searcher) -> {
      writer.updateDocument(StoreFields.uid(KIND_SEGMENT, segment.namespace(), segment.id()),
          StoreDocuments.segment(stored));
      return null;
    });
  }

  @Override
  public void setSegmentState(String namespace, String segmentId, SegmentState state, String error) {
    checkNamespace(namespace);
    Objects.requireNonNull(segmentId, "segmentId");
    Objects.requireNonNull(state, "state");
    index.write((writer, searcher) -> {
      StoredSegment current = storedSegment(searcher, namespace, segmentId);
      writer.updateDocument(StoreFields.uid(KIND_SEGMENT, namespace, segmentId),
          StoreDocuments.segment(new StoredSegment(current.segment(), state, error)));
      return null;
    });
  }

  @Override
  public List<StoredSegment> segments(String namespace) {
    checkNamespace(namespace);
    return index.read(s -> cache.get(s, new VersionedCache.Key('g', namespace, ""),
        () -> Hits.all(s, StoreFields.scope(namespace, KIND_SEGMENT).build(), BY_SESSION_FIRST)
            .stream().map(d -> JsonCodec.segment(json(d))).toList()));
  }

  @Override
  public int segmentedThrough(String namespace, String session) {
    checkNamespace(namespace);
    checkSession(session);
    return index.read(s -> {
      List<Document> top = Hits.top(s, StoreFields.sessionScope(namespace, KIND_SEGMENT, session), 1, BY_LAST_DESC);
      return top.isEmpty() ? -1 : JsonCodec.segment(json(top.get(0))).segment().lastIndex();
    });
  }

  @Override
  public void commitEncoding(String namespace, String segmentId, List<MemoryRecord> records, List<EvidenceNode> nodes) {
    checkNamespace(namespace);
    Objects.requireNonNull(segmentId, "segmentId");
    checkOwned(namespace, records, MemoryRecord::namespace);
    checkOwned(namespace, nodes, EvidenceNode::namespace);
    // one write call = one commit: records, nodes and the state change become visible together
    index.write((writer, searcher) -> {
      StoredSegment current = storedSegment(searcher, namespace, segmentId);
      writeRecords(writer, searcher, namespace, records);
      writeNodes(writer, searcher, namespace, nodes);
      writer.updateDocument(StoreFields.uid(KIND_SEGMENT, namespace, segmentId),
          StoreDocuments.segment(new StoredSegment(current.segment(), SegmentState.ENCODED, null)));
      return null;
    });
  }

  private static StoredSegment storedSegment(IndexSearcher searcher, String namespace, String segmentId)
      throws IOException {
    return Hits.byKey(searcher, StoreFields.uid(KIND_SEGMENT, namespace, segmentId))
        .map(d -> JsonCodec.segment(json(d)))
        .orElseThrow(() -> new IllegalArgumentException("no segment " + segmentId + " in namespace " + namespace));
  }

  // ---- records ----

  @Override
  public void putRecords(String namespace, List<MemoryRecord> records) {
    checkNamespace(namespace);
    checkOwned(namespace, records, MemoryRecord::namespace);
    if (records.isEmpty()) {
      index.ensureOpen();
      return;
    }
    index.write((writer, searcher) -> {
      writeRecords(writer, searcher, namespace, records);
      return null;
    });
  }

  /** Merges each record into its stored version (or an earlier one of this call) and writes it. */
  private void writeRecords(IndexWriter writer, IndexSearcher searcher, String namespace, List<MemoryRecord> records)
      throws IOException {
    Map<String, MemoryRecord> merged = new LinkedHashMap<>();
    Map<String, Long> seqs = new HashMap<>();
    for (MemoryRecord r : records) {
      MemoryRecord base = merged.get(r.id());
      if (base == null) {
        Optional<Document> stored = Hits.byKey(searcher, StoreFields.uid(KIND_RECORD, namespace, r.id()));
        if (stored.isPresent()) {
          base = JsonCodec.record(json(stored.get()));
          seqs.put(r.id(), seqOf(stored.get()));
        }
      }
      merged.put(r.id(), base == null ? r : base.mergedWith(r));
    }
    for (MemoryRecord r : merged.values()) {
      long s = seqs.computeIfAbsent(r.id(), id -> seq.incrementAndGet());
      writer.updateDocument(StoreFields.uid(KIND_RECORD, namespace, r.id()), StoreDocuments.record(r, s));
    }
  }

  @Override
  public Optional<MemoryRecord> record(String namespace, String id) {
    checkNamespace(namespace);
    Objects.requireNonNull(id, "id");
    return index.read(s -> Hits.byKey(s, StoreFields.uid(KIND_RECORD, namespace, id)))
        .map(d -> JsonCodec.record(json(d)));
  }

  @Override
  public List<MemoryRecord> records(String namespace, Collection<String> ids) {
    checkNamespace(namespace);
    Objects.requireNonNull(ids, "ids");
    Map<String, MemoryRecord> found = cachedByIds(namespace, KIND_RECORD, 'r', ids, JsonCodec::record);
    return ids.stream().distinct().map(found::get).filter(Objects::nonNull).toList();
  }

  @Override
  public List<MemoryRecord> records(String namespace) {
    checkNamespace(namespace);
    return recordsMatching(new VersionedCache.Key('a', namespace, ""), StoreFields.scope(namespace, KIND_RECORD).build());
  }

  @Override
  public List<MemoryRecord> recordsByType(String namespace, MemoryType type) {
    checkNamespace(namespace);
    Objects.requireNonNull(type, "type");
    return recordsMatching(new VersionedCache.Key('y', namespace, type), StoreFields.scope(namespace, KIND_RECORD)
        .add(new TermQuery(new Term(StoreFields.RECORD_TYPE, type.wireName())), BooleanClause.Occur.FILTER)
        .build());
  }

  @Override
  public List<MemoryRecord> recordsInRange(String namespace, DateRange range) {
    checkNamespace(namespace);
    Objects.requireNonNull(range, "range");
    long start = range.start() == null ? Long.MIN_VALUE : range.start().toEpochDay();
    long end = range.end() == null ? Long.MAX_VALUE : range.end().toEpochDay();
    // overlap: the record starts no later than the range ends and ends no earlier than it starts
    return recordsMatching(new VersionedCache.Key('d', namespace, List.of(start, end)), StoreFields.scope(namespace, KIND_RECORD)
        .add(LongPoint.newRangeQuery(StoreFields.SPAN_START, Long.MIN_VALUE, end), BooleanClause.Occur.FILTER)
        .add(LongPoint.newRangeQuery(StoreFields.SPAN_END, start, Long.MAX_VALUE), BooleanClause.Occur.FILTER)
        .build());
  }

  /** Decoded records matching {@code q} in first-insertion order, cached under {@code key} per reader version. */
  private List<MemoryRecord> recordsMatching(VersionedCache.Key key, Query q) {
    return index.read(s -> cache.get(s, key,
        () -> Hits.all(s, q, BY_SEQ).stream().map(d -> JsonCodec.record(json(d))).toList()));
  }

  // ---- evidence nodes ----

  @Override
  public void putNodes(String namespace, List<EvidenceNode> nodes) {
    checkNamespace(namespace);
    checkOwned(namespace, nodes, EvidenceNode::namespace);
    if (nodes.isEmpty()) {
      index.ensureOpen();
      return;
    }
    index.write((writer, searcher) -> {
      writeNodes(writer, searcher, namespace, nodes);
      return null;
    });
  }

  private void writeNodes(IndexWriter writer, IndexSearcher searcher, String namespace, List<EvidenceNode> nodes)
      throws IOException {
    Map<String, EvidenceNode> merged = new LinkedHashMap<>();
    Map<String, Long> seqs = new HashMap<>();
    for (EvidenceNode n : nodes) {
      EvidenceNode base = merged.get(n.id());
      if (base == null) {
        Optional<Document> stored = Hits.byKey(searcher, StoreFields.uid(KIND_NODE, namespace, n.id()));
        if (stored.isPresent()) {
          base = JsonCodec.node(json(stored.get()));
          seqs.put(n.id(), seqOf(stored.get()));
        }
      }
      merged.put(n.id(), base == null ? n : base.mergedWith(n));
    }
    for (EvidenceNode n : merged.values()) {
      long s = seqs.computeIfAbsent(n.id(), id -> seq.incrementAndGet());
      writer.updateDocument(StoreFields.uid(KIND_NODE, namespace, n.id()), StoreDocuments.node(n, s));
    }
  }

  @Override
  public Optional<EvidenceNode> node(String namespace, String id) {
    checkNamespace(namespace);
    Objects.requireNonNull(id, "id");
    return index.read(s -> Hits.byKey(s, StoreFields.uid(KIND_NODE, namespace, id)))
        .map(d -> JsonCodec.node(json(d)));
  }

  @Override
  public List<EvidenceNode> nodes(String namespace, Collection<String> ids) {
    checkNamespace(namespace);
    Objects.requireNonNull(ids, "ids");
    Map<String, EvidenceNode> found = cachedByIds(namespace, KIND_NODE, 'n', ids, JsonCodec::node);
    return ids.stream().distinct().map(found::get).filter(Objects::nonNull).toList();
  }

  @Override
  public List<EvidenceNode> nodes(String namespace, NodeKind kind) {
    checkNamespace(namespace);
    Objects.requireNonNull(kind, "kind");
    Query q = StoreFields.scope(namespace, KIND_NODE)
        .add(new TermQuery(new Term(StoreFields.NODE_KIND, kind.wireName())), BooleanClause.Occur.FILTER)
        .build();
    return index.read(s -> cache.get(s, new VersionedCache.Key('k', namespace, kind),
        () -> Hits.all(s, q, BY_KEY).stream().map(d -> JsonCodec.node(json(d))).toList()));
  }

  /**
   * Decoded values of one document kind by id: those cached at the current reader version, the
   * rest in one query (a terms filter on the unique keys) whose results are cached in turn.
   */
  private <T> Map<String, T> cachedByIds(String namespace, String kind, char what, Collection<String> ids,
      java.util.function.Function<String, T> decode) {
    if (ids.isEmpty()) {
      index.ensureOpen();
      return Map.of();
    }
    return index.read(s -> {
      long version = ReaderCache.version(s);
      Map<String, T> found = new HashMap<>();
      List<BytesRef> keys = new ArrayList<>();
      for (String id : new LinkedHashSet<>(ids)) {
        T cached = cache.get(version, new VersionedCache.Key(what, namespace, Objects.requireNonNull(id, "id")));
        if (cached != null) {
          found.put(id, cached);
        } else {
          keys.add(new BytesRef(StoreFields.uid(kind, namespace, id).text()));
        }
      }
      if (!keys.isEmpty()) {
        var stored = s.storedFields();
        Set<String> fields = Set.of(StoreFields.ID, StoreFields.JSON);
        TopDocs td = s.search(new TermInSetQuery(StoreFields.UID, keys), keys.size());
        for (ScoreDoc sd : td.scoreDocs) {
          Document d = stored.document(sd.doc, fields);
          T value = decode.apply(json(d));
          found.put(d.get(StoreFields.ID), value);
          cache.put(version, new VersionedCache.Key(what, namespace, d.get(StoreFields.ID)), value);
        }
      }
      return found;
    });
  }

  // ---- lexical search ----

  @Override
  public List<ScoredId> searchText(String namespace, TextField field, String query, int k) {
    checkNamespace(namespace);
    Objects.requireNonNull(field, "field");
    if (k <= 0) {
      throw new IllegalArgumentException("k must be > 0: " + k);
    }
    String kind = field == TextField.TURNS ? KIND_TURN : KIND_RECORD;
    Optional<Query> q = LexicalQuery.build(analyzer, StoreFields.TEXT, query, config.maxQueryTerms(),
        StoreFields.scope(namespace, kind).build());
    if (q.isEmpty()) {
      index.ensureOpen();
      return List.of();
    }
    // routes of one question repeat their variants, so identical searches are common
    return index.read(s -> cache.get(s, new VersionedCache.Key('s', namespace, List.of(kind, query, k)), () -> {
      // never ask Lucene for a priority queue larger than the index
      TopDocs td = s.search(q.get(), Math.min(k, Math.max(1, s.getIndexReader().maxDoc())));
      var stored = s.storedFields();
      List<ScoredId> hits = new ArrayList<>(td.scoreDocs.length);
      for (ScoreDoc sd : td.scoreDocs) {
        hits.add(new ScoredId(stored.document(sd.doc, Set.of(StoreFields.ID)).get(StoreFields.ID), sd.score));
      }
      return List.copyOf(hits);
    }));
  }

  // ---- deletion ----

  @Override
  public Forgotten forget(String namespace) {
    checkNamespace(namespace);
    return index.write((writer, searcher) -> {
      Forgotten gone = new Forgotten(
          ids(searcher, StoreFields.scope(namespace, KIND_TURN).build(), BY_SEQ),
          ids(searcher, StoreFields.scope(namespace, KIND_RECORD).build(), BY_SEQ),
          ids(searcher, StoreFields.scope(namespace, KIND_NODE).build(), BY_SEQ));
      writer.deleteDocuments(new Term(StoreFields.NS, namespace));
      return gone;
    });
  }

  @Override
  public Forgotten forget(String namespace, String session) {
    checkNamespace(namespace);
    checkSession(session);
    return index.write((writer, searcher) -> new SessionEraser(writer, searcher, namespace, session).erase());
  }

  /** Removes one session and prunes what cited it; runs inside one write call. */
  private final class SessionEraser {
    private final IndexWriter writer;
    private final IndexSearcher searcher;
    private final String namespace;
    private final String session;

    SessionEraser(IndexWriter writer, IndexSearcher searcher, String namespace, String session) {
      this.writer = writer;
      this.searcher = searcher;
      this.namespace = namespace;
      this.session = session;
    }

    Forgotten erase() throws IOException {
      List<String> turnIds = ids(searcher, StoreFields.sessionScope(namespace, KIND_TURN, session), BY_INDEX);
      writer.deleteDocuments(StoreFields.sessionScope(namespace, KIND_TURN, session),
          StoreFields.sessionScope(namespace, KIND_SEGMENT, session),
          StoreFields.sessionScope(namespace, KIND_SESSION, session));

      List<String> removedRecords = new ArrayList<>();
      for (Document d : Hits.all(searcher, StoreFields.sessionScope(namespace, KIND_RECORD, session), BY_SEQ)) {
        MemoryRecord r = JsonCodec.record(json(d));
        MemoryRecord kept = SessionPruning.withoutSession(r, session);
        Term key = StoreFields.uid(KIND_RECORD, namespace, r.id());
        if (kept == null) {
          writer.deleteDocuments(key);
          removedRecords.add(r.id());
        } else if (kept != r) {
          writer.updateDocument(key, StoreDocuments.record(kept, seqOf(d)));
        }
      }
      return new Forgotten(turnIds, removedRecords, pruneNodes(Set.copyOf(removedRecords)));
    }

    /** Nodes lose removed records and links to the erased session; nodes left without records go. */
    private List<String> pruneNodes(Set<String> removedRecords) throws IOException {
      BooleanQuery.Builder touching = new BooleanQuery.Builder()
          .add(new TermQuery(new Term(StoreFields.SESSION, session)), BooleanClause.Occur.SHOULD);
      if (!removedRecords.isEmpty()) {
        touching.add(new TermInSetQuery(StoreFields.NODE_RECORD,
            removedRecords.stream().map(BytesRef::new).toList()), BooleanClause.Occur.SHOULD);
      }
      Query q = StoreFields.scope(namespace, KIND_NODE).add(touching.build(), BooleanClause.Occur.MUST).build();
      List<String> removedNodes = new ArrayList<>();
      for (Document d : Hits.all(searcher, q, BY_SEQ)) {
        EvidenceNode n = JsonCodec.node(json(d));
        EvidenceNode kept = SessionPruning.withoutRecords(n, removedRecords, session);
        Term key = StoreFields.uid(KIND_NODE, namespace, n.id());
        if (kept == null) {
          writer.deleteDocuments(key);
          removedNodes.add(n.id());
        } else if (kept != n) {
          writer.updateDocument(key, StoreDocuments.node(kept, seqOf(d)));
        }
      }
      return removedNodes;
    }
  }

  private static List<String> ids(IndexSearcher searcher, Query q, Sort sort) throws IOException {
    return Hits.all(searcher, q, sort).stream().map(d -> d.get(StoreFields.ID)).toList();
  }

  @Override
  public void close() {
    index.close();
  }

  // ---- helpers ----

  private static String json(Document d) {
    return d.get(StoreFields.JSON);
  }

  private static long seqOf(Document d) {
    return d.getField(StoreFields.SEQ).numericValue().longValue();
  }

  private static <T> void checkOwned(String namespace, List<T> values, java.util.function.Function<T, String> ns) {
    Objects.requireNonNull(values, "values");
    for (T v : values) {
      Objects.requireNonNull(v, "value");
      if (!ns.apply(v).equals(namespace)) {
        throw new IllegalArgumentException("value of namespace " + ns.apply(v) + " passed for " + namespace);
      }
    }
  }

  private static void checkNamespace(String namespace) {
    Objects.requireNonNull(namespace, "namespace");
    if (namespace.isBlank()) {
      throw new IllegalArgumentException("namespace must not be blank");
    }
  }

  private static void checkSession(String session) {
    Objects.requireNonNull(session, "session");
    if (session.isBlank()) {
      throw new IllegalArgumentException("session must not be blank");
    }
  }
}
