package dev.lychee.bench.cli;

import dev.lychee.api.spi.Embedder;
import dev.lychee.embed.onnx.OnnxEmbedder;
import dev.lychee.embed.onnx.OnnxEmbedderConfig;

/**
 * The embedder the harness uses unless told otherwise: the project's offline default, BGE-small-en-v1.5
 * (quantized ONNX), which adds BGE's query instruction on the query side itself.
 */
final class DefaultEmbedder {
  private DefaultEmbedder() {}

  static Embedder create() {
    return new OnnxEmbedder();
  }

  /** The same model without its query cache, for timing query embeddings honestly. */
  static Embedder uncached() {
    return new OnnxEmbedder(OnnxEmbedderConfig.builder().queryCacheSize(0).build());
  }
}
