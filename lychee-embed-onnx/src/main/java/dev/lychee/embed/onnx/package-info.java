/**
 * The embedded, offline default embedder: BAAI's bge-small-en-v1.5 (quantized ONNX, 384
 * dimensions) run in process. {@link dev.lychee.embed.onnx.OnnxEmbedder} implements the {@code
 * Embedder} SPI, {@link dev.lychee.embed.onnx.OnnxEmbedderConfig} holds its settings and {@link
 * dev.lychee.embed.onnx.OnnxEmbeddingModule} binds it in Guice. The model ships inside a Maven
 * artifact, so no network is needed at run time.
 */
package dev.lychee.embed.onnx;
