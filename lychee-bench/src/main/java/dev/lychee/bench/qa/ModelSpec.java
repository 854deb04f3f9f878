package dev.lychee.bench.qa;

import dev.lychee.api.spi.ChatModel;
import dev.lychee.llm.ollama.OllamaChatModel;
import dev.lychee.llm.ollama.OllamaConfig;
import dev.lychee.llm.openai.OpenAiChatModel;
import dev.lychee.llm.openai.OpenAiConfig;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * A chat model named on the command line as {@code provider:model}: {@code openai:gpt-4.1-mini}
 * (any OpenAI-compatible server through {@code OPENAI_BASE_URL}) or {@code ollama:qwen2.5:7b}
 * ({@code OLLAMA_HOST}). Keys and endpoints come from the environment, as for the CLI.
 *
 * @param provider {@code openai} or {@code ollama}
 * @param model the model id, passed to the server unchanged
 */
public record ModelSpec(String provider, String model) {
  public ModelSpec {
    Objects.requireNonNull(provider, "provider");
    Objects.requireNonNull(model, "model");
    if (!provider.equals("openai") && !provider.equals("ollama")) {
      throw new IllegalArgumentException("unknown provider '" + provider + "' (expected openai or ollama)");
    }
    if (model.isBlank()) {
      throw new IllegalArgumentException("no model named after '" + provider + ":'");
    }
  }

  /** Parses {@code provider:model}; the model may itself contain colons ({@code ollama:qwen2.5:7b}). */
  public static ModelSpec parse(String text) {
    Objects.requireNonNull(text, "model spec");
    String t = text.strip();
    int colon = t.indexOf(':');
    if (colon < 0) {
      throw new IllegalArgumentException("'" + t + "' is not provider:model (for example openai:gpt-4.1-mini "
          + "or ollama:qwen2.5:7b-instruct)");
    }
    return new ModelSpec(t.substring(0, colon).toLowerCase(Locale.ROOT), t.substring(colon + 1).strip());
  }

  /**
   * Builds the chat model from the environment's endpoint and key settings, with this spec's model
   * in place of {@code LYCHEE_LLM} (and no embedding model: the evaluation embeds offline).
   */
  public ChatModel create(Map<String, String> environment) {
    Map<String, String> env = new HashMap<>(environment);
    env.put("LYCHEE_LLM", provider + ":" + model);
    env.remove("LYCHEE_EMBEDDER");
    if (provider.equals("openai")) {
      OpenAiConfig config = OpenAiConfig.fromEnvironment(env).orElseThrow();
      return new OpenAiChatModel(config);
    }
    OllamaConfig config = OllamaConfig.fromEnvironment(env).orElseThrow();
    return new OllamaChatModel(config);
  }

  /** {@code provider:model}, the form it was written in. */
  @Override
  public String toString() {
    return provider + ":" + model;
  }
}
