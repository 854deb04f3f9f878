package dev.lychee.llm.ollama;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lychee.api.ChatMessage;
import dev.lychee.api.ChatRequest;
import dev.lychee.api.ProviderException;
import dev.lychee.api.spi.ChatModel;
import dev.lychee.core.conformance.BaseChatModelTestCase;
import dev.lychee.core.conformance.ScriptedHttpServer;
import java.net.URI;
import java.util.List;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** The conformance suite against Ollama's wire protocol, plus Ollama-specific behaviour. */
class OllamaChatModelTest extends BaseChatModelTestCase {

  private OllamaConfig.Builder config(URI baseUrl, Knobs knobs) {
    return OllamaConfig.builder()
        .host(baseUrl)
        .model("test-model")
        .timeout(knobs.timeout())
        .maxRetries(knobs.maxRetries())
        .initialBackoff(knobs.initialBackoff())
        .retryListener(knobs.retryLog()::record);
  }

  @Override
  protected ChatModel newModel(URI baseUrl, Knobs knobs) {
    return new OllamaChatModel(config(baseUrl, knobs).build());
  }

  @Override
  protected String chatPath() {
    return "/api/chat";
  }

  @Override
  protected ScriptedHttpServer.Response completion(String text, int promptTokens, int completionTokens) {
    return OllamaWire.chat(text, promptTokens, completionTokens);
  }

  @Override
  protected ScriptedHttpServer.Response completionWithoutUsage(String text) {
    return OllamaWire.chat(text, null, null);
  }

  @Override
  protected ScriptedHttpServer.Response error(int status, String message) {
    return OllamaWire.error(status, message);
  }

  @Override
  protected boolean jsonModeOnWire(JsonNode body) {
    return "json".equals(body.path("format").asText(null));
  }

  @Override
  protected OptionalDouble temperatureOnWire(JsonNode body) {
    JsonNode t = body.path("options").path("temperature");
    return t.isNumber() ? OptionalDouble.of(t.asDouble()) : OptionalDouble.empty();
  }

  @Override
  protected OptionalLong maxTokensOnWire(JsonNode body) {
    JsonNode n = body.path("options").path("num_predict");
    return n.isNumber() ? OptionalLong.of(n.asLong()) : OptionalLong.empty();
  }

  @Override
  protected List<ChatMessage> messagesOnWire(JsonNode body) {
    return OllamaWire.messages(body);
  }

  // ---------------------------------------------------------------- Ollama-specific

  private static ChatRequest hi(boolean json) {
    return ChatRequest.of(List.of(ChatMessage.user("hi")), json);
  }

  @Test
  void aModelThatIsNotPulledSaysWhichPullToRun() {
    server.enqueue(OllamaWire.error(404, "model 'qwen2.5:7b-instruct' not found, try pulling it first"));
    ChatModel model = newModel(server.baseUri(), knobs(3));
    assertThatThrownBy(() -> model.chat(hi(false)))
        .isInstanceOfSatisfying(
            ProviderException.class,
            e -> {
              assertThat(e.status()).isEqualTo(404);
              assertThat(e.endpoint()).isEqualTo(endpoint());
            })
        .hasMessageContaining("run `ollama pull qwen2.5:7b-instruct`");
    assertThat(server.requests()).hasSize(1);
  }

  @Test
  void requestsAreNotStreamedAndNameTheModel() {
    server.enqueue(completion("ok", 1, 1));
    newModel(server.baseUri(), knobs(0)).chat(hi(false));
    JsonNode body = parse(server.lastRequest().body());
    assertThat(body.path("model").asText()).isEqualTo("test-model");
    assertThat(body.path("stream").asBoolean(true)).isFalse();
  }

  @Test
  void contextSizeAndConfiguredDefaultsReachTheOptions() {
    server.enqueue(completion("ok", 1, 1));
    new OllamaChatModel(config(server.baseUri(), knobs(0)).contextSize(8192).temperature(0.2).maxTokens(300).build())
        .chat(hi(false));
    JsonNode options = parse(server.lastRequest().body()).path("options");
    assertThat(options.path("num_ctx").asInt()).isEqualTo(8192);
    assertThat(options.path("temperature").asDouble()).isCloseTo(0.2, org.assertj.core.api.Assertions.within(1e-6));
    assertThat(options.path("num_predict").asInt()).isEqualTo(300);
  }

  @Test
  void jsonFormatCanBeSwitchedOff() {
    server.enqueue(completion("{}", 1, 1));
    new OllamaChatModel(config(server.baseUri(), knobs(0)).jsonMode(false).build()).chat(hi(true));
    assertThat(parse(server.lastRequest().body()).has("format")).isFalse();
  }

  @Test
  void anErrorInsideA200IsAProviderException() {
    server.enqueue(ScriptedHttpServer.Response.json("{\"error\":\"llama runner process has terminated\"}"));
    ChatModel model = newModel(server.baseUri(), knobs(0));
    assertThatThrownBy(() -> model.chat(hi(false)))
        .isInstanceOf(ProviderException.class)
        .hasMessageContaining("llama runner process has terminated");
  }

  @Test
  void unknownResponseFieldsFromNewerServersAreIgnored() {
    server.enqueue(
        ScriptedHttpServer.Response.json(
            "{\"model\":\"m\",\"message\":{\"role\":\"assistant\",\"content\":\"hi\",\"thinking\":\"\"},"
                + "\"done\":true,\"prompt_eval_count\":3,\"eval_count\":1,\"some_future_field\":{\"x\":1}}"));
    assertThat(newModel(server.baseUri(), knobs(0)).chat(hi(false)).text()).isEqualTo("hi");
  }
}
