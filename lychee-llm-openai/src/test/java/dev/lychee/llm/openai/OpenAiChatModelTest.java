package dev.lychee.llm.openai;

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
import java.time.Duration;
import java.util.List;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** The conformance suite against the OpenAI wire protocol, plus OpenAI-specific behaviour. */
class OpenAiChatModelTest extends BaseChatModelTestCase {

  private OpenAiConfig.Builder config(URI baseUrl, Knobs knobs) {
    return OpenAiConfig.builder()
        .baseUrl(baseUrl.resolve("/v1"))
        .apiKey("sk-test")
        .model("test-model")
        .timeout(knobs.timeout())
        .maxRetries(knobs.maxRetries())
        .initialBackoff(knobs.initialBackoff())
        .retryListener(knobs.retryLog()::record);
  }

  @Override
  protected ChatModel newModel(URI baseUrl, Knobs knobs) {
    return new OpenAiChatModel(config(baseUrl, knobs).build());
  }

  @Override
  protected String chatPath() {
    return "/v1/chat/completions";
  }

  @Override
  protected ScriptedHttpServer.Response completion(String text, int promptTokens, int completionTokens) {
    return OpenAiWire.completion(text, promptTokens, completionTokens);
  }

  @Override
  protected ScriptedHttpServer.Response completionWithoutUsage(String text) {
    return OpenAiWire.completion(text, null, null);
  }

  @Override
  protected ScriptedHttpServer.Response error(int status, String message) {
    return OpenAiWire.error(status, message);
  }

  @Override
  protected boolean jsonModeOnWire(JsonNode body) {
    return "json_object".equals(body.path("response_format").path("type").asText(null));
  }

  @Override
  protected OptionalDouble temperatureOnWire(JsonNode body) {
    return body.has("temperature") ? OptionalDouble.of(body.get("temperature").asDouble()) : OptionalDouble.empty();
  }

  @Override
  protected OptionalLong maxTokensOnWire(JsonNode body) {
    if (body.has("max_tokens")) {
      return OptionalLong.of(body.get("max_tokens").asLong());
    }
    return body.has("max_completion_tokens")
        ? OptionalLong.of(body.get("max_completion_tokens").asLong())
        : OptionalLong.empty();
  }

  @Override
  protected List<ChatMessage> messagesOnWire(JsonNode body) {
    return OpenAiWire.messages(body);
  }

  // ---------------------------------------------------------------- OpenAI-specific

  private static ChatRequest hi(boolean json) {
    return ChatRequest.of(List.of(ChatMessage.user("hi")), json);
  }

  @Test
  void sendsTheApiKeyAndTheModel() {
    server.enqueue(completion("ok", 1, 1));
    newModel(server.baseUri(), knobs(0)).chat(hi(false));
    ScriptedHttpServer.Request r = server.lastRequest();
    assertThat(r.headers()).containsEntry("authorization", "Bearer sk-test");
    assertThat(parse(r.body()).path("model").asText()).isEqualTo("test-model");
  }

  @Test
  void configuredTemperatureAndMaxTokensApplyToDefaultRequests() {
    server.enqueue(completion("ok", 1, 1));
    new OpenAiChatModel(config(server.baseUri(), knobs(0)).temperature(0.3).maxTokens(77).build()).chat(hi(false));
    JsonNode body = parse(server.lastRequest().body());
    assertThat(body.get("temperature").asDouble()).isEqualTo(0.3);
    assertThat(body.get("max_tokens").asLong()).isEqualTo(77);
  }

  @Test
  void maxCompletionTokensParameterCanBeChosen() {
    server.enqueue(completion("ok", 1, 1));
    new OpenAiChatModel(config(server.baseUri(), knobs(0)).maxCompletionTokensParameter(true).build())
        .chat(new ChatRequest(List.of(ChatMessage.user("hi")), 0, 50, false));
    JsonNode body = parse(server.lastRequest().body());
    assertThat(body.get("max_completion_tokens").asLong()).isEqualTo(50);
    assertThat(body.has("max_tokens")).isFalse();
  }

  @Test
  void jsonModeCanBeSwitchedOffForServersWithoutIt() {
    server.enqueue(completion("{}", 1, 1));
    new OpenAiChatModel(config(server.baseUri(), knobs(0)).jsonMode(false).build()).chat(hi(true));
    assertThat(parse(server.lastRequest().body()).has("response_format")).isFalse();
  }

  @Test
  void honoursRetryAfterMs() {
    server.enqueue(error(429, "slow down").withHeader("retry-after-ms", "7"));
    server.enqueue(completion("ok", 1, 1));
    Knobs knobs = new Knobs(Duration.ofSeconds(10), 1, Duration.ofSeconds(5), new RetryLog());
    assertThat(newModel(server.baseUri(), knobs).chat(hi(false)).text()).isEqualTo("ok");
    assertThat(knobs.retryLog().waits()).containsExactly(new RetryLog.Wait(1, 429, Duration.ofMillis(7)));
  }

  @Test
  void noChoicesIsAProviderException() {
    server.enqueue(
        ScriptedHttpServer.Response.json(
            "{\"id\":\"x\",\"object\":\"chat.completion\",\"created\":1,\"model\":\"m\",\"choices\":[]}"));
    ChatModel model = newModel(server.baseUri(), knobs(0));
    assertThatThrownBy(() -> model.chat(hi(false)))
        .isInstanceOf(ProviderException.class)
        .hasMessageContaining("no choices");
  }

  @Test
  void theServersErrorMessageIsInTheException() {
    server.enqueue(error(401, "Incorrect API key provided"));
    ChatModel model = newModel(server.baseUri(), knobs(2));
    assertThatThrownBy(() -> model.chat(hi(false)))
        .isInstanceOfSatisfying(ProviderException.class, e -> assertThat(e.status()).isEqualTo(401))
        .hasMessageContaining("Incorrect API key provided");
  }

  @Test
  void credentialsInTheBaseUrlAndTheKeyNeverAppearInErrors() {
    // a server that echoes what it was given, as some proxies do in their error text
    server.enqueue(error(400, "bad request for key sk-test via http://proxyuser:proxypass@" + server.baseUri().getAuthority()));
    URI withCredentials = URI.create("http://proxyuser:proxypass@" + server.baseUri().getAuthority() + "/v1");
    OpenAiConfig config = config(server.baseUri(), knobs(0)).baseUrl(withCredentials).build();
    try (OpenAiChatModel model = new OpenAiChatModel(config)) {
      assertThatThrownBy(() -> model.chat(hi(false)))
          .isInstanceOfSatisfying(ProviderException.class, e -> {
            assertThat(e.endpoint()).doesNotContain("proxypass").contains("***@");
            assertThat(e.status()).isEqualTo(400);
          })
          .hasMessageNotContaining("proxypass").hasMessageNotContaining("proxyuser").hasMessageNotContaining("sk-test")
          .hasMessageContaining("bad request for key ***");
    }
  }
}
