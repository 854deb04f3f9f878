package dev.lychee.store.lucene;

import dev.lychee.core.store.MergeOnPut;
import dev.lychee.core.store.VersionedCache;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.function.LongSupplier;
import org.apache.lucene.document.Document;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.Sort;
import org.apache.lucene.search.TermInSetQuery;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.util.BytesRef;

/**
 * The documents of one kind whose value is stored as JSON (turns, records, nodes): looked up by id
 * in one query, decoded once per reader version, and, for the kinds that merge, written from a
 * {@link MergeOnPut} plan so that a merged value keeps its sequence number.
 */
final class JsonDocs<T> {
  /** Builds the document of a value at a sequence number. */
  @FunctionalInterface
  interface Encode<T> {
    Document document(T value, long seq);
  }

  private final LuceneIndex index;
  private final ReaderCache cache;
  private final String kind;
  private final char cacheLetter;
  private final Function<String, T> decode;
  /** Per-segment decoded copies that reads by id are answered from; null: not kept for this kind. */
  private final SegmentCopies<T> copies;
  /**
   * The index's change count after the last write of this kind's documents, which a read by id
   * must see ({@link LuceneIndex#read(LuceneIndex.ReadWork, LongSupplier)}); null: every write.
   */
  private final LongSupplier writtenAt;
  /** Merge reads so far ({@link #stored}), for tests. */
  private final AtomicLong lookups = new AtomicLong();
  /** JSON values decoded so far ({@link #decodes}), for tests. */
  private final AtomicLong decodes = new AtomicLong();

  JsonDocs(LuceneIndex index, ReaderCache cache, String kind, char cacheLetter, Function<String, T> decode) {
    this(index, cache, kind, cacheLetter, decode, false);
  }

  /**
   * With {@code copied}, reads by id are answered from decoded copies kept per index segment
   * ({@link SegmentCopies}); for the kinds a recall reads by id (turns, records, node links).
   */
  JsonDocs(LuceneIndex index, ReaderCache cache, String kind, char cacheLetter, Function<String, T> decode,
      boolean copied) {
    this(index, cache, kind, cacheLetter, decode, copied, null);
  }

  /**
   * As above; {@code writtenAt} gives the index's change count after the last write of this kind
   * (round twenty: records and nodes, which only an encoding and a forget write), so that a read by
   * id reopens the searchers only when such a write came after their last reopen, not for the turns
   * and segments an {@code append} writes meanwhile (measurements.md §6).
   */
  JsonDocs(LuceneIndex index, ReaderCache cache, String kind, char cacheLetter, Function<String, T> decode,
      boolean copied, LongSupplier writtenAt) {
    this.writtenAt = writtenAt;
    this.index = index;
    this.cache = cache;
    this.kind = kind;
    this.cacheLetter = cacheLetter;
    this.decode = decode;
    this.copies = copied ? new SegmentCopies<>(kind, decode) : null;
  }

  /**
   * Decoded values by id: from the per-segment copies where this kind keeps them, else those
   * cached at the current reader version and the rest in one query (a terms filter on the unique
   * keys) whose results are cached in turn.
   */
  Map<String, T> byIds(String namespace, Collection<String> ids) {
    return byIds(namespace, ids, writtenAt);
  }

  /**
   * As {@link #byIds(String, Collection)}, reopening the searchers first only when they do not
   * cover {@code since} (null: every write): for a caller that knows the writes of this kind since
   * then by other means ({@link RecentEncodings}).
   */
  Map<String, T> byIds(String namespace, Collection<String> ids, LongSupplier since) {
    LuceneIndex.ReadWork<Map<String, T>> work = s -> {
      if (copies != null) {
        Map<String, T> copied = copies.byIds(s, namespace, ids);
        if (copied != null) {
          return copied;
        }
      }
      long version = ReaderCache.version(s);
      Map<String, T> found = new HashMap<>();
      List<BytesRef> keys = new ArrayList<>();
      for (String id : new LinkedHashSet<>(ids)) {
        T cached = cache.get(version, new VersionedCache.Key(cacheLetter, namespace, id));
        if (cached != null) {
          found.put(id, cached);
        } else {
          keys.add(new BytesRef(StoreFields.uid(kind, namespace, id).text()));
        }
      }
      if (!keys.isEmpty()) {
        TopDocs td = s.search(new TermInSetQuery(StoreFields.UID, keys), keys.size());
        String[] idsFound = DocIds.of(s, td.scoreDocs);
        String[] json = DocIds.json(s, td.scoreDocs);
        for (int i = 0; i < idsFound.length; i++) {
          T value = decode(json[i]);
          found.put(idsFound[i], value);
          cache.put(version, new VersionedCache.Key(cacheLetter, namespace, idsFound[i]), value);
        }
      }
      return found;
    };
    return since == null ? index.read(work) : index.read(work, since);
  }

  /** How many segment copies this kind holds (for tests); 0 when it keeps none. */
  int segmentCopies() {
    return copies == null ? 0 : copies.size();
  }

  /** The values of {@code ids} in that order, unknown ids skipped, repeats once. */
  List<T> inOrder(String namespace, Collection<String> ids) {
    Map<String, T> found = byIds(namespace, ids);
    return ids.stream().distinct().map(found::get).filter(v -> v != null).toList();
  }

  /** Decoded values matching {@code q} in {@code sort} order, cached under {@code key} per reader version. */
  List<T> matching(VersionedCache.Key key, Query q, Sort sort) {
    return index.read(s -> cache.get(s, key, () -> Hits.all(s, q, sort).stream()
        .map(d -> decode(Hits.json(d))).toList()));
  }

  /**
   * The stored values of {@code ids} with their sequence numbers, as {@link MergeOnPut} looks them
   * up, from one query (a terms filter on the unique keys); an id not stored is absent. Why one
   * query: a term query per id built its weight and a terms enum in every index segment, and the
   * merge read of an encoding's records and nodes was the largest store item of an offline Lucene
   * ingest on the caller's thread (round twenty-one, measurements.md §6).
   *
   * <p>Each hit's id, JSON and sequence number come from doc values ({@link DocIds}, {@link
   * StoreFields#SEQ}), not from its stored fields, and a value decoded at this reader version
   * already (the ingest's node look-up just before an encoding, {@code SegmentCommitter}'s {@code
   * store.nodes}) is taken from the read cache instead of being decoded again; values read here are
   * cached in turn. Why: at x20 the encoding's merge read decoded every stored node a second time
   * and decompressed its stored fields, 15% of the store-bound ingest's samples on the caller's
   * thread (round twenty-three, measurements.md §6). The values are the same: one JSON decoded by
   * the same function.
   */
  Map<String, MergeOnPut.Placed<T>> stored(IndexSearcher searcher, String namespace, Collection<String> ids)
      throws IOException {
    lookups.incrementAndGet();
    List<BytesRef> keys = new ArrayList<>();
    for (String id : new LinkedHashSet<>(ids)) {
      keys.add(new BytesRef(StoreFields.uid(kind, namespace, id).text()));
    }
    Map<String, MergeOnPut.Placed<T>> found = new HashMap<>();
    if (keys.isEmpty()) {
      return found;
    }
    TopDocs td = searcher.search(new TermInSetQuery(StoreFields.UID, keys), keys.size());
    long version = ReaderCache.version(searcher);
    String[] idsFound = DocIds.of(searcher, td.scoreDocs);
    long[] seqs = DocIds.seqs(searcher, td.scoreDocs);
    // the hits whose value is not decoded at this version yet, by their place in the hits
    int[] undecoded = new int[idsFound.length];
    int n = 0;
    for (int i = 0; i < idsFound.length; i++) {
      T cached = cache.get(version, new VersionedCache.Key(cacheLetter, namespace, idsFound[i]));
      if (cached != null) {
        found.put(idsFound[i], new MergeOnPut.Placed<>(cached, seqs[i]));
      } else {
        undecoded[n++] = i;
      }
    }
    ScoreDoc[] toRead = new ScoreDoc[n];
    for (int j = 0; j < n; j++) {
      toRead[j] = td.scoreDocs[undecoded[j]];
    }
    String[] json = DocIds.json(searcher, toRead);
    for (int j = 0; j < n; j++) {
      int i = undecoded[j];
      T value = decode(json[j]);
      cache.put(version, new VersionedCache.Key(cacheLetter, namespace, idsFound[i]), value);
      found.put(idsFound[i], new MergeOnPut.Placed<>(value, seqs[i]));
    }
    return found;
  }

  /** Decodes one stored JSON value, counting it. */
  private T decode(String json) {
    decodes.incrementAndGet();
    return decode.apply(json);
  }

  /** JSON values decoded so far, by any read of this kind (for tests). */
  long decodes() {
    return decodes.get();
  }

  /** Merge reads ({@link #stored}) so far, each one query (for tests). */
  long mergeLookups() {
    return lookups.get();
  }

  /**
   * A plan's documents, built (JSON encoded, fields made) before the write call: a value new to the
   * store still lacks its sequence number, which {@link #addPrepared} gives it under the write
   * lock, in plan order, so that the order is the commit order.
   */
  record PreparedDoc(Term uid, Document document, boolean fresh) {}

  /** Builds the documents of a plan; merged values keep their stored sequence number. */
  List<PreparedDoc> prepare(String namespace, List<MergeOnPut.Placed<T>> plan, Function<T, String> idOf,
      Encode<T> encode) {
    List<PreparedDoc> out = new ArrayList<>(plan.size());
    for (MergeOnPut.Placed<T> p : plan) {
      // 0 stands in for a new value's number until it is written
      out.add(new PreparedDoc(StoreFields.uid(kind, namespace, idOf.apply(p.value())),
          encode.document(p.value(), p.isNew() ? 0 : p.position()), p.isNew()));
    }
    return out;
  }

  /**
   * Adds prepared documents to a block a write call writes whole ({@link DocumentBlock}): a new
   * value takes the next sequence number, a merged one keeps its own. Runs under the write lock, so
   * that the order of the numbers is the commit order.
   */
  static void addPrepared(DocumentBlock.Builder block, List<PreparedDoc> docs, StoreSequence seq) {
    for (PreparedDoc d : docs) {
      if (d.fresh()) {
        StoreDocuments.setSeq(d.document(), seq.next());
      }
      block.add(d.uid(), d.document());
    }
  }
}
