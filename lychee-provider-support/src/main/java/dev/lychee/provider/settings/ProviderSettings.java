package dev.lychee.provider.settings;

import dev.lychee.provider.retry.Backoff;
import dev.lychee.provider.retry.RetryListener;
import dev.lychee.provider.retry.RetryPolicy;
import dev.lychee.provider.secrets.Redaction;
import java.net.URI;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * The checks every provider configuration makes, written once so that OpenAI-compatible and
 * Ollama settings reject the same mistakes with the same words. Messages never print credentials.
 */
public final class ProviderSettings {
  private ProviderSettings() {}

  /** An {@code http} or {@code https} URL. */
  public static URI httpUrl(URI url, String what) {
    Objects.requireNonNull(url, what);
    if (url.getScheme() == null || !(url.getScheme().equals("http") || url.getScheme().equals("https"))) {
      throw new IllegalArgumentException(what + " must be an http(s) URL: " + Redaction.url(url));
    }
    return url;
  }

  /** Parses a URL from configuration; a malformed one is reported without its credentials. */
  public static URI parseUrl(String text, String what) {
    try {
      return new URI(Objects.requireNonNull(text, what));
    } catch (java.net.URISyntaxException e) {
      throw new IllegalArgumentException(what + " is not a valid URL: " + Redaction.url(text) + " (" + e.getReason() + ")");
    }
  }

  /** A model id, trimmed; null reads as "" (none). */
  public static String modelId(String id) {
    return id == null ? "" : id.trim();
  }

  /** At least one of the two models is configured. */
  public static void requireAModel(String chatModel, String embeddingModel) {
    if (chatModel.isEmpty() && embeddingModel.isEmpty()) {
      throw new IllegalArgumentException("configure a chat model, an embedding model or both");
    }
  }

  /** The number settings every provider has: dimension (0 = learn it), temperature, max tokens. */
  public static void requireModelNumbers(int embeddingDimension, double temperature, int maxTokens) {
    if (embeddingDimension < 0) {
      throw new IllegalArgumentException("embeddingDimension must be >= 0 (0 = learn it): " + embeddingDimension);
    }
    if (temperature < 0 || Double.isNaN(temperature)) {
      throw new IllegalArgumentException("temperature must be >= 0: " + temperature);
    }
    if (maxTokens < 0) {
      throw new IllegalArgumentException("maxTokens must be >= 0: " + maxTokens);
    }
  }

  /** The timeout and retry settings every provider has. */
  public static void requireRetrySettings(Duration timeout, int maxRetries, Duration initialBackoff,
      Duration maxBackoff, RetryListener retryListener) {
    Backoff.positive(timeout, "timeout");
    RetryPolicy.requireRetries(maxRetries);
    Backoff.positive(initialBackoff, "initialBackoff");
    Backoff.positive(maxBackoff, "maxBackoff");
    Objects.requireNonNull(retryListener, "retryListener");
  }

  /**
   * The model named by an environment value such as {@code LYCHEE_LLM=openai:gpt-4.1-mini}, when
   * it selects {@code provider}.
   *
   * @param example a model id for the message when the value names none
   * @return empty when the value is unset or selects another provider
   */
  public static Optional<String> selectedModel(String value, String provider, String example) {
    if (value == null) {
      return Optional.empty();
    }
    String v = value.trim();
    String prefix = provider + ":";
    if (!v.startsWith(prefix)) {
      return Optional.empty();
    }
    String model = v.substring(prefix.length()).trim();
    if (model.isEmpty()) {
      throw new IllegalArgumentException("'" + v + "' names no model; write " + provider + ":<model>, e.g. "
          + provider + ":" + example);
    }
    return Optional.of(model);
  }
}
