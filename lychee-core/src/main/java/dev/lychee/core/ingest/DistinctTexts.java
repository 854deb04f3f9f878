package dev.lychee.core.ingest;

import dev.lychee.api.spi.Embedder;
import dev.lychee.api.spi.EmbeddingPriority;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Embeds the distinct texts of a batch once each. A write batch can hold one text twice (with
 * {@link dev.lychee.core.segment.SegmentationConfig#exchangeVectorsFromTurns()} a one-turn
 * exchange's text is its turn's text); the embedder would return the same vector for both, since
 * a text's vector does not depend on its batch (docs/defaults.md §7), so the second embedding is
 * work without result. A repeated text gets its own copy of the vector, so that no caller shares
 * an array with another.
 */
final class DistinctTexts {
  private DistinctTexts() {}

  /** The vectors of {@code texts}, in order, embedding each distinct text once. */
  static List<float[]> embed(Embedder embedder, List<String> texts, EmbeddingPriority priority) {
    Map<String, Integer> first = new HashMap<>();
    List<String> distinct = new ArrayList<>(texts.size());
    int[] slot = new int[texts.size()];
    for (int i = 0; i < texts.size(); i++) {
      String t = texts.get(i);
      Integer seen = first.putIfAbsent(t, distinct.size());
      if (seen == null) {
        slot[i] = distinct.size();
        distinct.add(t);
      } else {
        slot[i] = seen;
      }
    }
    List<float[]> vs = embedder.embedDocuments(distinct, priority);
    if (distinct.size() == texts.size()) {
      return vs;
    }
    boolean[] handedOut = new boolean[distinct.size()];
    List<float[]> out = new ArrayList<>(texts.size());
    for (int s : slot) {
      out.add(handedOut[s] ? vs.get(s).clone() : vs.get(s));
      handedOut[s] = true;
    }
    return out;
  }
}
