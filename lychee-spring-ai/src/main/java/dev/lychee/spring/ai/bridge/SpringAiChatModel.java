package dev.lychee.spring.ai.bridge;

import dev.lychee.api.ChatRequest;
import dev.lychee.api.ChatResult;
import dev.lychee.api.ProviderException;
import dev.lychee.api.TokenUsage;
import dev.lychee.api.spi.ChatModel;
import java.util.List;
import java.util.Objects;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.SystemMessage;
import org.springframework.ai.chat.messages.UserMessage;
import org.springframework.ai.chat.metadata.Usage;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.prompt.ChatOptions;
import org.springframework.ai.chat.prompt.Prompt;

/**
 * Lychee's {@link ChatModel} SPI on the application's Spring AI chat model: the encoder, planner
 * and answerer use the application's client (endpoint, key, retries, observations) and no second
 * client is configured. Temperature and the token cap go through Spring AI's portable options;
 * JSON mode has no portable option, so Lychee's prompts ask for JSON in words and its parsers find
 * it in plain text. Token usage comes from the response metadata. A failure of the model surfaces
 * as {@link ProviderException} with the HTTP status Spring AI reports (401, 404, 429, ...), so
 * that Lychee does not try a refused request again; -1 when there is none.
 */
public final class SpringAiChatModel implements ChatModel {
  private final org.springframework.ai.chat.model.ChatModel model;
  private final String modelId;

  public SpringAiChatModel(org.springframework.ai.chat.model.ChatModel model, String modelId) {
    this.model = Objects.requireNonNull(model, "model");
    if (modelId == null || modelId.isBlank()) {
      throw new IllegalArgumentException("modelId must not be blank");
    }
    this.modelId = modelId;
  }

  /** A bridge that reports the model of the client's default options. */
  public SpringAiChatModel(org.springframework.ai.chat.model.ChatModel model) {
    this(model, nameOf(model));
  }

  private static String nameOf(org.springframework.ai.chat.model.ChatModel model) {
    Objects.requireNonNull(model, "model");
    ChatOptions o = model.getDefaultOptions();
    return o == null || o.getModel() == null || o.getModel().isBlank() ? "spring-ai" : o.getModel();
  }

  @Override
  public ChatResult chat(ChatRequest request) {
    List<Message> messages = request.messages().stream().map(SpringAiChatModel::toSpring).toList();
    ChatOptions.Builder options = ChatOptions.builder().temperature(request.temperature());
    if (request.maxTokens() > 0) {
      options.maxTokens(request.maxTokens());
    }
    ChatResponse response;
    try {
      response = model.call(new Prompt(messages, options.build()));
    } catch (RuntimeException e) {
      throw BridgeFailures.of("spring-ai:" + modelId, "the application's chat model", e);
    }
    String text = response == null || response.getResult() == null || response.getResult().getOutput() == null
        ? null : response.getResult().getOutput().getText();
    if (text == null) {
      throw new ProviderException("spring-ai:" + modelId, -1, "the chat model returned no text", null);
    }
    String model = response.getMetadata() == null ? null : response.getMetadata().getModel();
    return new ChatResult(text, usage(response), model == null || model.isBlank() ? modelId : model);
  }

  private static TokenUsage usage(ChatResponse response) {
    Usage u = response.getMetadata() == null ? null : response.getMetadata().getUsage();
    if (u == null) {
      return TokenUsage.ZERO;
    }
    return new TokenUsage(nonNegative(u.getPromptTokens()), nonNegative(u.getCompletionTokens()));
  }

  private static long nonNegative(Integer n) {
    return n == null || n < 0 ? 0 : n;
  }

  private static Message toSpring(dev.lychee.api.ChatMessage m) {
    return switch (m.role()) {
      case SYSTEM -> new SystemMessage(m.content());
      case USER -> new UserMessage(m.content());
      case ASSISTANT -> new AssistantMessage(m.content());
    };
  }

  @Override
  public String modelId() {
    return modelId;
  }

  @Override
  public String toString() {
    return "SpringAiChatModel[" + modelId + "]";
  }
}
