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
import java.util.Map;

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
   * Offers every stored turn after the last offered one.
   *
   * @param turnVectors vectors of turns embedded in this call, by turn id; an exchange of exactly
   *     one turn reuses its turn's vector instead of embedding again
   */
  List<Segment> offerStored(RecordStore store, Embedder embedder, Map<String, float[]> turnVectors) {
    List<RawTurn> fresh = store.turns(namespace, session, offeredThrough + 1, Integer.MAX_VALUE);
    if (fresh.isEmpty()) {
      return List.of();
    }
    List<ExchangeDraft> drafts = Exchanges.form(fresh, config);
    List<float[]> vectors = embed(drafts, embedder, turnVectors);
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

  private List<float[]> embed(List<ExchangeDraft> drafts, Embedder embedder, Map<String, float[]> turnVectors) {
    int maxChars = config.maxEmbeddingChars();
    float[][] out = new float[drafts.size()][];
    List<Integer> missing = new ArrayList<>();
    List<String> texts = new ArrayList<>();
    for (int i = 0; i < drafts.size(); i++) {
      ExchangeDraft d = drafts.get(i);
      float[] reuse = d.turns().size() == 1 && !d.forceFinalize() ? turnVectors.get(d.turns().get(0).id()) : null;
      if (reuse != null) {
        out[i] = reuse;
      } else {
        missing.add(i);
        texts.add(Exchanges.embeddingText(d.text(), maxChars));
      }
    }
    if (!texts.isEmpty()) {
      List<float[]> vs = embedder.embedDocuments(texts);
      for (int j = 0; j < missing.size(); j++) {
        out[missing.get(j)] = vs.get(j);
      }
    }
    return List.of(out);
  }
}
