package dev.lychee.llm.openai;

import com.google.inject.AbstractModule;
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
      b.baseUrl(base.trim());
    }
    return b;
  }

  @Override
  protected void configure() {
    if (config.hasChatModel()) {
      bind(ChatModel.class).toInstance(new OpenAiChatModel(config));
    }
    if (config.hasEmbeddingModel()) {
      bind(Embedder.class).toInstance(new OpenAiEmbedder(config));
    }
  }

  public OpenAiConfig config() {
    return config;
  }
}
