package dev.lychee.api.spi;

/**
 * How urgently the caller of {@link Embedder#embedDocuments(java.util.List, EmbeddingPriority)}
 * needs the vectors. A hint: an embedder may let background batches give way to foreground ones
 * (the in-process ONNX embedder does, since both share the same cores), or ignore it (a remote
 * embedder usually does). The vectors never depend on it.
 */
public enum EmbeddingPriority {
  /**
   * Someone waits for the result: the turns and exchanges of an {@code append}, a flush, a query.
   * What {@link Embedder#embedDocuments(java.util.List)} stands for.
   */
  FOREGROUND,
  /**
   * Nobody waits right now: the records and nodes of segments encoded in the background. May be
   * delayed while foreground batches run.
   */
  BACKGROUND
}
