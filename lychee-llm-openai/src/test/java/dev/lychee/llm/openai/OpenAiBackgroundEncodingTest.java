package dev.lychee.llm.openai;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lychee.api.ChatMessage;
import dev.lychee.api.spi.ChatModel;
import dev.lychee.core.conformance.BaseBackgroundEncodingTestCase;
import dev.lychee.core.conformance.ScriptedHttpServer;
import java.net.URI;
import java.time.Duration;
import java.util.List;

/** Background encoding over the OpenAI wire protocol: held, failing, garbage and hanging servers. */
class OpenAiBackgroundEncodingTest extends BaseBackgroundEncodingTestCase {

  @Override
  protected ChatModel newModel(URI baseUrl, Duration timeout) {
    return new OpenAiChatModel(OpenAiConfig.builder().baseUrl(baseUrl.resolve("/v1")).apiKey("sk-test")
        .model("test-model").timeout(timeout).maxRetries(0).build());
  }

  @Override
  protected ScriptedHttpServer.Response completion(String text, int promptTokens, int completionTokens) {
    return OpenAiWire.completion(text, promptTokens, completionTokens);
  }

  @Override
  protected ScriptedHttpServer.Response error(int status) {
    return OpenAiWire.error(status, "scripted failure");
  }

  @Override
  protected List<ChatMessage> messagesOnWire(JsonNode body) {
    return OpenAiWire.messages(body);
  }
}
