package dev.lychee.llm.openai;

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
 * Immutable configuration of the OpenAI-compatible provider, validated once by {@link Builder#build()}.
 *
 * <p>Defaults: base URL {@value #DEFAULT_BASE_URL}; temperature 0; max tokens 0 (the server's
 * default); JSON mode allowed; timeout 60 s; 3 retries; initial backoff 500 ms doubling up to
 * 30 s; embedding batches of 256 texts; {@code max_tokens} on the wire (not
 * {@code max_completion_tokens}); the text-embedding-3-small segmentation profile.
 *
 * <p>How request and configuration combine: a {@link dev.lychee.api.ChatRequest} whose
 * temperature is 0 (Lychee's deterministic default, {@code ChatRequest.of}) is sent with the
 * configured {@link #temperature()}; a non-zero request temperature wins. Likewise a request's
 * {@code maxTokens > 0} wins over {@link #maxTokens()}. When {@link #jsonMode()} is off the
 * provider never sends {@code response_format}, for servers that reject it.
 *
 * @param apiKey the API key; blank for local servers that need none
 * @param baseUrl the API root including the version segment, e.g. {@code http://localhost:8000/v1}
 * @param model the chat model id; blank when only embeddings are used
 * @param embeddingModel the embedding model id; blank when no embedder is wanted
 * @param embeddingDimension the embedding dimension, or 0 to learn it from the first response
 * @param embeddingBatchSize texts per embedding request, {@code >= 1}
 * @param embeddingProfile segmentation calibration for the embedding model
 * @param temperature temperature sent for deterministic requests, {@code >= 0}
 * @param maxTokens default completion cap, 0 = server default
 * @param jsonMode whether JSON-mode requests send {@code response_format: json_object}
 * @param maxCompletionTokensParameter send {@code max_completion_tokens} (needed by OpenAI's
 *     reasoning models) instead of the widely supported {@code max_tokens}
 * @param timeout per-attempt timeout
 * @param maxRetries retries after the first attempt for HTTP 429 and 5xx, {@code >= 0}
 * @param initialBackoff first wait when the server sends no {@code Retry-After}; doubles per retry
 * @param maxBackoff cap on any single wait, including the server's {@code Retry-After}
 * @param retryListener told before every retry
 */
public record OpenAiConfig(
    String apiKey,
    URI baseUrl,
    String model,
    String embeddingModel,
    int embeddingDimension,
    int embeddingBatchSize,
    EmbeddingProfile embeddingProfile,
    double temperature,
    int maxTokens,
    boolean jsonMode,
    boolean maxCompletionTokensParameter,
    Duration timeout,
    int maxRetries,
    Duration initialBackoff,
    Duration maxBackoff,
    RetryListener retryListener) {

  public static final String DEFAULT_BASE_URL = "https://api.openai.com/v1";

  public OpenAiConfig {
    apiKey = apiKey == null ? "" : apiKey;
    ProviderSettings.httpUrl(baseUrl, "baseUrl");
    model = ProviderSettings.modelId(model);
    embeddingModel = ProviderSettings.modelId(embeddingModel);
    ProviderSettings.requireAModel(model, embeddingModel);
    ProviderSettings.requireModelNumbers(embeddingDimension, temperature, maxTokens);
    if (embeddingBatchSize < 1) {
      throw new IllegalArgumentException("embeddingBatchSize must be >= 1: " + embeddingBatchSize);
    }
    Objects.requireNonNull(embeddingProfile, "embeddingProfile");
    ProviderSettings.requireRetrySettings(timeout, maxRetries, initialBackoff, maxBackoff, retryListener);
  }

  /** Every setting except secrets: the key is shown as {@code ***}, URL credentials are masked. */
  @Override
  public String toString() {
    return "OpenAiConfig[apiKey=" + Redaction.key(apiKey) + ", baseUrl=" + Redaction.url(baseUrl)
        + ", model=" + model + ", embeddingModel=" + embeddingModel + ", embeddingDimension=" + embeddingDimension
        + ", embeddingBatchSize=" + embeddingBatchSize + ", embeddingProfile=" + embeddingProfile
        + ", temperature=" + temperature + ", maxTokens=" + maxTokens + ", jsonMode=" + jsonMode
        + ", maxCompletionTokensParameter=" + maxCompletionTokensParameter + ", timeout=" + timeout
        + ", maxRetries=" + maxRetries + ", initialBackoff=" + initialBackoff + ", maxBackoff=" + maxBackoff + "]";
  }

  /** Whether an embedding model is configured. */
  public boolean hasEmbeddingModel() {
    return !embeddingModel.isEmpty();
  }

  /** Whether a chat model is configured. */
  public boolean hasChatModel() {
    return !model.isEmpty();
  }

  /**
   * The warning every entry point prints before the first call when this configuration will be
   * refused without anything being sent: OpenAI's own endpoint ({@code api.openai.com}) with no API
   * key. Compatible servers often need no key, so they get no warning. It says what still works and
   * what waits for a key; it never holds a key.
   *
   * @param retry how the entry point's user retries pending work, e.g. {@code `lychee encode
   *     --pending NAMESPACE`}
   * @return empty when a key is set or the endpoint is not OpenAI's
   */
  public Optional<String> missingKeyWarning(String retry) {
    if (!apiKey.isBlank() || !"api.openai.com".equalsIgnoreCase(baseUrl.getHost())) {
      return Optional.empty();
    }
    String waits = hasChatModel() && hasEmbeddingModel() ? "their vectors stay missing and their segments pending"
        : hasChatModel() ? "their segments stay pending" : "their vectors stay missing";
    return Optional.of("OPENAI_API_KEY is not set: calls to api.openai.com will be refused (turns are still stored; "
        + waits + " until " + retry + " runs with a key)");
  }

  public static Builder builder() {
    return new Builder();
  }

  public Builder toBuilder() {
    Builder b = new Builder();
    b.apiKey = apiKey;
    b.baseUrl = baseUrl;
    b.model = model;
    b.embeddingModel = embeddingModel;
    b.embeddingDimension = embeddingDimension;
    b.embeddingBatchSize = embeddingBatchSize;
    b.embeddingProfile = embeddingProfile;
    b.temperature = temperature;
    b.maxTokens = maxTokens;
    b.jsonMode = jsonMode;
    b.maxCompletionTokensParameter = maxCompletionTokensParameter;
    b.timeout = timeout;
    b.maxRetries = maxRetries;
    b.initialBackoff = initialBackoff;
    b.maxBackoff = maxBackoff;
    b.retryListener = retryListener;
    return b;
  }

  /**
   * Reads the configuration the CLI documents: {@code LYCHEE_LLM=openai:<model>},
   * {@code LYCHEE_EMBEDDER=openai:<model>}, {@code OPENAI_API_KEY}, {@code OPENAI_BASE_URL}.
   *
   * @return empty when neither {@code LYCHEE_LLM} nor {@code LYCHEE_EMBEDDER} selects openai
   */
  public static Optional<OpenAiConfig> fromEnvironment(Map<String, String> env) {
    Optional<String> chat = selected(env.get("LYCHEE_LLM"));
    Optional<String> embed = selected(env.get("LYCHEE_EMBEDDER"));
    if (chat.isEmpty() && embed.isEmpty()) {
      return Optional.empty();
    }
    Builder b = builder().apiKey(env.getOrDefault("OPENAI_API_KEY", ""));
    String base = env.get("OPENAI_BASE_URL");
    if (base != null && !base.isBlank()) {
      b.baseUrl(ProviderSettings.parseUrl(base.trim(), "OPENAI_BASE_URL"));
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

  private static Optional<String> selected(String value) {
    return ProviderSettings.selectedModel(value, "openai", "gpt-4.1-mini");
  }

  /** Builder with the documented defaults. */
  public static final class Builder {
    private String apiKey = "";
    private URI baseUrl = URI.create(DEFAULT_BASE_URL);
    private String model = "";
    private String embeddingModel = "";
    private int embeddingDimension = 0;
    private int embeddingBatchSize = 256;
    private EmbeddingProfile embeddingProfile = EmbeddingProfile.TEXT_EMBEDDING_3_SMALL;
    private double temperature = 0.0;
    private int maxTokens = 0;
    private boolean jsonMode = true;
    private boolean maxCompletionTokensParameter = false;
    private Duration timeout = Duration.ofSeconds(60);
    private int maxRetries = 3;
    private Duration initialBackoff = Duration.ofMillis(500);
    private Duration maxBackoff = Duration.ofSeconds(30);
    private RetryListener retryListener = RetryListener.NONE;

    private Builder() {}

    public Builder apiKey(String v) { apiKey = v; return this; }
    public Builder baseUrl(URI v) { baseUrl = v; return this; }
    public Builder baseUrl(String v) { baseUrl = ProviderSettings.parseUrl(v, "baseUrl"); return this; }
    public Builder model(String v) { model = v; return this; }
    public Builder embeddingModel(String v) { embeddingModel = v; return this; }
    public Builder embeddingDimension(int v) { embeddingDimension = v; return this; }
    public Builder embeddingBatchSize(int v) { embeddingBatchSize = v; return this; }
    public Builder embeddingProfile(EmbeddingProfile v) { embeddingProfile = v; return this; }
    public Builder temperature(double v) { temperature = v; return this; }
    public Builder maxTokens(int v) { maxTokens = v; return this; }
    public Builder jsonMode(boolean v) { jsonMode = v; return this; }
    public Builder maxCompletionTokensParameter(boolean v) { maxCompletionTokensParameter = v; return this; }
    public Builder timeout(Duration v) { timeout = v; return this; }
    public Builder maxRetries(int v) { maxRetries = v; return this; }
    public Builder initialBackoff(Duration v) { initialBackoff = v; return this; }
    public Builder maxBackoff(Duration v) { maxBackoff = v; return this; }
    public Builder retryListener(RetryListener v) { retryListener = v; return this; }

    public OpenAiConfig build() {
      return new OpenAiConfig(
          apiKey, baseUrl, model, embeddingModel, embeddingDimension, embeddingBatchSize,
          embeddingProfile, temperature, maxTokens, jsonMode, maxCompletionTokensParameter,
          timeout, maxRetries, initialBackoff, maxBackoff, retryListener);
    }
  }
}
