package dev.lychee.bench.cli;

import dev.lychee.api.spi.Embedder;

/** The embedder the harness uses unless told otherwise: the project's offline default. */
final class DefaultEmbedder {
  private DefaultEmbedder() {}

  static Embedder create() {
    // TODO(bench): new dev.lychee.embed.onnx.OnnxEmbedder() once lychee-embed-onnx is on main.
    throw new IllegalStateException("the default embedder (lychee-embed-onnx) is not on this branch yet");
  }
}
