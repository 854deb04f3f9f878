package dev.lychee.embed.onnx;

import com.google.inject.AbstractModule;
import com.google.inject.Provides;
import com.google.inject.Singleton;
import dev.lychee.api.spi.Embedder;
import java.util.Objects;

/**
 * Guice module that makes the in-process BGE model the {@link Embedder}: one {@link OnnxEmbedder}
 * singleton per injector. Install it after (or as an override of) the core module.
 */
public final class OnnxEmbeddingModule extends AbstractModule {
  private final OnnxEmbedderConfig config;

  /** Binds an embedder with {@link OnnxEmbedderConfig#defaults()}. */
  public OnnxEmbeddingModule() {
    this(OnnxEmbedderConfig.defaults());
  }

  /** Binds an embedder with the given configuration. */
  public OnnxEmbeddingModule(OnnxEmbedderConfig config) {
    this.config = Objects.requireNonNull(config, "config");
  }

  @Provides
  @Singleton
  OnnxEmbedder onnxEmbedder() {
    return new OnnxEmbedder(config);
  }

  @Override
  protected void configure() {
    bind(Embedder.class).to(OnnxEmbedder.class);
  }
}
