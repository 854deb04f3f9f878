package dev.lychee.core.store;

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
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.Lock;
import java.util.function.Function;

/**
 * A {@link RecordStore} held in memory: for tests, demos and short-lived agents. It only stores:
 * arguments are checked by {@link CheckedRecordStore}, which the core module binds in front of it.
 *
 * <p>Each namespace has its own read/write lock, so writers of different namespaces never wait on
 * each other and every write call is atomic with respect to readers of its namespace. Lexical
 * search uses one {@link Bm25Index} per namespace and field. Namespace holders are never removed
 * (forgetting clears them under their lock), so a writer racing a {@code forget} can never write
 * into a detached holder and lose data silently.
 */
public final class InMemoryRecordStore implements RecordStore {
  private final Map<String, NamespaceData> spaces = new ConcurrentHashMap<>();

  /** An empty store. */
  public InMemoryRecordStore() {}

  // ---- plumbing ----

  private NamespaceData writable(String namespace) {
    return spaces.computeIfAbsent(namespace, n -> new NamespaceData());
  }

  private <T> T read(String namespace, T empty, Function<NamespaceData, T> body) {
    NamespaceData d = spaces.get(namespace);
    if (d == null) {
      return empty;
    }
    Lock l = d.lock.readLock();
    l.lock();
    try {
      return body.apply(d);
    } finally {
      l.unlock();
    }
  }

  private <T> T write(String namespace, Function<NamespaceData, T> body) {
    NamespaceData d = writable(namespace);
    Lock l = d.lock.writeLock();
    l.lock();
    try {
      return body.apply(d);
    } finally {
      l.unlock();
    }
  }

  // ---- raw turns ----

  @Override
  public List<RawTurn> appendTurns(String namespace, String session, List<RawTurn> turns) {
    return write(namespace, d -> {
      List<RawTurn> added = new ArrayList<>();
      TreeMap<Integer, RawTurn> s = d.turns.get(session);
      for (RawTurn t : turns) {
        if (s == null) {
          s = new TreeMap<>();
          d.turns.put(session, s);
        }
        if (s.putIfAbsent(t.index(), t) == null) {
          added.add(t);
          d.turnText.put(t.id(), t.content());
          d.turnCount++;
        }
      }
      return added;
    });
  }

  @Override
  public int nextTurnIndex(String namespace, String session) {
    return read(namespace, 0, d -> {
      TreeMap<Integer, RawTurn> s = d.turns.get(session);
      return s == null || s.isEmpty() ? 0 : s.lastKey() + 1;
    });
  }

  @Override
  public Optional<RawTurn> turn(String namespace, TurnRef ref) {
    return read(namespace, Optional.empty(), d -> Optional.ofNullable(d.turn(ref)));
  }

  @Override
  public List<RawTurn> turns(String namespace, String session, int from, int to) {
    return read(namespace, List.of(), d -> {
      TreeMap<Integer, RawTurn> s = d.turns.get(session);
      if (s == null || from > to) {
        return List.of();
      }
      return List.copyOf(s.subMap(from, true, to, true).values());
    });
  }

  @Override
  public List<RawTurn> turns(String namespace, String session) {
    return read(namespace, List.of(), d -> {
      TreeMap<Integer, RawTurn> s = d.turns.get(session);
      return s == null ? List.of() : List.copyOf(s.values());
    });
  }

  @Override
  public List<String> sessions(String namespace) {
    return read(namespace, List.of(), d -> List.copyOf(d.turns.keySet()));
  }

  @Override
  public List<String> namespaces() {
    List<String> out = new ArrayList<>();
    for (Map.Entry<String, NamespaceData> e : spaces.entrySet()) {
      Lock l = e.getValue().lock.readLock();
      l.lock();
      try {
        if (e.getValue().turnCount > 0) {
          out.add(e.getKey());
        }
      } finally {
        l.unlock();
      }
    }
    out.sort(Comparator.naturalOrder());
    return out;
  }

  @Override
  public long countTurns(String namespace) {
    return read(namespace, 0L, d -> d.turnCount);
  }

  // ---- segments ----

  @Override
  public boolean putSegment(Segment segment, SegmentState state) {
    return write(segment.namespace(), d -> {
      boolean overlaps = SegmentOverlap.sharesTurn(segment,
          d.segments.values().stream().map(StoredSegment::segment).toList());
      if (!overlaps) {
        d.segments.put(segment.id(), new StoredSegment(segment, state, null));
      }
      return !overlaps;
    });
  }

  @Override
  public void setSegmentState(String namespace, String segmentId, SegmentState state, String error) {
    write(namespace, d -> {
      d.setState(segmentId, state, error);
      return null;
    });
  }

  private static final Comparator<StoredSegment> SEGMENT_ORDER =
      Comparator.comparing((StoredSegment s) -> s.segment().session())
          .thenComparingInt(s -> s.segment().firstIndex())
          .thenComparingInt(s -> s.segment().lastIndex());

  @Override
  public List<StoredSegment> segments(String namespace) {
    return read(namespace, List.of(), d -> {
      List<StoredSegment> out = new ArrayList<>(d.segments.values());
      out.sort(SEGMENT_ORDER);
      return List.copyOf(out);
    });
  }

  @Override
  public int segmentedThrough(String namespace, String session) {
    return read(namespace, -1, d -> {
      int max = -1;
      for (StoredSegment s : d.segments.values()) {
        if (s.segment().session().equals(session)) {
          max = Math.max(max, s.segment().lastIndex());
        }
      }
      return max;
    });
  }

  @Override
  public void commitEncoding(String namespace, String segmentId, List<MemoryRecord> records,
      List<EvidenceNode> nodes) {
    write(namespace, d -> {
      if (!d.segments.containsKey(segmentId)) {
        throw new IllegalArgumentException("no segment '" + segmentId + "' in namespace '" + namespace + "'");
      }
      d.putRecords(records);
      d.putNodes(nodes);
      d.setState(segmentId, SegmentState.ENCODED, null);
      return null;
    });
  }

  // ---- records ----

  @Override
  public List<MemoryRecord> records(String namespace, Collection<String> ids) {
    return read(namespace, List.of(), d -> {
      List<MemoryRecord> out = new ArrayList<>();
      for (String id : new LinkedHashSet<>(ids)) {
        MemoryRecord r = d.records.get(id);
        if (r != null) {
          out.add(r);
        }
      }
      return List.copyOf(out);
    });
  }

  @Override
  public List<MemoryRecord> records(String namespace) {
    return read(namespace, List.of(), d -> List.copyOf(d.records.values()));
  }

  // ---- evidence nodes ----

  @Override
  public List<EvidenceNode> nodes(String namespace, Collection<String> ids) {
    return read(namespace, List.of(), d -> {
      List<EvidenceNode> out = new ArrayList<>();
      for (String id : new LinkedHashSet<>(ids)) {
        EvidenceNode n = d.nodes.get(id);
        if (n != null) {
          out.add(n);
        }
      }
      return List.copyOf(out);
    });
  }

  @Override
  public List<EvidenceNode> nodes(String namespace, NodeKind kind) {
    return read(namespace, List.of(), d -> d.nodes.values().stream()
        .filter(n -> n.kind() == kind)
        .sorted(Comparator.comparing(EvidenceNode::key).thenComparing(EvidenceNode::id))
        .toList());
  }

  // ---- lexical search ----

  @Override
  public List<ScoredId> searchText(String namespace, TextField field, String query, int k) {
    return read(namespace, List.of(), d -> {
      Bm25Index index = field == TextField.TURNS ? d.turnText : d.recordText;
      return index.search(query, k);
    });
  }

  // ---- deletion ----

  @Override
  public Forgotten forget(String namespace) {
    return write(namespace, d -> {
      List<String> turnIds = new ArrayList<>();
      d.turns.values().forEach(s -> s.values().forEach(t -> turnIds.add(t.id())));
      Forgotten f = new Forgotten(turnIds, List.copyOf(d.records.keySet()), List.copyOf(d.nodes.keySet()));
      d.clear();
      return f;
    });
  }

  @Override
  public Forgotten forget(String namespace, String session) {
    return write(namespace, d -> {
      List<String> turnIds = new ArrayList<>();
      TreeMap<Integer, RawTurn> s = d.turns.remove(session);
      if (s != null) {
        for (RawTurn t : s.values()) {
          turnIds.add(t.id());
          d.turnText.remove(t.id());
        }
        d.turnCount -= s.size();
      }
      d.segments.values().removeIf(x -> x.segment().session().equals(session));

      List<String> removedRecords = new ArrayList<>();
      for (MemoryRecord r : List.copyOf(d.records.values())) {
        MemoryRecord kept = SessionPruning.withoutSession(r, session);
        if (kept == null) {
          d.records.remove(r.id());
          d.recordText.remove(r.id());
          removedRecords.add(r.id());
        } else if (kept != r) {
          d.records.put(r.id(), kept);
        }
      }
      Set<String> gone = new HashSet<>(removedRecords);
      List<String> removedNodes = new ArrayList<>();
      for (EvidenceNode n : List.copyOf(d.nodes.values())) {
        EvidenceNode kept = SessionPruning.withoutRecords(n, gone, session);
        if (kept == null) {
          d.nodes.remove(n.id());
          removedNodes.add(n.id());
        } else if (kept != n) {
          d.nodes.put(n.id(), kept);
        }
      }
      return new Forgotten(turnIds, removedRecords, removedNodes);
    });
  }

  /** Nothing to release: the data goes with the object. */
  @Override
  public void close() {}
}
