package dev.lychee.core.testing;

import dev.lychee.api.DateRange;
import dev.lychee.api.EvidenceNode;
import dev.lychee.api.MemoryRecord;
import dev.lychee.api.MemoryType;
import dev.lychee.api.NodeKind;
import dev.lychee.api.RawTurn;
import dev.lychee.api.Role;
import dev.lychee.api.SourceRole;
import dev.lychee.api.TemporalScope;
import dev.lychee.api.TurnRange;
import dev.lychee.api.TurnRef;
import dev.lychee.api.spi.Embedder;
import dev.lychee.api.spi.RecordStore;
import dev.lychee.api.spi.VectorIndex;
import dev.lychee.core.store.InMemoryRecordStore;
import dev.lychee.core.vector.ExactVectorIndex;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A small hand-written memory for channel and pipeline tests: turns, records and evidence nodes
 * are written to the in-memory store and embedded with the hashing embedder into the exact index,
 * the way ingest would store them.
 */
public final class MemoryFixture {
  public static final String NS = "ns";
  public final RecordStore store;
  public final VectorIndex vectors;
  public final Embedder embedder;
  /** The namespace this fixture writes to. */
  public final String namespace;

  /** A fixture over a fresh in-memory store and exact index, writing to {@link #NS}. */
  public MemoryFixture() {
    this(NS, new InMemoryRecordStore(), new ExactVectorIndex(), new HashingEmbedder(512));
  }

  private MemoryFixture(String namespace, RecordStore store, VectorIndex vectors, Embedder embedder) {
    this.namespace = namespace;
    this.store = store;
    this.vectors = vectors;
    this.embedder = embedder;
  }

  /** A fixture over the same store, index and embedder that writes to another namespace. */
  public MemoryFixture in(String otherNamespace) {
    return new MemoryFixture(otherNamespace, store, vectors, embedder);
  }

  /** Stores and embeds the turns of one session, spoken alternately by the two speakers. */
  public List<RawTurn> session(String session, LocalDate date, String... lines) {
    List<RawTurn> turns = new ArrayList<>();
    for (int i = 0; i < lines.length; i++) {
      int colon = lines[i].indexOf(':');
      String speaker = lines[i].substring(0, colon);
      String text = lines[i].substring(colon + 1).strip();
      turns.add(new RawTurn(namespace, TurnRef.of(session, i), Role.USER, speaker, text, date.atTime(12, 0)));
    }
    store.appendTurns(namespace, session, turns);
    List<String> texts = turns.stream().map(RawTurn::content).toList();
    List<float[]> vs = embedder.embedDocuments(texts);
    Map<String, float[]> m = new java.util.HashMap<>();
    for (int i = 0; i < turns.size(); i++) {
      m.put(turns.get(i).id(), vs.get(i));
    }
    vectors.upsert(namespace, VectorIndex.TURNS, m);
    return turns;
  }

  /** Stores and embeds a record citing one turn; returns it. */
  public MemoryRecord record(String session, int turn, MemoryType type, String text, List<String> entities,
      LocalDate eventDay) {
    TemporalScope t = eventDay == null ? TemporalScope.NONE
        : new TemporalScope(eventDay.toString(), "", "", DateRange.day(eventDay), false);
    LocalDateTime created = store.turn(namespace, TurnRef.of(session, turn)).map(RawTurn::time).orElse(null);
    MemoryRecord r = new MemoryRecord(null, namespace, type, text, entities, List.of(), t,
        List.of(TurnRef.of(session, turn)), session, "seg-" + session, SourceRole.USER, created);
    StoreWrites.records(store, namespace, List.of(r));
    vectors.upsert(namespace, VectorIndex.RECORDS, Map.of(r.id(), embedder.embedDocuments(List.of(r.normalizedText())).get(0)));
    return r;
  }

  /** Stores an evidence node linking records, embedding its search text unless it is temporal. */
  public EvidenceNode node(NodeKind kind, String key, String searchText, DateRange span, MemoryRecord... records) {
    List<String> ids = new ArrayList<>();
    List<TurnRange> ranges = new ArrayList<>();
    for (MemoryRecord r : records) {
      ids.add(r.id());
      TurnRef t = r.evidence().get(0);
      ranges.add(new TurnRange(t.session(), t.index(), t.index()));
    }
    EvidenceNode n = new EvidenceNode(null, namespace, kind, key, key, searchText, ids,
        List.of(records[0].session()), List.of(), List.of(), span, ranges);
    StoreWrites.nodes(store, namespace, List.of(n));
    if (kind != NodeKind.TEMPORAL) {
      vectors.upsert(namespace, VectorIndex.nodes(kind), Map.of(n.id(), embedder.embedDocuments(List.of(searchText)).get(0)));
    }
    return n;
  }
}
