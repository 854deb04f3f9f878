package dev.lychee.llm.ollama;

import dev.lychee.api.spi.EmbeddingProfile;
import dev.lychee.provider.retry.RetryListener;
import dev.lychee.provider.secrets.Redaction;
import dev.lychee.provider.settings.ProviderSettings;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Immutable configuration of the Ollama provider, validated once by {@link Builder#build()}.
 *
 * <p>Defaults: host {@value #DEFAULT_HOST}; temperature 0; context size ({@code num_ctx}) and
 * completion cap ({@code num_predict}) left to the model (0); JSON format allowed; timeout 120 s
 * (local models on a CPU are slow); 3 retries; initial backoff 500 ms doubling up to 30 s; the
 * text-embedding-3-small segmentation profile (override it for your embedding model); 64 texts per
 * embedding request.
 *
 * <p>A request temperature of 0 (Lychee's deterministic default) is sent as the configured
 * {@link #temperature()}; a non-zero request temperature wins. A request's {@code maxTokens > 0}
 * wins over {@link #maxTokens()}. With {@link #jsonMode()} off, {@code format: "json"} is never sent.
 *
 * @param host the Ollama server, e.g. {@code http://localhost:11434}
 * @param model the chat model, e.g. {@code qwen2.5:7b-instruct}; blank when only embedding
 * @param embeddingModel the embedding model, e.g. {@code nomic-embed-text}; blank for none
 * @param embeddingDimension the embedding dimension, or 0 to learn it from the first response
 * @param embeddingBatchSize texts per embedding request, {@code >= 1}: an embedding call of more
 *     texts sends several requests, each under its own {@code timeout}, so a long session's
 *     texts never have to fit one timeout
 * @param embeddingProfile segmentation calibration for the embedding model
 * @param temperature temperature sent for deterministic requests, {@code >= 0}
 * @param contextSize {@code options.num_ctx}, 0 = the model's default
 * @param maxTokens {@code options.num_predict} default, 0 = the model's default
 * @param jsonMode whether JSON-mode requests send {@code format: "json"}
 * @param timeout per-attempt timeout
 * @param maxRetries retries after the first attempt for HTTP 429 and 5xx, {@code >= 0}
 * @param initialBackoff first wait when the server sends no {@code Retry-After}; doubles per retry
 * @param maxBackoff cap on any single wait
 * @param retryListener told before every retry
 */
public record OllamaConfig(
    URI host,
    String model,
    String embeddingModel,
    int embeddingDimension,
    int embeddingBatchSize,
    EmbeddingProfile embeddingProfile,
    double temperature,
    int contextSize,
    int maxTokens,
    boolean jsonMode,
    Duration timeout,
    int maxRetries,
    Duration initialBackoff,
    Duration maxBackoff,
    RetryListener retryListener) {

  public static final String DEFAULT_HOST = "http://localhost:11434";

  public OllamaConfig {
    ProviderSettings.httpUrl(host, "host");
    model = ProviderSettings.modelId(model);
    embeddingModel = ProviderSettings.modelId(embeddingModel);
    ProviderSettings.requireAModel(model, embeddingModel);
    ProviderSettings.requireModelNumbers(embeddingDimension, temperature, maxTokens);
    if (embeddingBatchSize < 1) {
      throw new IllegalArgumentException("embeddingBatchSize must be >= 1: " + embeddingBatchSize);
    }
    Objects.requireNonNull(embeddingProfile, "embeddingProfile");
    if (contextSize < 0) {
      throw new IllegalArgumentException("contextSize must be >= 0: " + contextSize);
    }
    ProviderSettings.requireRetrySettings(timeout, maxRetries, initialBackoff, maxBackoff, retryListener);
  }

  /** Every setting; credentials a host URL may carry are masked. */
  @Override
  public String toString() {
    return "OllamaConfig[host=" + Redaction.url(host) + ", model=" + model + ", embeddingModel=" + embeddingModel
        + ", embeddingDimension=" + embeddingDimension + ", embeddingBatchSize=" + embeddingBatchSize
        + ", embeddingProfile=" + embeddingProfile
        + ", temperature=" + temperature + ", contextSize=" + contextSize + ", maxTokens=" + maxTokens
        + ", jsonMode=" + jsonMode + ", timeout=" + timeout + ", maxRetries=" + maxRetries
        + ", initialBackoff=" + initialBackoff + ", maxBackoff=" + maxBackoff + "]";
  }

  public boolean hasChatModel() {
    return !model.isEmpty();
  }

  public boolean hasEmbeddingModel() {
    return !embeddingModel.isEmpty();
  }

  public static Builder builder() {
    return new Builder();
  }

  public Builder toBuilder() {
    Builder b = new Builder();
    b.host = host;
    b.model = model;
    b.embeddingModel = embeddingModel;
    b.embeddingDimension = embeddingDimension;
    b.embeddingBatchSize = embeddingBatchSize;
    b.embeddingProfile = embeddingProfile;
    b.temperature = temperature;
    b.contextSize = contextSize;
    b.maxTokens = maxTokens;
    b.jsonMode = jsonMode;
    b.timeout = timeout;
    b.maxRetries = maxRetries;
    b.initialBackoff = initialBackoff;
    b.maxBackoff = maxBackoff;
    b.retryListener = retryListener;
    return b;
  }

  /**
   * Reads the configuration the CLI documents: {@code LYCHEE_LLM=ollama:<model>},
   * {@code LYCHEE_EMBEDDER=ollama:<model>} and {@code OLLAMA_HOST} (Ollama's own convention:
   * {@code host:port} without scheme is accepted).
   *
   * @return empty when neither variable selects ollama
   */
  public static Optional<OllamaConfig> fromEnvironment(Map<String, String> env) {
    Optional<String> chat = selected(env.get("LYCHEE_LLM"));
    Optional<String> embed = selected(env.get("LYCHEE_EMBEDDER"));
    if (chat.isEmpty() && embed.isEmpty()) {
      return Optional.empty();
    }
    Builder b = builder();
    String host = env.get("OLLAMA_HOST");
    if (host != null && !host.isBlank()) {
      b.host(parseHost(host));
    }
    chat.ifPresent(b::model);
    embed.ifPresent(b::embeddingModel);
    timeoutFromEnvironment(env, chat.isPresent()).ifPresent(b::timeout);
    return Optional.of(b.build());
  }

  /**
   * The per-call timeout from the environment: {@code LYCHEE_LLM_TIMEOUT} when a chat model is
   * selected (one configuration serves the chat model and the embedder), else
   * {@code LYCHEE_EMBED_TIMEOUT}; seconds, decimals allowed ({@code 2.5}). Unset: the default.
   */
  static Optional<Duration> timeoutFromEnvironment(Map<String, String> env, boolean chatSelected) {
    String name = chatSelected ? "LYCHEE_LLM_TIMEOUT" : "LYCHEE_EMBED_TIMEOUT";
    String raw = env.get(name);
    if (raw == null || raw.isBlank()) {
      return Optional.empty();
    }
    try {
      double seconds = Double.parseDouble(raw.trim());
      if (!(seconds > 0) || seconds > 86_400) {
        throw new NumberFormatException();
      }
      return Optional.of(Duration.ofMillis(Math.max(1, Math.round(seconds * 1000))));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(name + "='" + raw.trim() + "': expected a number of seconds in (0, 86400], e.g. 30");
    }
  }

  /** {@code OLLAMA_HOST} may be {@code 0.0.0.0:11434}, {@code myhost} or a full URL. */
  static URI parseHost(String value) {
    String v = value.trim();
    if (!v.contains("://")) {
      v = "http://" + v;
    }
    URI uri = parse(v);
    if (uri.getPort() == -1 && "http".equals(uri.getScheme()) && (uri.getPath() == null || uri.getPath().isEmpty())) {
      uri = parse(v + ":11434");
    }
    return uri;
  }

  private static URI parse(String v) {
    return ProviderSettings.parseUrl(v, "OLLAMA_HOST");
  }

  private static Optional<String> selected(String value) {
    return ProviderSettings.selectedModel(value, "ollama", "qwen2.5:7b-instruct");
  }

  /** Builder with the documented defaults. */
  public static final class Builder {
    private URI host = URI.create(DEFAULT_HOST);
    private String model = "";
    private String embeddingModel = "";
    private int embeddingDimension = 0;
    private int embeddingBatchSize = 64;
    private EmbeddingProfile embeddingProfile = EmbeddingProfile.TEXT_EMBEDDING_3_SMALL;
    private double temperature = 0.0;
    private int contextSize = 0;
    private int maxTokens = 0;
    private boolean jsonMode = true;
    private Duration timeout = Duration.ofSeconds(120);
    private int maxRetries = 3;
    private Duration initialBackoff = Duration.ofMillis(500);
    private Duration maxBackoff = Duration.ofSeconds(30);
    private RetryListener retryListener = RetryListener.NONE;

    private Builder() {}

    public Builder host(URI v) { host = v; return this; }
    public Builder host(String v) { host = parseHost(v); return this; }
    public Builder model(String v) { model = v; return this; }
    public Builder embeddingModel(String v) { embeddingModel = v; return this; }
    public Builder embeddingDimension(int v) { embeddingDimension = v; return this; }
    public Builder embeddingBatchSize(int v) { embeddingBatchSize = v; return this; }
    public Builder embeddingProfile(EmbeddingProfile v) { embeddingProfile = v; return this; }
    public Builder temperature(double v) { temperature = v; return this; }
    public Builder contextSize(int v) { contextSize = v; return this; }
    public Builder maxTokens(int v) { maxTokens = v; return this; }
    public Builder jsonMode(boolean v) { jsonMode = v; return this; }
    public Builder timeout(Duration v) { timeout = v; return this; }
    public Builder maxRetries(int v) { maxRetries = v; return this; }
    public Builder initialBackoff(Duration v) { initialBackoff = v; return this; }
    public Builder maxBackoff(Duration v) { maxBackoff = v; return this; }
    public Builder retryListener(RetryListener v) { retryListener = v; return this; }

    public OllamaConfig build() {
      return new OllamaConfig(
          host, model, embeddingModel, embeddingDimension, embeddingBatchSize, embeddingProfile, temperature,
          contextSize, maxTokens, jsonMode, timeout, maxRetries, initialBackoff, maxBackoff, retryListener);
    }
  }
}
