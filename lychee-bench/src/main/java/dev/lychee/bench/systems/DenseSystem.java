package dev.lychee.bench.systems;

import dev.lychee.api.spi.Embedder;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Baseline: the embedder over raw turns, exact (brute-force) cosine search. Documents are embedded
 * document-side and the question query-side, so an embedder's query instruction (BGE's) applies
 * exactly as in the pipeline.
 */
public final class DenseSystem implements EvalSystem {
  private final Embedder embedder;
  private final Map<String, Corpus> corpora = new HashMap<>();

  public DenseSystem(Embedder embedder) {
    this.embedder = Objects.requireNonNull(embedder, "embedder");
  }

  private record Corpus(List<IndexedTurn> turns, float[][] vectors) {}

  @Override
  public String name() {
    return "dense";
  }

  @Override
  public void ingest(String namespace, List<EvalSession> sessions) {
    List<IndexedTurn> turns = IndexedTurn.of(sessions);
    List<float[]> vectors = embedder.embedDocuments(turns.stream().map(IndexedTurn::text).toList());
    corpora.put(namespace, new Corpus(turns, vectors.toArray(new float[0][])));
  }

  @Override
  public List<EvidenceItem> recall(String namespace, String question, int depth) {
    return search(namespace, question, depth).stream().map(IndexedTurn::toItem).toList();
  }

  /** The {@code depth} turns most similar to the question, best first (ties in ingest order). */
  List<IndexedTurn> search(String namespace, String question, int depth) {
    Corpus c = corpora.get(namespace);
    if (c == null) {
      throw new IllegalStateException("unknown namespace " + namespace);
    }
    int[] top = ExactTopK.topK(c.vectors(), embedder.embedQuery(question), depth);
    List<IndexedTurn> out = new ArrayList<>(top.length);
    for (int i : top) {
      out.add(c.turns().get(i));
    }
    return out;
  }

  @Override
  public void forget(String namespace) {
    corpora.remove(namespace);
  }
}
