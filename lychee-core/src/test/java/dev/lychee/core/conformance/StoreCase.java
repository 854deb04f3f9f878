package dev.lychee.core.conformance;

import static dev.lychee.core.conformance.StoreFixtures.record;
import static dev.lychee.core.conformance.StoreFixtures.segment;
import static dev.lychee.core.conformance.StoreFixtures.turn;

import dev.lychee.api.CloseReason;
import dev.lychee.api.EvidenceNode;
import dev.lychee.api.MemoryRecord;
import dev.lychee.api.NodeKind;
import dev.lychee.api.RawTurn;
import dev.lychee.api.Segment;
import dev.lychee.api.SegmentState;
import dev.lychee.api.TurnRange;
import dev.lychee.api.TurnRef;
import dev.lychee.api.spi.RecordStore;
import dev.lychee.api.spi.VectorIndex;
import dev.lychee.core.store.CheckedRecordStore;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * What every storage suite shares: a fresh store per test, behind {@link CheckedRecordStore} as the
 * store modules bind it, and reopening over the same files where the backend is durable.
 */
public abstract class StoreCase {
  /** The store under test, checked. */
  protected RecordStore store;
  /** The backend object behind {@link #store}, as the subject returned it. */
  private RecordStore backend;

  /** The backend under test. */
  protected abstract StoreSubject subject();

  @BeforeEach
  void openStore() {
    backend = subject().newStore();
    store = CheckedRecordStore.of(backend);
  }

  @AfterEach
  void closeStore() {
    if (store != null) {
      store.close();
    }
  }

  protected boolean supportsReopen() {
    return subject().supportsReopen();
  }

  /** Closes the store and opens it again over the same files. */
  protected void reopen() {
    backend = subject().reopen(backend);
    store = CheckedRecordStore.of(backend);
  }

  protected void reopenIfSupported() {
    if (supportsReopen()) {
      reopen();
    }
  }

  /** A second fresh store, checked; the caller closes it. */
  protected RecordStore newStore() {
    return CheckedRecordStore.of(subject().newStore());
  }

  protected VectorIndex companionIndex() {
    return subject().companionIndex(backend);
  }

  /** The stored record with this id, through the batch look-up the read path uses. */
  protected Optional<MemoryRecord> storedRecord(String namespace, String id) {
    return store.records(namespace, List.of(id)).stream().findFirst();
  }

  /** The stored node with this id, through the batch look-up the read path uses. */
  protected Optional<EvidenceNode> storedNode(String namespace, String id) {
    return store.nodes(namespace, List.of(id)).stream().findFirst();
  }

  /** Two sessions of three turns with a segment each, three records (one per session and one across), two nodes. */
  protected void fillSmall(String ns) {
    Segment first = null;
    for (String s : List.of("s1", "s2")) {
      List<RawTurn> turns = List.of(turn(ns, s, 0, "lychee zero " + s), turn(ns, s, 1, "lychee one " + s),
          turn(ns, s, 2, "lychee two " + s));
      store.appendTurns(ns, s, turns);
      Segment seg = segment(turns, CloseReason.SESSION_FLUSH);
      store.putSegment(seg, SegmentState.PENDING);
      first = first == null ? seg : first;
    }
    MemoryRecord onlyS1 = record(ns, "Lychee only in s1.", TurnRef.of("s1", 0));
    MemoryRecord both = record(ns, "Lychee in both sessions.", TurnRef.of("s1", 1), TurnRef.of("s2", 1));
    MemoryRecord onlyS2 = record(ns, "Lychee only in s2.", TurnRef.of("s2", 2));
    EvidenceNode s1Node = new EvidenceNode(null, ns, NodeKind.ENTITY, "only-s1", "", "", List.of(onlyS1.id()),
        List.of("s1"), List.of(), List.of(), null, List.of(new TurnRange("s1", 0, 0)));
    EvidenceNode mixed = new EvidenceNode(null, ns, NodeKind.ENTITY, "mixed", "", "",
        List.of(onlyS1.id(), both.id(), onlyS2.id()), List.of("s1", "s2"), List.of(), List.of(), null,
        List.of(new TurnRange("s1", 0, 1), new TurnRange("s2", 1, 2)));
    // written as the encoding of s1's segment, so no segment of another session appears
    store.commitEncoding(ns, first.id(), List.of(onlyS1, both, onlyS2), List.of(s1Node, mixed));
  }

  /** A random unit vector. */
  protected static float[] unit(Random rnd, int dim) {
    float[] v = new float[dim];
    double n = 0;
    for (int i = 0; i < dim; i++) {
      v[i] = (float) rnd.nextGaussian();
      n += v[i] * v[i];
    }
    float inv = (float) (1 / Math.sqrt(n));
    for (int i = 0; i < dim; i++) {
      v[i] *= inv;
    }
    return v;
  }
}
