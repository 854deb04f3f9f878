package dev.lychee.store.lucene;

import dev.lychee.api.EvidenceNode;
import dev.lychee.api.MemoryRecord;
import dev.lychee.core.store.MergeOnPut;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.function.LongPredicate;
import org.apache.lucene.document.Document;
import org.apache.lucene.util.BytesRef;

/**
 * The records and nodes the record store's encodings wrote since the searchers last reopened on
 * them, each as its document holds it (JSON and sequence number): what a reopened searcher would
 * return for their ids. The ingest's node look-up before an encoding ({@code SegmentCommitter}'s
 * {@code store.nodes}) and the encoding's merge read answer those ids from here and the rest from
 * the searchers as they are, so that neither reopens them for the encoding before.
 *
 * <p>Why (round twenty-five, measurements.md §6): that look-up was the one reopen left per segment
 * of an ingest, and each flushed a tiny segment of the previous encoding's documents, which the
 * next deferred commit then fsynced file by file and merges rewrote.
 *
 * <p>Exact because only encodings and {@code forget} write records and nodes, and the owner keeps
 * this in step with both under its records lock: an encoding that returned adds its documents (the
 * latest value of each id, since encodings write one at a time); {@code forget}, a failed encoding
 * (whose entry a rollback may have replayed or dropped) and an overflow past {@link #MAX_ENTRIES}
 * clear it and move the barrier that reads must reopen for ({@link #barrier}). A rollback for any
 * other write replays the logged encodings as they were written, so what is here stays their
 * latest value. An entry goes once a reopen covers its write. A read takes what it needs from
 * here before it acquires a searcher, so a searcher newer than its copy can only hold entries it
 * also copied; and a read that overlapped a records write ({@link #generation}) is answered the
 * old way, by a searcher reopened for every records write.
 */
final class RecentEncodings {
  /**
   * More documents than this since the last reopen (an ingest with no read between its encodings)
   * and the view is dropped for a reopen at the next read, so it cannot grow without bound.
   */
  static final int MAX_ENTRIES = 20_000;

  /** One document as written: its JSON, its sequence number and the change count after its write. */
  private static final class Entry {
    final String json;
    final long seq;
    final long at;
    /** The decoded value, once asked for (a benign race: any thread decodes the same JSON). */
    volatile Object value;

    Entry(String json, long seq, long at) {
      this.json = json;
      this.seq = seq;
      this.at = at;
    }
  }

  private record Key(String kind, String namespace, String id) {}

  private final Map<Key, Entry> entries = new ConcurrentHashMap<>();
  /** Whether the searchers cover a change count ({@link LuceneIndex#covers}). */
  private final LongPredicate covered;
  /** Even while no records write runs; moved before and after each one. */
  private final AtomicLong generation = new AtomicLong();
  /** The change count reads must see on the searchers: the last records write not kept here. */
  private final AtomicLong barrier = new AtomicLong();
  /** Values decoded here so far (for tests). */
  private final AtomicLong decodes = new AtomicLong();

  RecentEncodings(LongPredicate covered) {
    this.covered = covered;
  }

  /** Marks a records write begun; the caller holds the records lock. */
  void writing() {
    generation.incrementAndGet();
  }

  /**
   * Marks a records write ended; the caller holds the records lock. {@code written} are the
   * documents of an encoding that returned (null for any other write or a failure, which clears the
   * view and moves the barrier to {@code writtenAt}), {@code writtenAt} the index's change count
   * after the write.
   */
  void written(String namespace, Collection<JsonDocs.PreparedDoc> written, long writtenAt) {
    try {
      if (written == null) {
        dropAll(writtenAt);
        return;
      }
      entries.values().removeIf(e -> covered.test(e.at));
      for (JsonDocs.PreparedDoc d : written) {
        Document doc = d.document();
        BytesRef json = doc.getBinaryValue(StoreFields.JSON_VALUES);
        entries.put(new Key(doc.get(StoreFields.DOC), namespace, doc.get(StoreFields.ID)),
            new Entry(json.utf8ToString(), doc.getField(StoreFields.SEQ).numericValue().longValue(), writtenAt));
      }
      if (entries.size() > MAX_ENTRIES) {
        dropAll(writtenAt);
      }
    } finally {
      generation.incrementAndGet();
    }
  }

  private void dropAll(long writtenAt) {
    entries.clear();
    barrier.accumulateAndGet(writtenAt, Math::max);
  }

  /** The generation now; odd while a records write runs. */
  long generation() {
    return generation.get();
  }

  /** The change count a read that uses this view must find covered by the searchers. */
  long barrier() {
    return barrier.get();
  }

  /** How many documents are kept (for tests). */
  int size() {
    return entries.size();
  }

  /** Values decoded here so far (for tests). */
  long decodes() {
    return decodes.get();
  }

  /** The kept records of {@code ids}, by id, with their sequence numbers. */
  Map<String, MergeOnPut.Placed<MemoryRecord>> records(String namespace, Collection<String> ids) {
    return placed(StoreFields.KIND_RECORD, namespace, ids, JsonCodec::record);
  }

  /** The kept nodes of {@code ids}, by id, with their sequence numbers. */
  Map<String, MergeOnPut.Placed<EvidenceNode>> nodes(String namespace, Collection<String> ids) {
    return placed(StoreFields.KIND_NODE, namespace, ids, JsonCodec::node);
  }

  private <T> Map<String, MergeOnPut.Placed<T>> placed(String kind, String namespace, Collection<String> ids,
      Function<String, T> decode) {
    Map<String, MergeOnPut.Placed<T>> out = new LinkedHashMap<>();
    if (entries.isEmpty()) {
      return out;
    }
    for (String id : ids) {
      Entry e = entries.get(new Key(kind, namespace, id));
      if (e != null) {
        out.put(id, new MergeOnPut.Placed<>(value(e, decode), e.seq));
      }
    }
    return out;
  }

  @SuppressWarnings("unchecked")
  private <T> T value(Entry e, Function<String, T> decode) {
    Object v = e.value;
    if (v == null) {
      decodes.incrementAndGet();
      v = decode.apply(e.json);
      e.value = v;
    }
    return (T) v;
  }
}
