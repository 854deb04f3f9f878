package dev.lychee.store.lucene;

import java.io.IOException;
import java.util.Collection;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import org.apache.lucene.index.BinaryDocValues;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreMode;
import org.apache.lucene.search.Scorer;
import org.apache.lucene.search.Weight;
import org.apache.lucene.util.Bits;

/**
 * Decoded values of one document kind (turns, records, node links), kept per index segment and
 * namespace, for reads by id. A Lucene segment never changes once written: a write adds segments,
 * a merge replaces some by a new one, and an update or delete only marks the old document deleted
 * in the segment's live docs. So the values decoded from one segment stay exact for as long as the
 * segment lives, and a read by id asks each segment of its searcher's reader for the id and takes
 * the document that reader's live docs still hold (an update leaves exactly one live document per
 * unique key). A copy is dropped when its segment's core is closed (the segment was merged away or
 * the writer rolled back), so the copies follow the index's own generations: a new reader version
 * only adds copies for its new segments, on their first read.
 *
 * <p>Why: at scale 20 a recall reads a few hundred turns, records and node links by id, nearly all
 * for the first time (each question reaches different ones), so the per-reader-version cache could
 * not serve them; each read paid a term lookup per segment, a doc-values iterator opened per segment
 * and call (with a buffer of the field's longest value) and the JSON decode, where the memory store
 * answers from its maps (docs/defaults.md §3.3). The cost is the namespace's values held decoded, as
 * the memory store holds them, built once per segment on the first read by id that reaches it.
 *
 * <p>Only this process writes the directory (Lucene's write lock), and a searcher is a point-in-time
 * view, so the copy answers exactly what a search of the same searcher would, in every process.
 */
final class SegmentCopies<T> {
  /** A document of the copied kind in one segment: its segment-local number and decoded value. */
  private record Entry<T>(int doc, T value, Entry<T> older) {}

  /** One segment's copy for one namespace: id to its documents there (rarely more than one). */
  private record Copy<T>(Map<String, Entry<T>> byId) {}

  /** Which copy: a segment's core (its cache key) and a namespace. */
  private record Key(Object core, String namespace) {}

  private final String kind;
  private final Function<String, T> decode;
  private final ConcurrentHashMap<Key, Copy<T>> copies = new ConcurrentHashMap<>();
  /** Cores whose closing already drops their copies. */
  private final Set<Object> watched = ConcurrentHashMap.newKeySet();

  SegmentCopies(String kind, Function<String, T> decode) {
    this.kind = kind;
    this.decode = decode;
  }

  /**
   * The values of {@code ids} that {@code searcher} holds live, by id, or null when a segment of its
   * reader cannot be copied (no core cache key: not a segment of a directory reader), so that the
   * caller reads them as before.
   */
  Map<String, T> byIds(IndexSearcher searcher, String namespace, Collection<String> ids) throws IOException {
    List<LeafReaderContext> leaves = searcher.getIndexReader().leaves();
    // ids not found yet: each id has one live document, so a found id is not asked of later segments
    Set<String> missing = new LinkedHashSet<>(ids);
    Map<String, T> found = new HashMap<>();
    Weight scope = null;
    for (LeafReaderContext leaf : leaves) {
      if (missing.isEmpty()) {
        break;
      }
      IndexReader.CacheHelper core = leaf.reader().getCoreCacheHelper();
      if (core == null) {
        return null;
      }
      Key key = new Key(core.getKey(), namespace);
      Copy<T> copy = copies.get(key);
      if (copy == null) {
        if (scope == null) {
          Query q = StoreFields.scope(namespace, kind).build();
          scope = searcher.createWeight(searcher.rewrite(q), ScoreMode.COMPLETE_NO_SCORES, 1f);
        }
        copy = build(leaf, scope);
        watch(core);
        Copy<T> raced = copies.putIfAbsent(key, copy);
        if (raced != null) {
          copy = raced;
        }
      }
      if (copy.byId().isEmpty()) {
        continue;
      }
      Bits live = leaf.reader().getLiveDocs();
      for (Iterator<String> it = missing.iterator(); it.hasNext(); ) {
        String id = it.next();
        for (Entry<T> e = copy.byId().get(id); e != null; e = e.older()) {
          // the live docs of this searcher's reader decide which document is current
          if (live == null || live.get(e.doc())) {
            found.put(id, e.value());
            it.remove();
            break;
          }
        }
      }
    }
    return found;
  }

  /** How many segment copies are held (for tests). */
  int size() {
    return copies.size();
  }

  /** Drops a core's copies when Lucene closes it; registered once per core. */
  private void watch(IndexReader.CacheHelper core) {
    Object coreKey = core.getKey();
    if (watched.add(coreKey)) {
      core.addClosedListener(closed -> {
        copies.keySet().removeIf(k -> k.core() == closed);
        watched.remove(closed);
      });
    }
  }

  /**
   * Decodes every document of the kind and namespace in one segment, deleted ones included: a
   * copy outlives the reader that built it, and an older reader still in use may hold a document
   * a newer one has deleted.
   */
  private Copy<T> build(LeafReaderContext leaf, Weight scope) throws IOException {
    Map<String, Entry<T>> byId = new HashMap<>();
    Scorer scorer = scope.scorer(leaf);
    if (scorer == null) {
      return new Copy<>(Map.of());
    }
    LeafReader reader = leaf.reader();
    BinaryDocValues ids = reader.getBinaryDocValues(StoreFields.ID_VALUES);
    BinaryDocValues json = reader.getBinaryDocValues(StoreFields.JSON_VALUES);
    StoredFields stored = null;
    DocIdSetIterator docs = scorer.iterator();
    for (int doc = docs.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = docs.nextDoc()) {
      String id;
      String value;
      if (ids != null && ids.advanceExact(doc) && json != null && json.advanceExact(doc)) {
        id = ids.binaryValue().utf8ToString();
        value = json.binaryValue().utf8ToString();
      } else {
        // written before the doc values fields existed (DocIds)
        if (stored == null) {
          stored = reader.storedFields();
        }
        var d = stored.document(doc, Set.of(StoreFields.ID, StoreFields.JSON));
        id = d.get(StoreFields.ID);
        value = d.get(StoreFields.JSON);
      }
      byId.merge(id, new Entry<>(doc, decode.apply(value), null),
          (had, added) -> new Entry<>(added.doc(), added.value(), had));
    }
    return new Copy<>(byId);
  }
}
