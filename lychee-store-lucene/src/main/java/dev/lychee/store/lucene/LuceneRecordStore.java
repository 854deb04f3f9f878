package dev.lychee.store.lucene;

import static dev.lychee.store.lucene.StoreFields.KIND_NODE;
import static dev.lychee.store.lucene.StoreFields.KIND_RECORD;

import dev.lychee.api.EvidenceNode;
import dev.lychee.api.Forgotten;
import dev.lychee.api.MemoryRecord;
import dev.lychee.api.NodeKind;
import dev.lychee.api.RawTurn;
import dev.lychee.api.ScoredId;
import dev.lychee.api.Segment;
import dev.lychee.api.SegmentState;
import dev.lychee.api.StoredSegment;
import dev.lychee.api.TurnRef;
import dev.lychee.api.spi.RecordStore;
import dev.lychee.api.spi.TextField;
import dev.lychee.core.store.CheckedRecordStore;
import dev.lychee.core.store.MergeOnPut;
import dev.lychee.core.store.VersionedCache;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.en.EnglishAnalyzer;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.Sort;
import org.apache.lucene.search.SortField;
import org.apache.lucene.search.TermQuery;

/**
 * A durable {@link RecordStore} on a Lucene index in one directory: one document per turn,
 * session marker, segment, record and evidence node, each holding its namespace, its kind and
 * its full value as stored JSON; turns and records also carry a BM25 text field with English
 * analysis. This class is the thin store over one class per document kind ({@link TurnDocs},
 * {@link SegmentDocs}, {@link JsonDocs} for records and nodes, {@link LuceneTextSearch},
 * {@link SessionEraser}); it owns the write calls that span kinds.
 *
 * <p>Every write method is durable and all-or-nothing when it returns: {@link #appendTurns} and
 * {@link #putSegment}, the writes on an {@code append}'s path, and {@link #commitEncoding} through
 * the index's write-ahead log ({@link LuceneIndex#writeLogged}: one synced log entry, replayed on
 * open if no commit took it along), every other write through its own commit
 * ({@link LuceneIndex#write}), which takes the logged ones along. A crash before a call returns leaves none of it. Merges (records, nodes) read
 * the stored version first under the write lock.
 *
 * <p>Recall reads the same turns, records, nodes and lexical hits many times per question; decoded
 * values are cached per reader version ({@link LuceneStoreConfig#readCacheMaxEntries()}), so every
 * commit retires them and a reader never sees another commit's data.
 *
 * <p>It only stores: arguments are checked by {@link CheckedRecordStore}, which
 * {@link LuceneStoreModule} and {@link #open} put in front of it.
 */
public final class LuceneRecordStore implements RecordStore {
  private static final Sort BY_SEQ = new Sort(new SortField(StoreFields.SEQ, SortField.Type.LONG));
  private static final Sort BY_KEY = new Sort(new SortField(StoreFields.NODE_KEY, SortField.Type.STRING));

  private final LuceneIndex index;
  private final StoreSequence seq;
  private final TurnDocs turns;
  private final SegmentDocs segments;
  private final JsonDocs<MemoryRecord> records;
  private final JsonDocs<EvidenceNode> nodes;
  private final JsonDocs<JsonCodec.NodeLinks> nodeLinks;
  private final LuceneTextSearch search;
  /**
   * One past the highest stored turn index, per session this process has asked for or appended to
   * (guarded by this store's monitor). The index's writer holds the directory's lock, so no other
   * process writes turns here: once read, the value is kept current by {@link #appendTurns} and
   * dropped by {@code forget}. Why: reading it from the index reopened the near-real-time searchers
   * on an {@code append}'s path (twice per call), each reopen flushing a tiny segment under the
   * write lock, and the caller waited most for that (docs/defaults.md §3.3).
   */
  private final Map<SessionKey, Integer> nextIndex = new HashMap<>();

  private record SessionKey(String namespace, String session) {}

  /**
   * Per session, the index's change count after the last write of its turns, set under the write
   * lock by that write; with {@link #turnsRemovedAt}, what {@link #nextTurnIndex} must see. A
   * session this process has not written to since it opened needs no reopen of the searchers:
   * their view holds its turns already (round twenty-three: the first append of each new session
   * reopened them, flushing what the last session's encodings left, measurements.md §6).
   */
  private final Map<SessionKey, Long> sessionTurnsAt = new ConcurrentHashMap<>();
  /** The index's change count after the last {@code forget}, the only write that removes turns. */
  private final AtomicLong turnsRemovedAt = new AtomicLong();

  /**
   * Held by every write of records and nodes ({@link #commitEncoding}, {@code forget}) around its
   * write call, so that {@link #recordWrites} counts it only once it has committed or failed.
   */
  private final ReentrantLock recordsLock = new ReentrantLock();
  /**
   * Records writes finished (committed or failed) so far: a merge plan prepared outside the write
   * lock is written only when this has not moved since it was read.
   */
  private final AtomicLong recordWrites = new AtomicLong();
  /**
   * The index's {@link LuceneIndex#changeCount()} after the last records write (set before {@link
   * #recordWrites} counts it): reads of records and nodes reopen the searchers only for such a
   * write, not for the turns and pending segments written since (round twenty: the background
   * encoder's reads reopened under the write lock after each {@code append}'s turn, and the next
   * {@code append} waited for the lock; measurements.md §6).
   */
  private final AtomicLong recordsWrittenAt = new AtomicLong();
  /**
   * Per session, the change count after its last stored pending segment, set under the write lock
   * by that write: what {@link #putSegment}'s overlap check must see besides records writes (which
   * {@code forget} is). A state change never moves a segment's turns, so it does not count here.
   */
  private final Map<SessionKey, Long> sessionSegmentsAt = new ConcurrentHashMap<>();
  /**
   * Per segment not encoded yet, the change count after its last write ({@link #putSegment}, {@link
   * #setSegmentState}): what {@link #commitEncoding}'s state change must see besides records writes.
   */
  private final Map<SegmentKey, Long> segmentAt = new ConcurrentHashMap<>();

  private record SegmentKey(String namespace, String segmentId) {}

  /**
   * The JSON of each segment {@link #putSegment} stored in this process and not encoded yet, as its
   * document holds it: what {@link #commitEncoding}'s state change rewrites, so that it need not
   * read the segment back. Why (round twenty-four, measurements.md §6): that read needed searchers
   * holding the pending segment, and with the encoding right after its segment's put, each encoding
   * reopened them under the write lock, flushing a tiny segment, besides the reopen for the
   * encoding's records before it. A state change keeps the segment (only its state and error
   * change, which the encoding sets anyway); {@code forget} drops the entries it may have removed,
   * under {@link #recordsLock}, which an encoding holds from reading its entry to its write.
   */
  private final Map<SegmentKey, PutSegment> putSegments = new ConcurrentHashMap<>();

  /** A segment {@link #putSegment} stored: its session (for {@code forget}) and its document's JSON. */
  private record PutSegment(String session, String json) {}
  /**
   * The records and nodes the encodings wrote since the searchers last reopened on them: the
   * ingest's node look-up and the encoding's merge read take them from here instead of reopening
   * the searchers for the encoding before (round twenty-five, measurements.md §6). Kept in step
   * with every records write under {@link #recordsLock}.
   */
  private final RecentEncodings recent;
  /** Runs between an encoding's preparation and its write call; a no-op except in tests. */
  private volatile Runnable afterPrepare = () -> {};
  /** Runs inside an encoding's writer call, between its state change and its documents; a no-op except in tests. */
  private volatile Runnable duringEncodingWrite = () -> {};

  /** Opens (or creates) a store in {@code directory} with default settings. */
  public LuceneRecordStore(Path directory) {
    this(directory, LuceneStoreConfig.defaults());
  }

  /** Opens (or creates) a store in {@code directory}. */
  public LuceneRecordStore(Path directory, LuceneStoreConfig config) {
    Objects.requireNonNull(config, "config");
    Analyzer analyzer = new EnglishAnalyzer();
    this.index = new LuceneIndex(Objects.requireNonNull(directory, "directory"), analyzer, config);
    ReaderCache cache = new ReaderCache(config.readCacheMaxEntries());
    this.seq = StoreSequence.of(index);
    this.turns = new TurnDocs(index, cache);
    this.segments = new SegmentDocs(index, cache);
    // what a recall reads by id is answered from per-segment copies (docs/defaults.md §3.3)
    this.records = new JsonDocs<>(index, cache, KIND_RECORD, 'r', JsonCodec::record, true, recordsWrittenAt::get);
    this.nodes = new JsonDocs<>(index, cache, KIND_NODE, 'n', JsonCodec::node, false, recordsWrittenAt::get);
    this.nodeLinks = new JsonDocs<>(index, cache, KIND_NODE, 'l', JsonCodec::nodeLinks, true, recordsWrittenAt::get);
    this.search = new LuceneTextSearch(index, cache, analyzer, config.maxQueryTerms());
    this.recent = new RecentEncodings(index::covers);
    // after the sequence: replayed turns and segments take their numbers from it
    index.recover(this::replay);
  }

  /** Opens (or creates) a checked store in {@code directory}. */
  public static RecordStore open(Path directory, LuceneStoreConfig config) {
    return CheckedRecordStore.of(new LuceneRecordStore(directory, config));
  }

  // ---- turns ----

  /**
   * Stores the turns not stored yet. Turns that all come after the session's stored ones (by the
   * kept {@link #nextIndex}, distinct indices, in a session that has turns) cannot be stored
   * already, so they are added without looking at the index, and the write needs no reopen of the
   * searchers first; any other call checks each turn against the index as before.
   */
  @Override
  public synchronized List<RawTurn> appendTurns(String namespace, String session, List<RawTurn> turns) {
    SessionKey key = new SessionKey(namespace, session);
    Integer next = nextIndex.get(key);
    boolean after = next != null && next > 0 && allAfter(turns, next);
    List<RawTurn> stored;
    try {
      stored = index.writeLogged((writer, searcher) -> {
        List<RawTurn> fresh = after ? TurnDocs.insertAfterStored(writer, turns, seq)
            : TurnDocs.insert(writer, searcher, namespace, session, turns, seq);
        if (!fresh.isEmpty()) {
          // under the write lock, whose write moves the count by exactly one (as putSegment's)
          sessionTurnsAt.merge(key, index.changeCount() + 1, Math::max);
        }
        return new LuceneIndex.Logged<>(fresh, fresh.isEmpty() ? null : entry(LOGGED_TURNS, JsonCodec.turns(fresh)));
      }, () -> !after);
    } catch (RuntimeException e) {
      // a failure after the log entry was written is rolled back and replayed, so the turns may be
      // stored after all: read the next index from the index again
      nextIndex.remove(key);
      throw e;
    }
    if (next != null) {
      int highest = stored.stream().mapToInt(RawTurn::index).max().orElse(-1);
      nextIndex.put(key, Math.max(next, highest + 1));
    }
    return stored;
  }

  /** Whether every turn's index is at least {@code next} and no index repeats. */
  private static boolean allAfter(List<RawTurn> turns, int next) {
    Set<Integer> seen = new HashSet<>();
    for (RawTurn t : turns) {
      if (t.index() < next || !seen.add(t.index())) {
        return false;
      }
    }
    return true;
  }

  @Override
  public synchronized int nextTurnIndex(String namespace, String session) {
    SessionKey key = new SessionKey(namespace, session);
    return nextIndex.computeIfAbsent(key, k -> turns.nextIndex(namespace, session,
        () -> Math.max(turnsRemovedAt.get(), sessionTurnsAt.getOrDefault(key, 0L))));
  }

  @Override
  public Optional<RawTurn> turn(String namespace, TurnRef ref) {
    return turns.turn(namespace, ref);
  }

  @Override
  public List<RawTurn> turns(String namespace, Collection<TurnRef> refs) {
    return turns.turns(namespace, refs);
  }

  @Override
  public List<RawTurn> turns(String namespace, String session, int from, int to) {
    return turns.window(namespace, session, from, to);
  }

  @Override
  public List<RawTurn> turns(String namespace, String session) {
    return turns.all(namespace, session);
  }

  @Override
  public List<String> sessions(String namespace) {
    return turns.sessions(namespace);
  }

  @Override
  public List<String> namespaces() {
    return turns.namespaces();
  }

  @Override
  public long countTurns(String namespace) {
    return turns.count(namespace);
  }

  // ---- segments ----

  /**
   * Stores a pending segment. Its overlap check reads the session's segments by their turn ranges,
   * which only {@code putSegment} and {@code forget} change (an encoding or a state change rewrites
   * a segment with the same turns), so the searchers are reopened first only when they lack one of
   * those, not for the encodings written since (round twenty-four: each put reopened for the
   * encoding before it, measurements.md §6).
   */
  @Override
  public boolean putSegment(Segment segment, SegmentState state) {
    SessionKey session = new SessionKey(segment.namespace(), segment.session());
    SegmentKey key = new SegmentKey(segment.namespace(), segment.id());
    try {
      return index.writeLogged((writer, searcher) -> {
        boolean stored = SegmentDocs.put(writer, searcher, segment, state);
        String json = null;
        if (stored) {
          // under the write lock, whose write moves the count by exactly one: a later putSegment of
          // the session, or this segment's encoding, sees this one even before this call returns
          long at = index.changeCount() + 1;
          sessionSegmentsAt.merge(session, at, Math::max);
          segmentAt.merge(key, at, Math::max);
          // the document's JSON: the same function of the same value (StoreDocuments.segment)
          json = JsonCodec.segment(new StoredSegment(segment, state, null));
          putSegments.put(key, new PutSegment(segment.session(), json));
        }
        return new LuceneIndex.Logged<>(stored, stored ? entry(LOGGED_SEGMENT, json) : null);
      }, () -> !index.covers(Math.max(turnsRemovedAt.get(), sessionSegmentsAt.getOrDefault(session, 0L))));
    } catch (RuntimeException e) {
      // rolled back: whether the segment is stored is read from the index again
      putSegments.remove(key);
      throw e;
    }
  }

  // ---- the write-ahead log's entries ----

  private static final char LOGGED_TURNS = 'T';
  private static final char LOGGED_SEGMENT = 'S';
  /** An encoding's entry as JSON, as stores before round twenty-four logged it: still replayed. */
  private static final char LOGGED_ENCODING_JSON = 'E';
  /** An encoding's entry in binary ({@link LoggedEncoding#toBytes}). */
  private static final char LOGGED_ENCODING = 'e';

  /** A log entry: one letter for the write, then its JSON (an encoding's is binary, {@link LoggedEncoding}). */
  private static byte[] entry(char kind, String json) {
    return (kind + json).getBytes(StandardCharsets.UTF_8);
  }

  /**
   * Redoes a logged write on open: the same insert as the call that logged it, so a turn or
   * segment a commit already holds is skipped (the turn log's and the overlap check's own rules)
   * and nothing is stored twice; an encoding writes the documents it logged again, each replacing
   * itself ({@link LoggedEncoding}).
   */
  private void replay(IndexWriter writer, IndexSearcher searcher, byte[] entry) throws IOException {
    if (entry.length > 0 && entry[0] == LOGGED_ENCODING) {
      // binary: read in place, not decoded into one string first
      LoggedEncoding.parse(entry, 1).replay(writer, searcher, seq);
      return;
    }
    String text = new String(entry, StandardCharsets.UTF_8);
    String json = text.substring(1);
    switch (text.charAt(0)) {
      case LOGGED_TURNS -> {
        List<RawTurn> logged = JsonCodec.turnList(json);
        RawTurn first = logged.get(0);
        TurnDocs.insert(writer, searcher, first.namespace(), first.session(), logged, seq);
      }
      case LOGGED_SEGMENT -> {
        StoredSegment s = JsonCodec.segment(json);
        SegmentDocs.put(writer, searcher, s.segment(), s.state());
      }
      case LOGGED_ENCODING_JSON -> LoggedEncoding.parseJson(json).replay(writer, searcher, seq);
      default -> throw new IOException("unknown write-ahead log entry kind '" + text.charAt(0) + "'");
    }
  }

  @Override
  public void setSegmentState(String namespace, String segmentId, SegmentState state, String error) {
    segments.setState(namespace, segmentId, state, error);
    segmentAt.merge(new SegmentKey(namespace, segmentId), index.changeCount(), Math::max);
  }

  @Override
  public List<StoredSegment> segments(String namespace) {
    return segments.all(namespace);
  }

  @Override
  public List<StoredSegment> pendingSegments(String namespace) {
    return segments.pending(namespace);
  }

  @Override
  public List<String> pendingNamespaces() {
    return segments.pendingNamespaces();
  }

  @Override
  public int segmentedThrough(String namespace, String session) {
    return segments.segmentedThrough(namespace, session);
  }

  /**
   * Puts a segment's records and nodes (merged with the stored ones) and marks it encoded, in one
   * logged write: one synced log entry holding the merged values ({@link LoggedEncoding}), no commit
   * of its own (round nineteen: a Lucene commit per segment was the largest cost of an ingest
   * outside the embedder), and no commit catches it half-way: its documents are one writer call
   * ({@link DocumentBlock}), so it does not wait for a commit's fsyncs either (round twenty-one).
   * The merge plan and the documents are prepared before the write call, on a searcher
   * that holds every earlier records write, so that the index's write lock, which an {@code
   * append}'s turn waits for, is held only to write them (docs/defaults.md §3.3). If another
   * records write (an encoding, a {@code forget}) finished or failed in between, the plan is made
   * again under the lock, as it always was.
   */
  @Override
  public void commitEncoding(String namespace, String segmentId, List<MemoryRecord> records, List<EvidenceNode> nodes) {
    SegmentKey key = new SegmentKey(namespace, segmentId);
    long seen = recordWrites.get();
    // read after the count: every records write counted so far has returned and moved the mark,
    // and a read reopens the searchers on it (not for turns or segments written since)
    // the view of recent encodings is copied before the read takes its searcher (see RecentEncodings)
    Kept kept = kept(namespace, records, nodes);
    List<JsonDocs.PreparedDoc> prepared =
        index.read(s -> prepareEncoding(s, namespace, records, nodes, kept), recent::barrier);
    afterPrepare.run();
    recordsLock.lock();
    recent.writing();
    List<JsonDocs.PreparedDoc> written = null;
    try {
      // stable until the write: only forget removes entries, and it holds the records lock to do so
      PutSegment put = putSegments.get(key);
      StoredSegment stored = put == null ? null : JsonCodec.segment(put.json());
      // one write call = one log entry: records, nodes and the state change become visible together
      written = index.writeLogged((writer, searcher) -> {
        // state first: an unknown segment is refused before anything is written
        DocumentBlock.Builder block = DocumentBlock.builder();
        if (stored != null) {
          SegmentDocs.addState(block, stored, SegmentState.ENCODED, null);
        } else {
          SegmentDocs.addState(block, searcher, namespace, segmentId, SegmentState.ENCODED, null);
        }
        // under the records lock the view is stable, and no reopen runs under the write lock
        List<JsonDocs.PreparedDoc> docs = recordWrites.get() == seen ? prepared
            : prepareEncoding(searcher, namespace, records, nodes, kept(namespace, records, nodes));
        JsonDocs.addPrepared(block, docs, seq);
        // one writer call: a commit running meanwhile holds all of it or none (no commit lock)
        block.build().write(writer, duringEncodingWrite);
        return new LuceneIndex.Logged<>(docs,
            LoggedEncoding.of(namespace, segmentId, docs).toBytes((byte) LOGGED_ENCODING));
      }, () -> !index.covers(Math.max(recent.barrier(), stored != null ? 0L : segmentAt.getOrDefault(key, 0L))));
      // the segment's last write is now this records write, which recordsWrittenAt covers
      segmentAt.remove(key);
      putSegments.remove(key);
    } finally {
      // before the count moves: an encoding that reads the count after it finds these documents
      // in the view; a failure (null) drops the view, since a rollback may have replayed this
      // encoding's entry or not
      recent.written(namespace, written, index.changeCount());
      recordsWritten();
      recordsLock.unlock();
    }
  }

  /** Moves the mark that {@link #nextTurnIndex} reopens for past a finished {@code forget}. */
  private void turnsRemoved() {
    turnsRemovedAt.accumulateAndGet(index.changeCount(), Math::max);
  }

  /** Counts a finished records write, after moving the mark that reads of records and nodes reopen for. */
  private void recordsWritten() {
    recordsWrittenAt.accumulateAndGet(index.changeCount(), Math::max);
    recordWrites.incrementAndGet();
  }

  /**
   * Sets what runs after the next encodings' preparation, before their write call: lets a test put
   * another records write in between.
   */
  void afterEncodingPrepared(Runnable hook) {
    this.afterPrepare = Objects.requireNonNull(hook, "hook");
  }

  /**
   * Sets what runs inside the next encodings' writer call, after the writer took the segment's
   * state change and before it takes the records and nodes: lets a test start a commit half-way
   * through the write.
   */
  void duringEncodingWrite(Runnable hook) {
    this.duringEncodingWrite = Objects.requireNonNull(hook, "hook");
  }

  /** What {@link #recent} holds of an encoding's records and nodes. */
  private record Kept(Map<String, MergeOnPut.Placed<MemoryRecord>> records,
      Map<String, MergeOnPut.Placed<EvidenceNode>> nodes) {}

  private Kept kept(String namespace, List<MemoryRecord> records, List<EvidenceNode> nodes) {
    return new Kept(recent.records(namespace, records.stream().map(MemoryRecord::id).toList()),
        recent.nodes(namespace, nodes.stream().map(EvidenceNode::id).toList()));
  }

  /**
   * The documents of a segment's records and then its nodes, merged with what {@code kept} holds
   * of them and, for the others, what {@code searcher} holds.
   */
  private List<JsonDocs.PreparedDoc> prepareEncoding(IndexSearcher searcher, String namespace,
      List<MemoryRecord> records, List<EvidenceNode> nodes, Kept kept) throws IOException {
    // each kind's stored values in one query, looked up by the plan from memory
    // what the encodings since the searchers' last reopen wrote comes from the view of them, taken
    // over the searcher's own values (see RecentEncodings); the rest from the searcher
    Map<String, MergeOnPut.Placed<MemoryRecord>> storedRecords = withRecent(kept.records(),
        records.stream().map(MemoryRecord::id).toList(), rest -> this.records.stored(searcher, namespace, rest));
    Map<String, MergeOnPut.Placed<EvidenceNode>> storedNodes = withRecent(kept.nodes(),
        nodes.stream().map(EvidenceNode::id).toList(), rest -> this.nodes.stored(searcher, namespace, rest));
    List<JsonDocs.PreparedDoc> docs = new ArrayList<>(this.records.prepare(namespace,
        MergeOnPut.records(records, id -> Optional.ofNullable(storedRecords.get(id))),
        MemoryRecord::id, StoreDocuments::record));
    docs.addAll(this.nodes.prepare(namespace,
        MergeOnPut.nodes(nodes, id -> Optional.ofNullable(storedNodes.get(id))),
        EvidenceNode::id, StoreDocuments::node));
    return docs;
  }

  /** Looks up the ids {@code kept} lacks. */
  @FunctionalInterface
  private interface StoredLookup<T> {
    Map<String, MergeOnPut.Placed<T>> find(List<String> ids) throws IOException;
  }

  /** {@code kept} (values from {@link #recent}) completed by a look-up of the other {@code ids}. */
  private static <T> Map<String, MergeOnPut.Placed<T>> withRecent(Map<String, MergeOnPut.Placed<T>> kept,
      List<String> ids, StoredLookup<T> lookup) throws IOException {
    if (kept.isEmpty()) {
      return lookup.find(ids);
    }
    List<String> rest = ids.stream().filter(id -> !kept.containsKey(id)).toList();
    Map<String, MergeOnPut.Placed<T>> found = new HashMap<>(lookup.find(rest));
    found.putAll(kept);
    return found;
  }

  // ---- records, nodes, search ----

  @Override
  public List<MemoryRecord> records(String namespace, Collection<String> ids) {
    return records.inOrder(namespace, ids);
  }

  @Override
  public List<MemoryRecord> records(String namespace) {
    return records.matching(new VersionedCache.Key('a', namespace, ""),
        StoreFields.scope(namespace, KIND_RECORD).build(), BY_SEQ);
  }

  /**
   * The nodes the encodings since the searchers' last reopen wrote come from {@link #recent}, the
   * rest from the searchers, reopened only for a records write that view does not hold (a {@code
   * forget}, a failed encoding); a read that overlapped a records write is made again the way it
   * always was, on searchers that hold every records write. Why: this is the ingest's look-up of a
   * segment's nodes before its encoding ({@code SegmentCommitter}), and it reopened the searchers,
   * flushing a tiny segment, once per segment (round twenty-five, measurements.md §6).
   */
  @Override
  public List<EvidenceNode> nodes(String namespace, Collection<String> ids) {
    index.ensureOpen();
    long generation = recent.generation();
    if ((generation & 1) == 0) {
      List<String> wanted = ids.stream().distinct().toList();
      Map<String, MergeOnPut.Placed<EvidenceNode>> kept = recent.nodes(namespace, wanted);
      List<String> rest = kept.isEmpty() ? wanted : wanted.stream().filter(id -> !kept.containsKey(id)).toList();
      Map<String, EvidenceNode> found = rest.isEmpty() ? Map.of() : nodes.byIds(namespace, rest, recent::barrier);
      if (recent.generation() == generation) {
        List<EvidenceNode> out = new ArrayList<>(wanted.size());
        for (String id : wanted) {
          MergeOnPut.Placed<EvidenceNode> k = kept.get(id);
          EvidenceNode n = k != null ? k.value() : found.get(id);
          if (n != null) {
            out.add(n);
          }
        }
        return out;
      }
    }
    return nodes.inOrder(namespace, ids);
  }

  /** Only each node's id and record ids are decoded (NodeLog#nodeRecordIds). */
  @Override
  public Map<String, List<String>> nodeRecordIds(String namespace, Collection<String> ids) {
    Map<String, List<String>> out = new LinkedHashMap<>();
    for (JsonCodec.NodeLinks l : nodeLinks.inOrder(namespace, ids)) {
      out.put(l.id(), l.recordIds());
    }
    return out;
  }

  @Override
  public List<EvidenceNode> nodes(String namespace, NodeKind kind) {
    Query q = StoreFields.scope(namespace, KIND_NODE)
        .add(new TermQuery(new Term(StoreFields.NODE_KIND, kind.wireName())), BooleanClause.Occur.FILTER)
        .build();
    return nodes.matching(new VersionedCache.Key('k', namespace, kind), q, BY_KEY);
  }

  @Override
  public List<ScoredId> searchText(String namespace, TextField field, String query, int k) {
    return search.search(namespace, field, query, k);
  }

  /** Every variant from one searcher, their terms looked up once (see {@link LuceneTextSearch}). */
  @Override
  public List<List<ScoredId>> searchTexts(String namespace, TextField field, List<String> queries, int k) {
    return search.search(namespace, field, queries, k);
  }

  // ---- deletion ----

  @Override
  public synchronized Forgotten forget(String namespace) {
    recordsLock.lock();
    recent.writing();
    try {
      return index.write((writer, searcher) -> SessionEraser.eraseNamespace(writer, searcher, namespace));
    } finally {
      putSegments.keySet().removeIf(k -> k.namespace().equals(namespace));
      recent.written(namespace, null, index.changeCount());
      recordsWritten();
      turnsRemoved();
      recordsLock.unlock();
      nextIndex.keySet().removeIf(k -> k.namespace().equals(namespace));
      sessionSegmentsAt.keySet().removeIf(k -> k.namespace().equals(namespace));
      segmentAt.keySet().removeIf(k -> k.namespace().equals(namespace));
    }
  }

  @Override
  public synchronized Forgotten forget(String namespace, String session) {
    recordsLock.lock();
    recent.writing();
    try {
      return index.write((writer, searcher) -> new SessionEraser(writer, searcher, namespace, session).erase());
    } finally {
      putSegments.entrySet().removeIf(e -> e.getKey().namespace().equals(namespace)
          && e.getValue().session().equals(session));
      recent.written(namespace, null, index.changeCount());
      recordsWritten();
      turnsRemoved();
      recordsLock.unlock();
      nextIndex.remove(new SessionKey(namespace, session));
      sessionSegmentsAt.remove(new SessionKey(namespace, session));
    }
  }

  /** Waits for the index's deferred commit and merges ({@link LuceneIndex#awaitQuiet}). */
  @Override
  public boolean awaitQuiet(Duration timeout) {
    return index.awaitQuiet(Objects.requireNonNull(timeout, "timeout"));
  }

  /** The index the store writes (for tests that count its reopens and log syncs). */
  LuceneIndex index() {
    return index;
  }

  /** Merge reads of encodings so far, each one query for one kind (for tests). */
  long mergeLookups() {
    return records.mergeLookups() + nodes.mergeLookups();
  }

  /** Stored records and nodes decoded from their JSON so far, by reads by id and merge reads (for tests). */
  long jsonDecodes() {
    return records.decodes() + nodes.decodes() + recent.decodes();
  }

  /** How many documents the view of recent encodings holds (for tests). */
  int recentEncodings() {
    return recent.size();
  }

  /** How many per-segment copies the reads by id hold (for tests). */
  int segmentCopies() {
    return turns.segmentCopies() + records.segmentCopies() + nodeLinks.segmentCopies();
  }

  @Override
  public void close() {
    index.close();
  }
}
