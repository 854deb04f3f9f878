package dev.lychee.bench.systems;

import dev.lychee.api.TurnRef;
import dev.lychee.api.spi.Embedder;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Baseline: reciprocal rank fusion (k = 60) of the BM25 and dense turn rankings. Each ranking is
 * read to a fixed pool depth so that the fused order does not depend on the requested depth.
 */
public final class HybridSystem implements EvalSystem {
  /** How deep each ranking is read before fusion. */
  public static final int POOL_DEPTH = 100;

  private final Bm25System bm25 = new Bm25System();
  private final DenseSystem dense;
  private final ReciprocalRankFusion rrf = new ReciprocalRankFusion(ReciprocalRankFusion.DEFAULT_K);

  public HybridSystem(Embedder embedder) {
    this.dense = new DenseSystem(embedder);
  }

  @Override
  public String name() {
    return "hybrid";
  }

  @Override
  public void ingest(String namespace, List<EvalSession> sessions) {
    bm25.ingest(namespace, sessions);
    dense.ingest(namespace, sessions);
  }

  @Override
  public List<EvidenceItem> recall(String namespace, String question, int depth) {
    int pool = Math.max(depth, POOL_DEPTH);
    List<IndexedTurn> lexical = bm25.search(namespace, question, pool);
    List<IndexedTurn> semantic = dense.search(namespace, question, pool);
    Map<TurnRef, IndexedTurn> byRef = new HashMap<>();
    lexical.forEach(t -> byRef.put(t.ref(), t));
    semantic.forEach(t -> byRef.put(t.ref(), t));
    // Dense first: on equal fused scores the semantic ranking's order wins.
    List<TurnRef> fused = rrf.fuse(List.of(
        semantic.stream().map(IndexedTurn::ref).toList(),
        lexical.stream().map(IndexedTurn::ref).toList()));
    return fused.stream().limit(depth).map(r -> byRef.get(r).toItem()).toList();
  }

  @Override
  public void forget(String namespace) {
    bm25.forget(namespace);
    dense.forget(namespace);
  }

  @Override
  public void close() {
    bm25.close();
  }
}
