package dev.lychee.langchain4j.bridge;

import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.chat.request.ResponseFormat;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.lychee.api.ChatMessage;
import dev.lychee.api.ChatRequest;
import dev.lychee.api.ChatResult;
import dev.lychee.api.ProviderException;
import dev.lychee.api.TokenUsage;
import dev.lychee.api.spi.ChatModel;
import java.util.List;
import java.util.Objects;

/**
 * Lychee's {@link ChatModel} SPI on the application's own langchain4j chat model: the encoder,
 * planner and answerer then share the application's client, its endpoint, key, retries and
 * listeners, and no second client is configured. Token usage is taken from the langchain4j
 * response, so Lychee's usage accounting reports what the provider billed.
 *
 * <p>Retries are the langchain4j model's business (its {@code maxRetries}); a failure that is left
 * after them surfaces as {@link ProviderException} with the HTTP status langchain4j reports (401,
 * 404, 429, ...), so that Lychee does not try a refused request again; -1 when there is none.
 */
public final class Langchain4jChatModel implements ChatModel {
  private final dev.langchain4j.model.chat.ChatModel model;
  private final String modelId;
  private final boolean jsonMode;

  /**
   * @param model the application's chat model
   * @param modelId the id Lychee reports (for example the model name the client was built with)
   * @param jsonMode whether to ask for a JSON response format when Lychee wants JSON; turn it off
   *     for providers that reject {@code response_format} (Lychee parses JSON out of plain text too)
   */
  public Langchain4jChatModel(dev.langchain4j.model.chat.ChatModel model, String modelId, boolean jsonMode) {
    this.model = Objects.requireNonNull(model, "model");
    if (modelId == null || modelId.isBlank()) {
      throw new IllegalArgumentException("modelId must not be blank");
    }
    this.modelId = modelId;
    this.jsonMode = jsonMode;
  }

  /** A bridge that reports the model name of the client's default parameters, JSON mode on. */
  public Langchain4jChatModel(dev.langchain4j.model.chat.ChatModel model) {
    this(model, nameOf(model), true);
  }

  private static String nameOf(dev.langchain4j.model.chat.ChatModel model) {
    Objects.requireNonNull(model, "model");
    String name = model.defaultRequestParameters() == null ? null : model.defaultRequestParameters().modelName();
    return name == null || name.isBlank() ? "langchain4j" : name;
  }

  @Override
  public ChatResult chat(ChatRequest request) {
    dev.langchain4j.model.chat.request.ChatRequest.Builder b = dev.langchain4j.model.chat.request.ChatRequest.builder()
        .messages(request.messages().stream().map(Langchain4jChatModel::toLangchain).toList())
        .temperature(request.temperature());
    if (request.maxTokens() > 0) {
      b.maxOutputTokens(request.maxTokens());
    }
    if (request.jsonMode() && jsonMode) {
      b.responseFormat(ResponseFormat.JSON);
    }
    ChatResponse response;
    try {
      response = model.chat(b.build());
    } catch (RuntimeException e) {
      // the client's message names the provider's error; the key never appears in it
      throw BridgeFailures.of("langchain4j:" + modelId, "the application's chat model", e);
    }
    AiMessage ai = response == null ? null : response.aiMessage();
    if (ai == null || ai.text() == null) {
      throw new ProviderException("langchain4j:" + modelId, -1, "the chat model returned no text", null);
    }
    return new ChatResult(ai.text(), usage(response.tokenUsage()), Objects.toString(response.modelName(), modelId));
  }

  static TokenUsage usage(dev.langchain4j.model.output.TokenUsage u) {
    if (u == null) {
      return TokenUsage.ZERO;
    }
    return new TokenUsage(nonNegative(u.inputTokenCount()), nonNegative(u.outputTokenCount()));
  }

  private static long nonNegative(Integer n) {
    return n == null || n < 0 ? 0 : n;
  }

  private static dev.langchain4j.data.message.ChatMessage toLangchain(ChatMessage m) {
    return switch (m.role()) {
      case SYSTEM -> SystemMessage.from(m.content());
      case USER -> UserMessage.from(m.content());
      case ASSISTANT -> AiMessage.from(m.content());
    };
  }

  @Override
  public String modelId() {
    return modelId;
  }

  @Override
  public String toString() {
    return "Langchain4jChatModel[" + modelId + "]";
  }
}
