package dev.lychee.core.ingest;

import dev.lychee.api.Exchange;
import dev.lychee.api.RawTurn;
import dev.lychee.api.Segment;
import dev.lychee.api.spi.Embedder;
import dev.lychee.api.spi.RecordStore;
import dev.lychee.api.spi.Segmenter;
import dev.lychee.core.segment.ExchangeDraft;
import dev.lychee.core.segment.Exchanges;
import dev.lychee.core.segment.SegmentationConfig;
import java.util.ArrayList;
import java.util.List;

/**
 * The live segmenter of one (namespace, session) and how far it has been fed.
 *
 * <p>Segmenters are not persisted. After a restart the first call for a session starts a fresh
 * segmenter at the first turn that no stored segment covers and re-offers every stored turn from
 * there, so no turn is ever left out of a segment and none lands in two. Not thread-safe: the
 * writer holds the session's lock.
 */
final class SessionSegmentation {
  private final String namespace;
  private final String session;
  private final Segmenter segmenter;
  private final SegmentationConfig config;
  private int offeredThrough;

  SessionSegmentation(String namespace, String session, Segmenter segmenter, SegmentationConfig config, RecordStore store) {
    this.namespace = namespace;
    this.session = session;
    this.segmenter = segmenter;
    this.config = config;
    this.offeredThrough = store.segmentedThrough(namespace, session);
  }

  /**
   * Offers every stored turn after the last offered one. Exchanges are embedded as the segmenter
   * sees them (one {@code "<role>: <content>"} line per turn, docs/defaults.md §1.3) in one batch, even
   * when an exchange holds a single turn whose own vector exists: the embedder's surprise profile
   * is calibrated on exactly that text, and the segmenter is sensitive to the difference.
   */
  List<Segment> offerStored(RecordStore store, Embedder embedder) {
    List<RawTurn> fresh = store.turns(namespace, session, offeredThrough + 1, Integer.MAX_VALUE);
    if (fresh.isEmpty()) {
      return List.of();
    }
    List<ExchangeDraft> drafts = Exchanges.form(fresh, config);
    List<float[]> vectors = embedder.embedDocuments(
        drafts.stream().map(d -> Exchanges.embeddingText(d.text(), config.maxEmbeddingChars())).toList());
    List<Exchange> exchanges = new ArrayList<>(drafts.size());
    for (int i = 0; i < drafts.size(); i++) {
      ExchangeDraft d = drafts.get(i);
      exchanges.add(new Exchange(namespace, session, d.turns(), d.text(), d.tokens(), vectors.get(i), d.forceFinalize()));
    }
    offeredThrough = fresh.get(fresh.size() - 1).index();
    return segmenter.offerAll(exchanges);
  }

  List<Segment> flush() {
    return segmenter.flush();
  }
}
