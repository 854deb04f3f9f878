package dev.lychee.llm.ollama;

import com.google.inject.AbstractModule;
import com.google.inject.Singleton;
import dev.lychee.api.spi.ChatModel;
import dev.lychee.api.spi.Embedder;
import java.util.Objects;

/**
 * Guice module that supplies an Ollama {@link ChatModel} (when a chat model is configured) and
 * {@link Embedder} (when an embedding model is configured), e.g.
 * {@code Lychee.create(new OllamaModule("qwen2.5:7b-instruct"))}.
 */
public final class OllamaModule extends AbstractModule {
  private final OllamaConfig config;

  public OllamaModule(OllamaConfig config) {
    this.config = Objects.requireNonNull(config, "config");
  }

  /** Chat with {@code model} on {@code OLLAMA_HOST} (default {@value OllamaConfig#DEFAULT_HOST}). */
  public OllamaModule(String model) {
    this(hostFromEnv().model(model).build());
  }

  private static OllamaConfig.Builder hostFromEnv() {
    OllamaConfig.Builder b = OllamaConfig.builder();
    String host = System.getenv("OLLAMA_HOST");
    if (host != null && !host.isBlank()) {
      b.host(host);
    }
    return b;
  }

  /** Declares the bindings only: each client is built by its provider when first needed, once per injector. */
  @Override
  protected void configure() {
    if (config.hasChatModel()) {
      bind(ChatModel.class).toProvider(() -> new OllamaChatModel(config)).in(Singleton.class);
    }
    if (config.hasEmbeddingModel()) {
      bind(Embedder.class).toProvider(() -> new OllamaEmbedder(config)).in(Singleton.class);
    }
  }

  public OllamaConfig config() {
    return config;
  }
}
