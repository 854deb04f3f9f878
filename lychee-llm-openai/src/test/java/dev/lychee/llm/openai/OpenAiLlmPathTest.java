package dev.lychee.llm.openai;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.inject.Module;
import dev.lychee.api.ChatMessage;
import dev.lychee.api.spi.ChatModel;
import dev.lychee.core.conformance.BaseLlmPathTestCase;
import dev.lychee.core.conformance.ScriptedHttpServer;
import java.net.URI;
import java.time.Duration;
import java.util.List;

/** Lychee's whole LLM path (encoder, planner, answerer) over the OpenAI wire protocol. */
class OpenAiLlmPathTest extends BaseLlmPathTestCase {

  @Override
  protected ChatModel newModel(URI baseUrl) {
    return new OpenAiChatModel(
        OpenAiConfig.builder()
            .baseUrl(baseUrl.resolve("/v1"))
            .apiKey("sk-test")
            .model("test-model")
            .timeout(Duration.ofSeconds(20))
            .maxRetries(0)
            .build());
  }

  @Override
  protected Module providerModule(URI baseUrl) {
    return new OpenAiModule(
        OpenAiConfig.builder().baseUrl(baseUrl.resolve("/v1")).apiKey("sk-test").model("test-model").maxRetries(0).build());
  }

  @Override
  protected ScriptedHttpServer.Response completion(String text, int promptTokens, int completionTokens) {
    return OpenAiWire.completion(text, promptTokens, completionTokens);
  }

  @Override
  protected List<ChatMessage> messagesOnWire(JsonNode body) {
    return OpenAiWire.messages(body);
  }
}
