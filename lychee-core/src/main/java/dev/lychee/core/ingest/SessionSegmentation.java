package dev.lychee.core.ingest;

import dev.lychee.api.CloseReason;
import dev.lychee.api.Exchange;
import dev.lychee.api.RawTurn;
import dev.lychee.api.Segment;
import dev.lychee.api.StoredSegment;
import dev.lychee.api.TurnRef;
import dev.lychee.api.spi.Embedder;
import dev.lychee.api.spi.EmbeddingPriority;
import dev.lychee.api.spi.RecordStore;
import dev.lychee.api.spi.Segmenter;
import dev.lychee.core.segment.ExchangeDraft;
import dev.lychee.core.segment.Exchanges;
import dev.lychee.core.segment.SegmentationConfig;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;

/**
 * The live segmenter of one (namespace, session) and how far it has been fed.
 *
 * <p>Segmenters are not persisted. After a restart the first call for a session starts a fresh
 * segmenter at the first turn after the last stored segment and re-offers every stored turn from
 * there, so no turn is ever left out of a segment and none lands in two.
 *
 * <p><b>Late turns.</b> A turn stored with an explicit index at or below what the segmenter has
 * already seen (indices sent out of order) cannot enter the online segmenter, which only moves
 * forward. Such turns are collected, and {@link #flush} closes each run of consecutive late turns
 * as a segment of its own ({@link CloseReason#LATE_TURNS}); after a restart, stored turns below
 * the segmented range that no stored segment covers are found once and treated the same way. Not
 * thread-safe: the writer holds the session's lock.
 */
final class SessionSegmentation {
  private final String namespace;
  private final String session;
  private final Segmenter segmenter;
  private final SegmentationConfig config;
  private final TreeMap<Integer, RawTurn> late = new TreeMap<>();
  private int offeredThrough;
  /** {@link System#nanoTime()} of the session's last use, for the idle flush; read without the session's lock. */
  private volatile long lastUsed = System.nanoTime();

  SessionSegmentation(String namespace, String session, Segmenter segmenter, SegmentationConfig config, RecordStore store) {
    this.namespace = namespace;
    this.session = session;
    this.segmenter = segmenter;
    this.config = config;
    this.offeredThrough = store.segmentedThrough(namespace, session);
    if (offeredThrough >= 0) {
      findUncovered(store);
    }
  }

  private void findUncovered(RecordStore store) {
    Set<Integer> covered = new HashSet<>();
    for (StoredSegment s : store.segments(namespace)) {
      if (s.segment().session().equals(session)) {
        s.segment().turns().forEach(t -> covered.add(t.index()));
      }
    }
    for (RawTurn t : store.turns(namespace, session, 0, offeredThrough)) {
      if (!covered.contains(t.index())) {
        late.put(t.index(), t);
      }
    }
  }

  /** Marks the session as used now (an append, a segmentation step). */
  void touch() {
    lastUsed = System.nanoTime();
  }

  /** {@link System#nanoTime()} of the last {@link #touch}. */
  long lastUsed() {
    return lastUsed;
  }

  /** Notes newly stored turns that lie at or below the segmenter's position. */
  void noteStored(List<RawTurn> stored) {
    for (RawTurn t : stored) {
      if (t.index() <= offeredThrough) {
        late.put(t.index(), t);
      }
    }
  }

  /**
   * The exchanges of every stored turn after the last offered one, formed but not yet embedded nor
   * offered. Exchanges are embedded as the segmenter sees them (one {@code "<role>: <content>"}
   * line per turn, docs/defaults.md §1.3), even when an exchange holds a single turn whose own
   * vector exists: the embedder's surprise profile is calibrated on exactly that text, and the
   * segmenter is sensitive to the difference. {@link SegmentationConfig#exchangeVectorsFromTurns()}
   * embeds such an exchange as its turn's text instead ({@link ExchangeDraft#embeddingText}).
   */
  Fresh fresh(RecordStore store) {
    return fresh(store.turns(namespace, session, offeredThrough + 1, Integer.MAX_VALUE));
  }

  private Fresh fresh(List<RawTurn> turns) {
    return new Fresh(turns, turns.isEmpty() ? List.of() : Exchanges.form(turns, config));
  }

  /**
   * Stored turns not yet offered and their exchanges.
   *
   * @param turns the turns, in index order
   * @param drafts their exchanges, in order
   */
  record Fresh(List<RawTurn> turns, List<ExchangeDraft> drafts) {}

  /** The texts to embed for {@code fresh}'s exchanges, in order. */
  List<String> embeddingTexts(Fresh fresh) {
    return fresh.drafts().stream().map(d -> d.embeddingText(config)).toList();
  }

  /**
   * Offers {@code fresh}'s exchanges with their vectors (one per draft, in order) to the segmenter.
   *
   * @return the segments that closed
   */
  List<Segment> offer(Fresh fresh, List<float[]> vectors) {
    if (fresh.turns().isEmpty()) {
      return List.of();
    }
    List<ExchangeDraft> drafts = fresh.drafts();
    List<Exchange> exchanges = new ArrayList<>(drafts.size());
    for (int i = 0; i < drafts.size(); i++) {
      ExchangeDraft d = drafts.get(i);
      exchanges.add(new Exchange(namespace, session, d.turns(), d.text(), d.tokens(), vectors.get(i), d.forceFinalize()));
    }
    offeredThrough = fresh.turns().get(fresh.turns().size() - 1).index();
    return segmenter.offerAll(exchanges);
  }

  /** Embeds and offers every stored turn after the last offered one ({@link #fresh}, {@link #offer}). */
  List<Segment> offerStored(RecordStore store, Embedder embedder) {
    return offerStored(store, embedder, EmbeddingPriority.FOREGROUND);
  }

  /** As {@link #offerStored(RecordStore, Embedder)}, embedding with {@code priority}. */
  List<Segment> offerStored(RecordStore store, Embedder embedder, EmbeddingPriority priority) {
    return embedAndOffer(fresh(store), embedder, priority);
  }

  private List<Segment> embedAndOffer(Fresh fresh, Embedder embedder, EmbeddingPriority priority) {
    return fresh.turns().isEmpty() ? List.of()
        : offer(fresh, embedder.embedDocuments(embeddingTexts(fresh), priority));
  }

  /**
   * As {@link #offerStored(RecordStore, Embedder, EmbeddingPriority)}, but with the turns this
   * process stored for the session since the last step ({@code handed}, any order): when those
   * after the segmenter's position continue it without a gap, they are offered as they are and the
   * store is not read; otherwise (turns another writer stored in between, a restart, nothing new
   * handed over) the store is read as before. A turn another writer stores after the last handed
   * one is offered by the next step or flush, as it would be had it come a moment later.
   */
  List<Segment> offerHanded(List<RawTurn> handed, RecordStore store, Embedder embedder, EmbeddingPriority priority) {
    TreeMap<Integer, RawTurn> after = new TreeMap<>();
    for (RawTurn t : handed) {
      if (t.index() > offeredThrough) {
        after.putIfAbsent(t.index(), t);
      }
    }
    boolean continues = !after.isEmpty() && after.firstKey() == offeredThrough + 1
        && after.lastKey() - after.firstKey() + 1 == after.size();
    Fresh fresh = continues ? fresh(List.copyOf(after.values())) : fresh(store);
    return embedAndOffer(fresh, embedder, priority);
  }

  /** Closes the open segment and every run of late turns. */
  List<Segment> flush() {
    List<Segment> out = new ArrayList<>(segmenter.flush());
    out.addAll(lateSegments());
    return out;
  }

  private List<Segment> lateSegments() {
    List<Segment> out = new ArrayList<>();
    List<RawTurn> run = new ArrayList<>();
    for (RawTurn t : late.values()) {
      if (!run.isEmpty() && run.get(run.size() - 1).index() + 1 != t.index()) {
        out.add(lateSegment(run));
        run = new ArrayList<>();
      }
      run.add(t);
    }
    if (!run.isEmpty()) {
      out.add(lateSegment(run));
    }
    late.clear();
    return out;
  }

  private Segment lateSegment(List<RawTurn> run) {
    List<ExchangeDraft> drafts = Exchanges.form(run, config);
    int tokens = drafts.stream().mapToInt(ExchangeDraft::tokens).sum();
    return new Segment(namespace, session, run, drafts.size(), tokens, CloseReason.LATE_TURNS, Double.NaN, Double.NaN);
  }

  /** The refs of late turns waiting for a flush (for tests and status). */
  List<TurnRef> lateTurns() {
    return late.values().stream().map(RawTurn::ref).toList();
  }
}
