package dev.lychee.llm.openai;

import com.google.inject.AbstractModule;
import com.google.inject.Singleton;
import dev.lychee.api.spi.ChatModel;
import dev.lychee.api.spi.Embedder;
import java.util.Objects;

/**
 * Guice module that supplies an OpenAI-compatible {@link ChatModel} (when a chat model is
 * configured) and {@link Embedder} (when an embedding model is configured). List it after Lychee's
 * defaults so that it overrides them, e.g.
 * {@code Lychee.create(new OpenAiModule(OpenAiConfig.builder().model("gpt-4.1-mini").apiKey(key).build()))}.
 */
public final class OpenAiModule extends AbstractModule {
  private final OpenAiConfig config;

  public OpenAiModule(OpenAiConfig config) {
    this.config = Objects.requireNonNull(config, "config");
  }

  /** Chat only, with the API key and base URL from {@code OPENAI_API_KEY} / {@code OPENAI_BASE_URL}. */
  public OpenAiModule(String model) {
    this(fromEnv().model(model).build());
  }

  private static OpenAiConfig.Builder fromEnv() {
    OpenAiConfig.Builder b = OpenAiConfig.builder().apiKey(System.getenv().getOrDefault("OPENAI_API_KEY", ""));
    String base = System.getenv("OPENAI_BASE_URL");
    if (base != null && !base.isBlank()) {
      b.baseUrl(dev.lychee.provider.settings.ProviderSettings.parseUrl(base.trim(), "OPENAI_BASE_URL"));
    }
    return b;
  }

  /**
   * Declares the bindings only: each client is built by its provider the first time it is needed,
   * once per injector, and closed by {@code Lychee.close()}.
   */
  @Override
  protected void configure() {
    if (config.hasChatModel()) {
      bind(ChatModel.class).toProvider(() -> new OpenAiChatModel(config)).in(Singleton.class);
    }
    if (config.hasEmbeddingModel()) {
      bind(Embedder.class).toProvider(() -> new OpenAiEmbedder(config)).in(Singleton.class);
    }
  }

  public OpenAiConfig config() {
    return config;
  }
}
