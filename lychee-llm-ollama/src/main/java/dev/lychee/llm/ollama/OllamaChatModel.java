package dev.lychee.llm.ollama;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.lychee.api.ChatMessage;
import dev.lychee.api.ChatRequest;
import dev.lychee.api.ChatResult;
import dev.lychee.api.ProviderException;
import dev.lychee.api.TokenUsage;
import dev.lychee.api.spi.ChatModel;
import io.github.ollama4j.models.chat.OllamaChatMessageRole;
import io.github.ollama4j.models.chat.OllamaChatRequest;
import io.github.ollama4j.models.chat.OllamaChatRequestBuilder;
import io.github.ollama4j.models.chat.OllamaChatResponseModel;
import io.github.ollama4j.utils.OptionsBuilder;
import io.github.ollama4j.utils.Utils;

/**
 * {@link ChatModel} on a local Ollama server ({@code POST <host>/api/chat}, non-streaming).
 *
 * <p>The request is built with ollama4j's {@link OllamaChatRequestBuilder}: messages, options
 * ({@code temperature}, {@code num_ctx}, {@code num_predict}) and {@code format: "json"} for JSON
 * mode. Token usage comes from {@code prompt_eval_count} (input) and {@code eval_count} (output);
 * Ollama omits {@code prompt_eval_count} when the whole prompt was cached, which counts as 0. A
 * model that has not been pulled yields a {@link ProviderException} saying which
 * {@code ollama pull} to run. Thread-safe.
 */
public final class OllamaChatModel implements ChatModel {
  static final String PATH = "/api/chat";

  private final OllamaConfig config;
  private final OllamaHttp http;

  public OllamaChatModel(OllamaConfig config) {
    if (!config.hasChatModel()) {
      throw new IllegalArgumentException("OllamaConfig has no chat model; set model(..)");
    }
    this.config = config;
    this.http = new OllamaHttp(config);
  }

  @Override
  public ChatResult chat(ChatRequest request) {
    String body = http.post(PATH, toJson(request), config.model());
    String endpoint = http.endpoint(PATH);
    OllamaChatResponseModel response;
    try {
      response = OllamaHttp.READER.readValue(body, OllamaChatResponseModel.class);
    } catch (JsonProcessingException e) {
      throw new ProviderException(
          endpoint, -1, "POST " + endpoint + " returned a body that is not an Ollama chat response: " + e.getOriginalMessage(), e);
    }
    if (response == null) {
      throw new ProviderException(endpoint, -1, "POST " + endpoint + " returned an empty body", null);
    }
    if (response.getError() != null) {
      throw new ProviderException(endpoint, -1, "POST " + endpoint + " reported an error: " + response.getError(), null);
    }
    if (response.getMessage() == null || response.getMessage().getContent() == null) {
      throw new ProviderException(endpoint, -1, "POST " + endpoint + " returned no message content", null);
    }
    long in = response.getPromptEvalCount() == null ? 0 : Math.max(0, response.getPromptEvalCount());
    long out = response.getEvalCount() == null ? 0 : Math.max(0, response.getEvalCount());
    String model = response.getModel() == null ? config.model() : response.getModel();
    return new ChatResult(response.getMessage().getContent(), new TokenUsage(in, out), model);
  }

  String toJson(ChatRequest request) {
    OllamaChatRequestBuilder b = OllamaChatRequestBuilder.getInstance(config.model());
    for (ChatMessage m : request.messages()) {
      b.withMessage(role(m), m.content());
    }
    OptionsBuilder options = new OptionsBuilder();
    // a request temperature of 0 is Lychee's "deterministic default": the configured value applies
    options.setTemperature((float) (request.temperature() > 0 ? request.temperature() : config.temperature()));
    if (config.contextSize() > 0) {
      options.setNumCtx(config.contextSize());
    }
    int maxTokens = request.maxTokens() > 0 ? request.maxTokens() : config.maxTokens();
    if (maxTokens > 0) {
      options.setNumPredict(maxTokens);
    }
    b.withOptions(options.build());
    if (request.jsonMode() && config.jsonMode()) {
      b.withGetJsonResponse();
    }
    OllamaChatRequest r = b.build();
    r.setStream(false);
    try {
      return Utils.getObjectMapper().writeValueAsString(r);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot serialise an Ollama chat request", e);
    }
  }

  private static OllamaChatMessageRole role(ChatMessage m) {
    return switch (m.role()) {
      case SYSTEM -> OllamaChatMessageRole.SYSTEM;
      case USER -> OllamaChatMessageRole.USER;
      case ASSISTANT -> OllamaChatMessageRole.ASSISTANT;
    };
  }

  @Override
  public String modelId() {
    return config.model();
  }

  public OllamaConfig config() {
    return config;
  }
}
