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
import java.util.Set;
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
    Slot slot = slots.get(namespace);
    Head head;
    Caught caught = null;
    if (at != null) {
      head = at.rows();
    } else {
      caught = catchUpOutsideAPoint(namespace, slot);
      head = caught == null ? db.read(h -> head(h, namespace)) : caught.read().head();
      headReads.incrementAndGet();
    }
    slot.lock.writeLock().lock();
    try {
      Copy have = slot.current;
      if (head == null) {
        slot.current = null;
      } else if (caught != null && caught.applies(have)) {
        if (have.seq < head.seq()) {
          apply(caught.read(), have, slot);
        }
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
   * A catch-up read for {@code copy} at number {@code seq}, before the slot's write lock was taken:
   * it applies only to that copy still at that number, with the head still in its epoch.
   */
  private record Caught(Copy copy, long seq, Read read) {
    boolean applies(Copy current) {
      return current == copy && current.seq == seq && read.head() != null && read.head().epoch() == copy.epoch;
    }
  }

  /**
   * For a read outside a {@link HeadPoint} of a namespace whose copy this instance holds: the head
   * and the rows changed since the copy's number in one statement ({@link #catchUp}), instead of
   * the head alone and then, when it moved, that statement. Null when there is no copy (the head
   * is read alone, so that an empty namespace costs one indexed row). Why (round twenty-three,
   * docs/measurements.md §6): the encoder reads a kind's nodes for every segment, and its own
   * commit has always moved the head since, so every such read was two round trips on the
   * encoder's thread. When nothing changed the statement returns the head alone, as the head read
   * did. Read without the slot's lock, like the head was, so that readers do not wait for each
   * other's round trips; applied under it only to the copy it was read for ({@link Caught}).
   */
  private Caught catchUpOutsideAPoint(String namespace, Slot slot) {
    Copy have;
    long seq;
    slot.lock.readLock().lock();
    try {
      have = slot.current;
      if (have == null) {
        return null;
      }
      seq = have.seq;
    } finally {
      slot.lock.readLock().unlock();
    }
    return new Caught(have, seq, db.read(h -> catchUp(h, namespace, have.epoch, seq)));
  }

  /**
   * Brings the slot to the head (read again, so never older than the one the caller saw). A copy
   * of the same epoch catches up in one statement ({@link #catchUp}); a first load or a new epoch
   * reads every row in one snapshot. The rows are read before the copy changes, so a read retried
   * after a transient failure leaves no half-applied copy.
   */
  private void refresh(String namespace, Slot slot) {
    Copy have = slot.current;
    Read read = have == null ? null : db.read(h -> catchUp(h, namespace, have.epoch, have.seq));
    if (read == null || read.head() != null && read.head().epoch() != have.epoch) {
      read = db.readSnapshot(h -> {
        Head head = head(h, namespace);
        if (head == null) {
          return null;
        }
        boolean full = have == null || have.epoch != head.epoch();
        long after = full ? -1 : have.seq;
        return new Read(head, full, records.changedWithText(h, namespace, after, head.seq()),
            nodes.rows.changed(h, namespace, after, head.seq()));
      });
    }
    if (read == null || read.head() == null) {
      slot.current = null;
      return;
    }
    apply(read, have, slot);
  }

  /** Puts what {@code read} read into a new copy (a full read) or into {@code have}, the slot's copy. */
  private void apply(Read read, Copy have, Slot slot) {
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

  /** The columns of {@link #CATCH_UP}'s rows: a record's and a node's, each with its type. */
  private static final String[][] CATCH_UP_COLUMNS = {
      {"namespace", "text"}, {"id", "text"}, {"type", "text"}, {"text", "text"}, {"entities", "text"},
      {"tags", "text"}, {"t_ref", "text"}, {"t_valid_from", "text"}, {"t_valid_to", "text"},
      {"span_start", "date"}, {"span_end", "date"}, {"has_span", "boolean"}, {"unparsed", "boolean"},
      {"evidence", "text"}, {"session", "text"}, {"segment_id", "text"}, {"source_role", "text"},
      {"created_at", "timestamp"}, {"kind", "text"}, {"key", "text"}, {"label", "text"}, {"search_text", "text"},
      {"record_ids_base", "text"}, {"record_ids_tail", "text"}, {"sessions", "text"}, {"turn_ranges", "text"}};

  /**
   * The row head, the records and the nodes changed since a number, in one result: part 0 is the
   * head, part 1 a record (with its {@code tsv} text), part 2 a node; a column a part's table
   * lacks is NULL.
   */
  private static final String CATCH_UP = "WITH h AS (SELECT epoch, seq FROM row_heads WHERE namespace = :ns)"
      + " SELECT 0 AS part, h.epoch AS head_epoch, h.seq AS head_seq, " + items(null) + ", NULL::text AS tsv_text FROM h"
      + " UNION ALL SELECT 1, 0, 0, " + items(RecordTable.COLUMNS) + ", r.tsv::text FROM h, records r"
      + " WHERE h.epoch = :epoch AND r.namespace = :ns AND r.change_seq > :after AND r.change_seq <= h.seq"
      + " UNION ALL SELECT 2, 0, 0, " + items(NodeTable.COLUMNS) + ", NULL FROM h, nodes n"
      + " WHERE h.epoch = :epoch AND n.namespace = :ns AND n.change_seq > :after AND n.change_seq <= h.seq";

  /** The select items of one part: the table's own columns, NULL of the column's type for the others. */
  private static String items(String tableColumns) {
    Set<String> own = tableColumns == null ? Set.of()
        : Set.of(tableColumns.replace(" ", "").split(","));
    StringBuilder sb = new StringBuilder();
    for (String[] c : CATCH_UP_COLUMNS) {
      if (sb.length() > 0) {
        sb.append(", ");
      }
      sb.append(own.contains(c[0]) ? c[0] : "NULL::" + c[1] + " AS " + c[0]);
    }
    return sb.toString();
  }

  /**
   * The namespace's row head and, when its epoch is still {@code epoch}, the records and nodes
   * changed in {@code (after, head]}, in one statement in autocommit: one round trip, where the
   * head and the rows read in a snapshot took five (the isolation setting, the head, the records,
   * the nodes, the commit; round twenty-one, docs/measurements.md §6). One statement reads one
   * snapshot, so the rows are those a snapshot showing that head shows. Null head: the namespace
   * holds no row; another epoch: only the head, and the caller reloads.
   */
  private static Read catchUp(Handle h, String ns, long epoch, long after) {
    Head[] head = {null};
    List<RecordTable.Indexed> changedRecords = new ArrayList<>();
    List<EvidenceNode> changedNodes = new ArrayList<>();
    h.createQuery(CATCH_UP).bind("ns", ns).bind("epoch", epoch).bind("after", after)
        .map((rs, ctx) -> {
          switch (rs.getInt("part")) {
            case 0 -> head[0] = new Head(rs.getLong("head_epoch"), rs.getLong("head_seq"));
            case 1 -> changedRecords.add(new RecordTable.Indexed(RecordTable.map(rs, ctx), rs.getString("tsv_text")));
            default -> changedNodes.add(NodeTable.map(rs, ctx));
          }
          return Boolean.TRUE;
        }).forEach(done -> {});
    return new Read(head[0], false, changedRecords, changedNodes);
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
