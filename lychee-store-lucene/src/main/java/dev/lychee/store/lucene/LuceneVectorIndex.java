package dev.lychee.store.lucene;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.lychee.api.ScoredId;
import dev.lychee.api.spi.VectorIndex;
import dev.lychee.core.vector.VectorSlab;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;
import org.apache.lucene.analysis.core.KeywordAnalyzer;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.FieldExistsQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.KnnFloatVectorQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TopDocs;

/**
 * A durable {@link VectorIndex} on Lucene's vector fields, in one directory: one document per
 * (namespace, kind, id), vectors stored unit-length with {@code DOT_PRODUCT} similarity.
 *
 * <p>Layout: a vector is in one of two fields of its dimension ({@link VectorFields}): the flat
 * field ({@link LycheeFlatVectorsFormat}, no graph) or the graph field ({@link
 * LycheeHnswVectorsFormat}, each segment builds an HNSW graph of it, and each merge again). A write
 * of {@code n} vectors to a logical index holding {@code c} goes to the flat field when {@code c +
 * n <= }{@link LuceneStoreConfig#exactSearchMaxVectors()}, else to the graph field (always, with
 * {@link LuceneStoreConfig#alwaysBuildGraphs()}); an upsert of an existing id replaces its document
 * in the field the rule gives now. So an index that never holds more vectors than the bound, which
 * is only ever scanned exactly, builds no graph, and the flat part of a larger one holds at most the
 * bound. The write knows {@code c} without reopening the searchers from bounds it keeps per index
 * and per writer (counted exactly on a current view when they cannot decide), and a replay of the
 * write-ahead log counts it on its view, which holds every entry before: the same rule on the same
 * index, so both put a vector in the same field. Why: Lucene's HNSW format built graphs on every
 * flush and merge that no search read, three fifths of the merge threads' samples in an ingest
 * below the bound (round twenty-four, measurements.md §6). Indexes written before round
 * twenty-five hold every vector in the graph field and are read as they are.
 *
 * <p>Searching: a logical index of at most {@link LuceneStoreConfig#exactSearchMaxVectors()}
 * vectors is scanned exactly, both fields, from an in-memory copy read once per commit (bounded by
 * {@link LuceneStoreConfig#vectorCacheMaxBytes()}, and tied to the reader version it was read at, so a
 * search never sees vectors of another commit than its searcher); a larger one runs a {@link
 * KnnFloatVectorQuery} on the graph field whose filter is the (namespace, kind) scope, so the graph
 * never returns another index's ids, and scans the index's flat part exactly (one walk of it for
 * all the queries of a {@link #searchAll}); the two are merged to the top {@code k}. With a caller filter the graph fetch is widened ({@link
 * LuceneStoreConfig#widenedFetch}), post-filtered, and if the hits of both parts are still short of
 * {@code k} an exact scan of both fields with the filter answers instead. Lucene's {@code
 * DOT_PRODUCT} score is {@code (1 + dot) / 2}; it is mapped back to the cosine {@code 2 * score - 1}.
 *
 * <p>Every write call is durable when it returns, like the record store's: {@link #upsert} and
 * {@link #upsertAll} through the index's write-ahead log (one synced entry of the unit vectors,
 * {@link LoggedVectors}; the Lucene commit follows within {@link LuceneStoreConfig#deferredCommit()},
 * and on open the entries no commit holds are replayed), removals through a commit of their own;
 * the vectors of raw turns are not logged (see {@link #upsert}).
 */
public final class LuceneVectorIndex implements VectorIndex {
  private final LuceneStoreConfig config;
  private final LuceneIndex index;
  /** Small indexes held in memory for exact scans, each valid for the reader version it was loaded at. */
  private final Cache<SlabKey, Loaded> slabs;

  private record SlabKey(String namespace, String kind) {}

  /**
   * What this process knows of each index it wrote: its dimension and bounds on its size. A
   * deferred write's work may run on searchers not yet reopened for the writes just before it
   * ({@link LuceneStoreConfig#refreshOnRead()}), which would let a second dimension start an index
   * the first one has just started, and would count the index short; written under the index's
   * write lock, dropped when the index may have been emptied (remove, forget), and not trusted
   * under another writer than it was learnt with (a rollback drops the deferred writes it counted).
   */
  private final ConcurrentHashMap<SlabKey, Known> known = new ConcurrentHashMap<>();

  /**
   * One index as its writes left it.
   *
   * @param writer the writer the writes went to
   * @param dimension its vectors' dimension
   * @param atLeast at most as many vectors as it holds (the last exact count, or a write's size)
   * @param atMost at least as many as it holds (the last exact count plus every vector written
   *     since, replacements counted as new)
   */
  private record Known(IndexWriter writer, int dimension, long atLeast, long atMost) {}

  private record Loaded(long version, LoadedVectors slab) {}

  /** Opens (or creates) an index in {@code directory} with default settings. */
  public LuceneVectorIndex(Path directory) {
    this(directory, LuceneStoreConfig.defaults());
  }

  /** Opens (or creates) an index in {@code directory}. */
  public LuceneVectorIndex(Path directory, LuceneStoreConfig config) {
    this.config = Objects.requireNonNull(config, "config");
    this.index = new LuceneIndex(Objects.requireNonNull(directory, "directory"), new KeywordAnalyzer(), config);
    this.slabs = Caffeine.newBuilder()
        .maximumWeight(Math.max(1, config.vectorCacheMaxBytes()))
        .weigher((SlabKey k, Loaded v) -> (int) Math.min(Integer.MAX_VALUE, v.slab().bytes()))
        .build();
    // vector writes other than the turns' are logged (see write); what no commit holds comes back
    index.recover((writer, searcher, entry) -> {
      // the replay's searcher holds every entry before this one: count each index on it
      LoggedVectors logged = LoggedVectors.parse(entry);
      Map<String, Boolean> toGraph = new HashMap<>();
      for (LoggedVectors.Kind k : logged.kinds()) {
        long count = searcher.count(new TermQuery(VectorFields.scope(logged.namespace(), k.kind())));
        toGraph.put(k.kind(), graph(count, k.unit().size()));
      }
      logged.apply(writer, k -> toGraph.get(k.kind()));
    });
  }

  /**
   * Writes one kind's vectors. The vectors of raw turns ({@link #TURNS}) are visible at once but
   * committed within {@link LuceneStoreConfig#deferredCommit()}: the write path rebuilds them from
   * the stored turns, so an {@code append} does not wait for a second commit after its turn's.
   */
  @Override
  public void upsert(String namespace, String kind, Map<String, float[]> vectors) {
    write(namespace, List.of(prepare(namespace, kind, vectors)), TURNS.equals(kind));
  }

  /**
   * Every kind's vectors in one write, hence one commit: a segment's records and node kinds would
   * otherwise commit (and flush a tiny Lucene segment, with its own HNSW graph to build and later
   * merge) once per kind. Atomic: all kinds or none.
   */
  @Override
  public void upsertAll(String namespace, Map<String, Map<String, float[]>> vectorsByKind) {
    Objects.requireNonNull(vectorsByKind, "vectorsByKind");
    List<Prepared> all = new ArrayList<>(vectorsByKind.size());
    vectorsByKind.forEach((kind, vectors) -> all.add(prepare(namespace, kind, vectors)));
    write(namespace, all, false);
  }

  /** One kind's checked, unit-length vectors. */
  private record Prepared(String kind, int dimension, List<Map.Entry<String, float[]>> unit) {}

  private Prepared prepare(String namespace, String kind, Map<String, float[]> vectors) {
    checkName(namespace, "namespace");
    checkName(kind, "kind");
    Objects.requireNonNull(vectors, "vectors");
    int dim = -1;
    for (Map.Entry<String, float[]> e : vectors.entrySet()) {
      checkName(e.getKey(), "id");
      float[] v = Objects.requireNonNull(e.getValue(), "vector of " + e.getKey());
      if (dim >= 0 && v.length != dim) {
        throw new IllegalArgumentException("mixed dimensions in one upsert: " + dim + " and " + v.length);
      }
      dim = v.length;
    }
    if (!vectors.isEmpty() && (dim < 1 || dim > LycheeHnswVectorsFormat.MAX_DIMENSIONS)) {
      throw new IllegalArgumentException("vector dimension must be in [1, "
          + LycheeHnswVectorsFormat.MAX_DIMENSIONS + "]: " + dim);
    }
    List<Map.Entry<String, float[]>> unit = new ArrayList<>(vectors.size());
    for (Map.Entry<String, float[]> e : vectors.entrySet()) {
      unit.add(Map.entry(e.getKey(), UnitVectors.normalized(e.getValue(), e.getKey())));
    }
    return new Prepared(kind, dim, unit);
  }

  private void write(String namespace, List<Prepared> kinds, boolean deferred) {
    index.ensureOpen();
    List<Prepared> nonEmpty = kinds.stream().filter(p -> !p.unit().isEmpty()).toList();
    if (nonEmpty.isEmpty()) {
      return;
    }
    LoggedVectors vectors = new LoggedVectors(namespace,
        nonEmpty.stream().map(p -> new LoggedVectors.Kind(p.kind(), p.unit())).toList());
    LuceneIndex.WriteWork<Void> work = (writer, searcher) -> {
      Map<String, Boolean> toGraph = new HashMap<>();
      Map<SlabKey, Known> after = new HashMap<>();
      for (Prepared p : nonEmpty) {
        SlabKey key = new SlabKey(namespace, p.kind());
        int n = p.unit().size();
        Known k = known.get(key);
        if (!settled(k, writer, n)) {
          // currentView said so under this lock, for this very map: the searcher holds every write
          long count = searcher.count(new TermQuery(VectorFields.scope(namespace, p.kind())));
          int dimension = count == 0 ? 0
              : k != null && k.writer() == writer ? k.dimension() : storedDimension(searcher, namespace, p.kind());
          k = new Known(writer, dimension, count, count);
        }
        if (k.dimension() > 0 && k.dimension() != p.dimension()) {
          throw new IllegalArgumentException("index " + namespace + "/" + p.kind() + " holds vectors of dimension "
              + k.dimension() + ", got " + p.dimension());
        }
        toGraph.put(p.kind(), graph(k.atLeast(), n));
        after.put(key, new Known(writer, p.dimension(), Math.max(k.atLeast(), n), k.atMost() + n));
      }
      vectors.apply(writer, k -> toGraph.get(k.kind()));
      known.putAll(after);
      return null;
    };
    // the work reads its searcher only for an index whose dimension or layout its bounds do not
    // give: otherwise the searchers need no reopen first (the map changes under the write lock,
    // where this is asked)
    BooleanSupplier currentView = () -> !nonEmpty.stream().allMatch(
        p -> settled(known.get(new SlabKey(namespace, p.kind())), index.currentWriter(), p.unit().size()));
    if (deferred) {
      index.writeDeferred(work, currentView);
    } else {
      // one synced log entry instead of a commit of its own (round nineteen: with the record store's
      // encoding commit, two commits per segment were the largest cost of an ingest outside the
      // embedder, measurements.md §6); encoded before the lock is taken. Every kind's vectors are
      // one writer call, so no commit lock is needed (round twenty-one, see LoggedVectors#apply)
      byte[] entry = vectors.toBytes();
      index.writeLogged((writer, searcher) -> {
        work.run(writer, searcher);
        return new LuceneIndex.Logged<>(null, entry);
      }, currentView);
    }
  }

  /**
   * Whether a write of {@code n} vectors to an index holding {@code before} goes to the graph field
   * (see the class comment): the rule of the live write and of a replay alike.
   */
  private boolean graph(long before, int n) {
    return config.alwaysBuildGraphs() || before + n > config.exactSearchMaxVectors();
  }

  /**
   * Whether what is known of an index, learnt with {@code writer}, gives its dimension and the
   * field a write of {@code n} vectors goes to, with no count on a current view: its size bounds
   * fall on the same side of the rule.
   */
  private boolean settled(Known k, IndexWriter writer, int n) {
    return k != null && k.writer() == writer && graph(k.atLeast(), n) == graph(k.atMost(), n);
  }

  @Override
  public List<ScoredId> search(String namespace, String kind, float[] query, int k, Predicate<String> filter) {
    return searchAll(namespace, kind, List.of(Objects.requireNonNull(query, "query")), k, filter).get(0);
  }

  /**
   * All queries against one searcher: an index held in memory is scanned once for all of them
   * ({@link VectorSlab#search(List, int, Predicate)}); otherwise each query runs as
   * {@link #search} describes.
   */
  @Override
  public List<List<ScoredId>> searchAll(String namespace, String kind, List<float[]> queries, int k,
      Predicate<String> filter) {
    checkName(namespace, "namespace");
    checkName(kind, "kind");
    Objects.requireNonNull(queries, "queries");
    queries.forEach(q -> Objects.requireNonNull(q, "query"));
    if (k <= 0) {
      throw new IllegalArgumentException("k must be > 0: " + k);
    }
    return index.read(searcher -> {
      long version = ReaderCache.version(searcher);
      SlabKey key = new SlabKey(namespace, kind);
      Loaded loaded = current(key, version);
      Query scope = new TermQuery(VectorFields.scope(namespace, kind));
      int size = loaded != null ? loaded.slab().size() : searcher.count(scope);
      if (size == 0) {
        return queries.stream().map(q -> List.<ScoredId>of()).toList();
      }
      int dim = loaded != null ? loaded.slab().dimension() : storedDimension(searcher, namespace, kind);
      List<float[]> unit = new ArrayList<>(queries.size());
      for (float[] query : queries) {
        if (query.length != dim) {
          throw new IllegalArgumentException("query has dimension " + query.length + ", index " + namespace + "/"
              + kind + " holds " + dim);
        }
        unit.add(UnitVectors.normalizedOrZero(query));
      }
      if (size > config.exactSearchMaxVectors()) {
        return approximate(searcher, scope, dim, unit, k, filter, size);
      }
      List<String> fields = bothFields(dim);
      if (loaded == null && config.vectorCacheMaxBytes() > 0) {
        // one scan of the files fills the slab; the searches until the next commit then run in memory
        loaded = new Loaded(version, new LoadedVectors(ExactVectorScan.all(searcher, scope, fields)));
        keep(key, loaded);
      }
      if (loaded != null) {
        return loaded.slab().search(unit, k, filter);
      }
      return ExactVectorScan.scanAll(searcher, scope, fields, unit, k, filter).stream()
          .map(ExactVectorScan.Scanned::hits).toList();
    });
  }

  /** The slab of {@code key} loaded at exactly this reader version, or null. */
  private Loaded current(SlabKey key, long version) {
    Loaded l = slabs.getIfPresent(key);
    return l != null && l.version() == version ? l : null;
  }

  /** Keeps a freshly loaded slab unless a newer version's slab is there already. */
  private void keep(SlabKey key, Loaded loaded) {
    slabs.asMap().merge(key, loaded, (old, fresh) -> old.version() > fresh.version() ? old : fresh);
  }

  /** Both vector fields of a dimension, the flat one first (see {@link LiveVectors}). */
  private static List<String> bothFields(int dimension) {
    return List.of(VectorFields.flatField(dimension), VectorFields.graphField(dimension));
  }

  /**
   * The searches of an index above the bound: per query, the graph's best of its graph field and
   * the exact best of its flat part (at most the bound, see the class comment), merged. The flat part
   * is walked once for all the queries.
   */
  private List<List<ScoredId>> approximate(IndexSearcher searcher, Query scope, int dim, List<float[]> queries,
      int k, Predicate<String> filter, int size) throws IOException {
    String flatField = VectorFields.flatField(dim);
    Query flatPart = new BooleanQuery.Builder()
        .add(scope, BooleanClause.Occur.FILTER)
        .add(new FieldExistsQuery(flatField), BooleanClause.Occur.FILTER)
        .build();
    List<ExactVectorScan.Scanned> flat = ExactVectorScan.scanAll(searcher, flatPart, List.of(flatField), queries, k,
        filter);
    List<List<ScoredId>> out = new ArrayList<>(queries.size());
    for (int i = 0; i < queries.size(); i++) {
      out.add(withGraph(searcher, scope, dim, queries.get(i), k, filter, size, flat.get(i)));
    }
    return out;
  }

  /** One query's hits of the flat part merged with the graph's best (exactly, if a filter starves the graph). */
  private List<ScoredId> withGraph(IndexSearcher searcher, Query scope, int dim, float[] q, int k,
      Predicate<String> filter, int size, ExactVectorScan.Scanned flat) throws IOException {
    List<ScoredId> hits = new ArrayList<>(flat.hits());
    int graphSize = size - flat.scanned();
    if (graphSize > 0) {
      int fetch = Math.min(graphSize, filter == null ? k : config.widenedFetch(k));
      int candidates = Math.min(graphSize, Math.max(fetch, config.minCandidates()));
      TopDocs td = searcher.search(
          new KnnFloatVectorQuery(VectorFields.graphField(dim), q, candidates, scope), candidates);
      var stored = searcher.storedFields();
      for (ScoreDoc sd : td.scoreDocs) {
        String id = stored.document(sd.doc, java.util.Set.of(VectorFields.ID)).get(VectorFields.ID);
        if (filter == null || filter.test(id)) {
          // Lucene scores DOT_PRODUCT as (1 + dot) / 2
          hits.add(new ScoredId(id, 2.0 * sd.score - 1.0));
        }
      }
      if (filter != null && hits.size() < k && td.scoreDocs.length < graphSize) {
        // the filter rejected too much of what the graph returned: answer exactly
        return ExactVectorScan.search(searcher, scope, bothFields(dim), q, k, filter);
      }
    }
    hits.sort(ExactVectorScan.BEST_FIRST);
    return List.copyOf(hits.subList(0, Math.min(k, hits.size())));
  }

  @Override
  public void remove(String namespace, String kind, Collection<String> ids) {
    checkName(namespace, "namespace");
    checkName(kind, "kind");
    Objects.requireNonNull(ids, "ids");
    index.ensureOpen();
    if (ids.isEmpty()) {
      return;
    }
    Term[] keys = ids.stream().map(id -> VectorFields.uid(namespace, kind, Objects.requireNonNull(id, "id")))
        .toArray(Term[]::new);
    index.write((writer, searcher) -> {
      writer.deleteDocuments(keys);
      known.remove(new SlabKey(namespace, kind));
      return null;
    });
    // the commit retired the loaded copy already; dropping it frees the memory sooner
    slabs.invalidate(new SlabKey(namespace, kind));
  }

  @Override
  public void forget(String namespace) {
    checkName(namespace, "namespace");
    index.write((writer, searcher) -> {
      writer.deleteDocuments(new Term(VectorFields.NS, namespace));
      known.keySet().removeIf(key -> key.namespace().equals(namespace));
      return null;
    });
    slabs.asMap().keySet().removeIf(key -> key.namespace().equals(namespace));
  }

  @Override
  public int size(String namespace, String kind) {
    checkName(namespace, "namespace");
    checkName(kind, "kind");
    return index.read(s -> {
      Loaded loaded = current(new SlabKey(namespace, kind), ReaderCache.version(s));
      return loaded != null ? loaded.slab().size() : s.count(new TermQuery(VectorFields.scope(namespace, kind)));
    });
  }

  /** Waits for the index's deferred commit and merges ({@link LuceneIndex#awaitQuiet}). */
  @Override
  public boolean awaitQuiet(Duration timeout) {
    return index.awaitQuiet(Objects.requireNonNull(timeout, "timeout"));
  }

  /** The index the vectors are written to (for tests that hold its commits). */
  LuceneIndex index() {
    return index;
  }

  @Override
  public void close() {
    slabs.invalidateAll();
    index.close();
  }

  /** The dimension of an index's vectors, or 0 when it holds none (then any dimension may start it). */
  private static int storedDimension(IndexSearcher searcher, String namespace, String kind) throws IOException {
    TopDocs td = searcher.search(new TermQuery(VectorFields.scope(namespace, kind)), 1);
    if (td.scoreDocs.length == 0) {
      return 0;
    }
    return searcher.storedFields().document(td.scoreDocs[0].doc, java.util.Set.of(VectorFields.DIM))
        .getField(VectorFields.DIM).numericValue().intValue();
  }

  private static void checkName(String value, String name) {
    Objects.requireNonNull(value, name);
    if (value.isBlank()) {
      throw new IllegalArgumentException(name + " must not be blank");
    }
  }
}
