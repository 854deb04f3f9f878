package dev.lychee.llm.openai;

import com.openai.models.ResponseFormatJsonObject;
import com.openai.models.chat.completions.ChatCompletion;
import com.openai.models.chat.completions.ChatCompletionCreateParams;
import com.openai.models.completions.CompletionUsage;
import dev.lychee.api.ChatMessage;
import dev.lychee.api.ChatRequest;
import dev.lychee.api.ChatResult;
import dev.lychee.api.ProviderException;
import dev.lychee.api.TokenUsage;
import dev.lychee.api.spi.ChatModel;

/**
 * {@link ChatModel} on the OpenAI Chat Completions API ({@code POST <baseUrl>/chat/completions}),
 * for OpenAI and any compatible server (vLLM, llama.cpp server, LM Studio).
 *
 * <p>Token usage comes from the response's {@code usage} block ({@code prompt_tokens},
 * {@code completion_tokens}); a server that omits it reports zero. Retries and errors: see
 * {@link OpenAiConfig} and the {@link ChatModel} contract. Thread-safe.
 */
public final class OpenAiChatModel implements ChatModel, AutoCloseable {
  static final String PATH = "/chat/completions";

  private final OpenAiConfig config;
  private final OpenAiTransport transport;

  public OpenAiChatModel(OpenAiConfig config) {
    if (!config.hasChatModel()) {
      throw new IllegalArgumentException("OpenAiConfig has no chat model; set model(..)");
    }
    this.config = config;
    this.transport = new OpenAiTransport(config);
  }

  @Override
  public ChatResult chat(ChatRequest request) {
    if (config.apiKey().isBlank() && "api.openai.com".equalsIgnoreCase(config.baseUrl().getHost())) {
      // reported before any call: OpenAI's own endpoint always refuses a request without a key
      throw new ProviderException(transport.endpoint(PATH), 401,
          "OPENAI_API_KEY is not set (api.openai.com needs a key); nothing was sent", null);
    }
    ChatCompletionCreateParams params = toParams(request);
    ChatCompletion completion = transport.execute(PATH, client -> client.chat().completions().create(params));
    String endpoint = transport.endpoint(PATH);
    try {
      if (completion.choices().isEmpty()) {
        throw new ProviderException(endpoint, -1, "POST " + endpoint + " returned no choices", null);
      }
      String text = completion.choices().get(0).message().content().orElse("");
      TokenUsage usage = completion.usage().map(OpenAiChatModel::usage).orElse(TokenUsage.ZERO);
      String model = completion._model().asString().orElse(config.model());
      return new ChatResult(text, usage, model);
    } catch (com.openai.errors.OpenAIInvalidDataException e) {
      // the SDK parses lazily: a body without the required fields fails here, not in create()
      throw new ProviderException(
          endpoint, -1, "POST " + endpoint + " returned a body that is not a chat completion: " + transport.safe(e.getMessage()), e);
    }
  }

  private static TokenUsage usage(CompletionUsage u) {
    long in = u._promptTokens().asNumber().map(Number::longValue).orElse(0L);
    long out = u._completionTokens().asNumber().map(Number::longValue).orElse(0L);
    return new TokenUsage(Math.max(0, in), Math.max(0, out));
  }

  ChatCompletionCreateParams toParams(ChatRequest request) {
    ChatCompletionCreateParams.Builder b = ChatCompletionCreateParams.builder().model(config.model());
    for (ChatMessage m : request.messages()) {
      switch (m.role()) {
        case SYSTEM -> b.addSystemMessage(m.content());
        case USER -> b.addUserMessage(m.content());
        case ASSISTANT -> b.addAssistantMessage(m.content());
      }
    }
    // a request temperature of 0 is Lychee's "deterministic default": the configured value applies
    b.temperature(request.temperature() > 0 ? request.temperature() : config.temperature());
    int maxTokens = request.maxTokens() > 0 ? request.maxTokens() : config.maxTokens();
    if (maxTokens > 0) {
      if (config.maxCompletionTokensParameter()) {
        b.maxCompletionTokens(maxTokens);
      } else {
        b.maxTokens(maxTokens);
      }
    }
    if (request.jsonMode() && config.jsonMode()) {
      b.responseFormat(ResponseFormatJsonObject.builder().build());
    }
    return b.build();
  }

  @Override
  public String modelId() {
    return config.model();
  }

  /** The configuration this model was built with. */
  public OpenAiConfig config() {
    return config;
  }

  @Override
  public void close() {
    transport.close();
  }
}
