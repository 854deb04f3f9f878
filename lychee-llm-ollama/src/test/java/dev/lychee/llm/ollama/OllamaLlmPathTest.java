package dev.lychee.llm.ollama;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.inject.Module;
import dev.lychee.api.ChatMessage;
import dev.lychee.api.spi.ChatModel;
import dev.lychee.core.conformance.BaseLlmPathTestCase;
import dev.lychee.core.conformance.ScriptedHttpServer;
import java.net.URI;
import java.time.Duration;
import java.util.List;

/** Lychee's whole LLM path (encoder, planner, answerer) over the Ollama wire protocol. */
class OllamaLlmPathTest extends BaseLlmPathTestCase {

  @Override
  protected ChatModel newModel(URI baseUrl) {
    return new OllamaChatModel(
        OllamaConfig.builder()
            .host(baseUrl)
            .model("test-model")
            .timeout(Duration.ofSeconds(20))
            .maxRetries(0)
            .build());
  }

  @Override
  protected Module providerModule(URI baseUrl) {
    return new OllamaModule(OllamaConfig.builder().host(baseUrl).model("test-model").maxRetries(0).build());
  }

  @Override
  protected ScriptedHttpServer.Response completion(String text, int promptTokens, int completionTokens) {
    return OllamaWire.chat(text, promptTokens, completionTokens);
  }

  @Override
  protected List<ChatMessage> messagesOnWire(JsonNode body) {
    return OllamaWire.messages(body);
  }
}
