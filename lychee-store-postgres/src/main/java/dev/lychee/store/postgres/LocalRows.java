package dev.lychee.store.postgres;

import dev.lychee.api.EvidenceNode;
import dev.lychee.api.MemoryRecord;
import dev.lychee.api.NodeKind;
import dev.lychee.api.ScoredId;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Function;
import org.jdbi.v3.core.Handle;

/**
 * The records and evidence nodes of each namespace one store instance reads by id, kept decoded in
 * memory and brought up to date the way {@link TurnTextIndex} keeps the turns' postings
 * (docs/defaults.md §3.3): a read first reads the namespace's row head (one indexed row, the only
 * round trip while nothing changed); when it moved, the rows numbered since are read in the same
 * snapshot as the head and replace their copies; after a deletion (a new epoch) the namespace is
 * read afresh.
 *
 * <p>Why: a recall reads a few hundred records and the record links of a few hundred nodes by id,
 * and at scale 20 of the speed benchmark those rows came to about 430 KB per recall, most of
 * whose time went to sending them and decoding their JSON columns again, recall after recall
 * (docs/measurements.md §6, round fifteen).
 *
 * <p>The copy also holds the records' full-text postings ({@link TextPostings}, the lexemes of each
 * record's stored {@code tsv}, read with the record), and {@link Copy#search} answers the records'
 * search from them, exactly as the database would (round nineteen). Why: that search was the last
 * server-side statement of a recall after round eighteen, 0.7 to 12 ms of server time at x20,
 * growing with the namespace; inside a {@link HeadPoint} it now sends nothing while the rows are
 * current (docs/measurements.md §6).
 *
 * <p>Staleness is the store's (architecture §6): a read sees every write committed, by any
 * instance, before it started, since its head is read after it started and a snapshot showing the
 * head at N shows every row numbered up to N (migration 4).
 *
 * <p>At most {@code maxNamespaces} namespaces are held ({@link NamespaceSlots}): reading one more
 * drops the least recently read, whose next read loads it afresh.
 */
final class LocalRows {
  /** One namespace's rows as of a head; changed only under its slot's write lock. */
  static final class Copy {
    static final Copy EMPTY = new Copy(-1, -1);

    private final long epoch;
    private long seq;
    private final Map<String, MemoryRecord> records = new HashMap<>();
    private final Map<String, EvidenceNode> nodes = new HashMap<>();
    /** The same nodes by kind, for the listings of one kind. */
    private final Map<NodeKind, Map<String, EvidenceNode>> nodesByKind = new EnumMap<>(NodeKind.class);
    /** The records' full-text postings: the lexemes of each record's stored {@code tsv}. */
    private final TextPostings texts = new TextPostings();

    private Copy(long epoch, long seq) {
      this.epoch = epoch;
      this.seq = seq;
    }

    MemoryRecord record(String id) {
      return records.get(id);
    }

    EvidenceNode node(String id) {
      return nodes.get(id);
    }

    /**
     * The nodes of one kind by key, then id, both in byte order: what {@link NodeTable#byKind}
     * answers in the database, whose keys are compared as stored ({@link Columns#text}).
     */
    List<EvidenceNode> nodes(NodeKind kind) {
      List<EvidenceNode> out = new ArrayList<>(nodesByKind.getOrDefault(kind, Map.of()).values());
      out.sort(BY_KEY_THEN_ID);
      return out;
    }

    private void put(EvidenceNode n) {
      EvidenceNode old = nodes.put(n.id(), n);
      if (old != null && old.kind() != n.kind()) {
        nodesByKind.get(old.kind()).remove(old.id());
      }
      nodesByKind.computeIfAbsent(n.kind(), k -> new HashMap<>()).put(n.id(), n);
    }

    /**
     * The top {@code k} records for the query's terms (every one {@linkplain TextPostings#plain
     * plain}), as {@link RecordTable#search} answers them in the database.
     */
    List<ScoredId> search(TextQuery query, int k) {
      return texts.search(query.terms(), k);
    }
  }

  /** One namespace's copy and the lock that guards it. */
  private static final class Slot {
    final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
    Copy current;
  }

  private static final Comparator<EvidenceNode> BY_KEY_THEN_ID = Comparator
      .comparing((EvidenceNode n) -> Columns.text(n.key()), TextPostings.BYTE_ORDER)
      .thenComparing(EvidenceNode::id, TextPostings.BYTE_ORDER);

  /** Where a namespace's records and nodes stand: the epoch of its last deletion and its last change. */
  record Head(long epoch, long seq) {}

  private final PostgresDatabase db;
  private final RecordTable records;
  private final NodeTable nodes;
  private final NamespaceSlots<Slot> slots;
  private final AtomicLong headReads = new AtomicLong();
  private final AtomicLong fullLoads = new AtomicLong();
  private final AtomicLong replays = new AtomicLong();

  LocalRows(PostgresDatabase db, RecordTable records, NodeTable nodes, int maxNamespaces) {
    this.db = db;
    this.records = records;
    this.nodes = nodes;
    this.slots = new NamespaceSlots<>(maxNamespaces, Slot::new);
  }

  /**
   * {@code reader} applied to the namespace's copy once it is at the head read now (an empty copy
   * when the namespace never held a record or node). The reader runs under the copy's read lock and
   * must not keep the copy. Inside a {@link HeadPoint} of the namespace, the point's head is used
   * and nothing is read unless the copy is behind it.
   */
  <T> T read(String namespace, Function<Copy, T> reader) {
    HeadPoint.Heads at = HeadPoint.entered(db, namespace);
    Head head;
    if (at != null) {
      head = at.rows();
    } else {
      head = db.read(h -> head(h, namespace));
      headReads.incrementAndGet();
    }
    Slot slot = slots.get(namespace);
    slot.lock.writeLock().lock();
    try {
      Copy have = slot.current;
      if (head == null) {
        slot.current = null;
      } else if (have == null || have.epoch != head.epoch() || have.seq < head.seq()) {
        refresh(namespace, slot);
      }
      // downgrade: reads of one namespace run in parallel, refreshes one at a time
      slot.lock.readLock().lock();
    } finally {
      slot.lock.writeLock().unlock();
    }
    try {
      Copy local = slot.current;
      return reader.apply(local == null ? Copy.EMPTY : local);
    } finally {
      slot.lock.readLock().unlock();
    }
  }

  /** What a refresh read in one snapshot: the head and the rows to put (all, or those changed since). */
  private record Read(Head head, boolean full, List<RecordTable.Indexed> records, List<EvidenceNode> nodes) {}

  /**
   * Brings the slot to the head, read again in the snapshot of the rows it reads. The rows are read
   * before the copy changes, so a snapshot retried after a transient failure leaves no half-applied
   * copy.
   */
  private void refresh(String namespace, Slot slot) {
    Copy have = slot.current;
    Read read = db.readSnapshot(h -> {
      Head head = head(h, namespace);
      if (head == null) {
        return null;
      }
      boolean full = have == null || have.epoch != head.epoch();
      long after = full ? -1 : have.seq;
      return new Read(head, full, records.changedWithText(h, namespace, after, head.seq()),
          nodes.rows.changed(h, namespace, after, head.seq()));
    });
    if (read == null) {
      slot.current = null;
      return;
    }
    Copy target = read.full() ? new Copy(read.head().epoch(), read.head().seq()) : have;
    // within an epoch rows are only inserted or rewritten (merged): a changed row replaces its copy
    // a rewritten record's postings replace its earlier ones (TextPostings#add)
    read.records().forEach(r -> {
      target.records.put(r.record().id(), r.record());
      target.texts.add(r.record().id(), r.tsv());
    });
    read.nodes().forEach(target::put);
    target.seq = Math.max(target.seq, read.head().seq());
    (read.full() ? fullLoads : replays).incrementAndGet();
    slot.current = target;
  }

  /** The namespace's row head, or null when it never held a record or node. */
  static Head head(Handle h, String ns) {
    return h.createQuery("SELECT epoch, seq FROM row_heads WHERE namespace = :ns")
        .bind("ns", ns).map((rs, ctx) -> new Head(rs.getLong(1), rs.getLong(2))).findOne().orElse(null);
  }

  /** Drops what this instance holds of a namespace (its other instances see the new epoch). */
  void forget(String namespace) {
    slots.remove(namespace);
  }

  /** Namespaces whose copies this instance holds now (at most {@code maxNamespaces}). */
  int namespacesHeld() {
    return slots.size();
  }

  long evictions() {
    return slots.evictions();
  }

  long headReads() {
    return headReads.get();
  }

  long fullLoads() {
    return fullLoads.get();
  }

  long replays() {
    return replays.get();
  }
}
