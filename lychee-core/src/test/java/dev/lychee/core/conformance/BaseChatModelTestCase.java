package dev.lychee.core.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.lychee.api.ChatMessage;
import dev.lychee.api.ChatRequest;
import dev.lychee.api.ChatResult;
import dev.lychee.api.ProviderException;
import dev.lychee.api.TokenUsage;
import dev.lychee.api.spi.ChatModel;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.concurrent.Callable;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Conformance suite for {@link ChatModel} implementations that talk HTTP.
 *
 * <p>Each test starts a real HTTP server on 127.0.0.1 ({@link ScriptedHttpServer}); the provider
 * test scripts it in the provider's own wire protocol through the hooks below, and reads the
 * recorded request bodies back in that protocol. The suite then checks the {@link ChatModel}
 * contract: text and usage come back, JSON mode / temperature / max tokens reach the wire, HTTP 429
 * and 5xx are retried with exponential backoff and {@code Retry-After} is honoured, and every
 * failure (retries used up, client error, timeout, unreadable body, unreachable server) surfaces as
 * a {@link ProviderException} that names the endpoint and status.
 *
 * <p>Backoffs are configured tiny (milliseconds) so the suite stays fast; the one test that
 * honours {@code Retry-After: 1} waits one real second.
 */
public abstract class BaseChatModelTestCase {

  /** Records the waits a model announces before each retry. Thread-safe. */
  public static final class RetryLog {
    /**
     * One announced retry.
     *
     * @param attempt the attempt that failed (1 = the first call)
     * @param status the HTTP status that caused the retry
     * @param delay how long the model waits before the next attempt
     */
    public record Wait(int attempt, int status, Duration delay) {}

    private final List<Wait> waits = new CopyOnWriteArrayList<>();

    /** Adapter target for a provider's retry listener. */
    public void record(int attempt, int status, Duration wait) {
      waits.add(new Wait(attempt, status, wait));
    }

    public List<Wait> waits() {
      return List.copyOf(waits);
    }
  }

  /**
   * The configuration knobs every HTTP chat provider has.
   *
   * @param timeout per-request timeout
   * @param maxRetries retries after the first attempt for 429 / 5xx
   * @param initialBackoff the first backoff; it doubles on every further retry
   * @param retryLog must be wired to the provider's retry listener
   */
  public record Knobs(Duration timeout, int maxRetries, Duration initialBackoff, RetryLog retryLog) {}

  protected static final ObjectMapper JSON = new ObjectMapper();

  protected ScriptedHttpServer server;

  @BeforeEach
  void startServer() {
    server = ScriptedHttpServer.start();
  }

  @AfterEach
  void stopServer() {
    server.close();
  }

  // ---------------------------------------------------------------- hooks for each provider

  /** A model pointed at {@code baseUrl} (the scripted server) configured with {@code knobs}. */
  protected abstract ChatModel newModel(URI baseUrl, Knobs knobs);

  /** The path the provider posts chat requests to, for example {@code /v1/chat/completions}. */
  protected abstract String chatPath();

  /** A successful completion in the provider's wire format, with the given usage counts. */
  protected abstract ScriptedHttpServer.Response completion(String text, int promptTokens, int completionTokens);

  /** A successful completion that carries no usage information at all. */
  protected abstract ScriptedHttpServer.Response completionWithoutUsage(String text);

  /** An error response in the provider's wire format. */
  protected abstract ScriptedHttpServer.Response error(int status, String message);

  /** A 200 response whose body cannot be read as the provider's completion. */
  protected ScriptedHttpServer.Response malformed() {
    return ScriptedHttpServer.Response.json("{\"model\": \"m\", \"choices\": [ {\"message\": ");
  }

  /** Whether the recorded request body asks the server for a JSON object. */
  protected abstract boolean jsonModeOnWire(JsonNode body);

  /** The sampling temperature in the recorded request body, if present. */
  protected abstract OptionalDouble temperatureOnWire(JsonNode body);

  /** The completion token cap in the recorded request body, if present. */
  protected abstract OptionalLong maxTokensOnWire(JsonNode body);

  /** The chat messages in the recorded request body, in order. */
  protected abstract List<ChatMessage> messagesOnWire(JsonNode body);

  // ---------------------------------------------------------------- scripting helpers

  protected void enqueueCompletion(String text, int promptTokens, int completionTokens) {
    server.enqueue(completion(text, promptTokens, completionTokens));
  }

  protected void enqueueError(int status, String message, Map<String, String> headers) {
    ScriptedHttpServer.Response r = error(status, message);
    for (Map.Entry<String, String> h : headers.entrySet()) {
      r = r.withHeader(h.getKey(), h.getValue());
    }
    server.enqueue(r);
  }

  protected void enqueueMalformedBody() {
    server.enqueue(malformed());
  }

  protected void enqueueSlow(Duration delay) {
    server.enqueue(completion("too late", 1, 1).delayedBy(delay));
  }

  protected Knobs knobs(int maxRetries) {
    return new Knobs(Duration.ofSeconds(10), maxRetries, Duration.ofMillis(2), new RetryLog());
  }

  protected static JsonNode parse(String body) {
    try {
      return JSON.readTree(body);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  protected String endpoint() {
    return server.baseUri() + chatPath();
  }

  private static ChatRequest simple(String question) {
    return ChatRequest.of(List.of(ChatMessage.system("You answer briefly."), ChatMessage.user(question)), false);
  }

  // ---------------------------------------------------------------- cases

  @Test
  void returnsTheCompletionTextAndSendsTheMessagesInOrder() {
    enqueueCompletion("Paris is the capital.", 20, 6);
    ChatModel model = newModel(server.baseUri(), knobs(0));

    List<ChatMessage> messages =
        List.of(
            ChatMessage.system("You are terse."),
            ChatMessage.user("Capital of France?"),
            ChatMessage.assistant("Which aspect?"),
            ChatMessage.user("Just the city."));
    ChatResult result = model.chat(ChatRequest.of(messages, false));

    assertThat(result.text()).isEqualTo("Paris is the capital.");
    assertThat(model.modelId()).isNotBlank();
    ScriptedHttpServer.Request request = server.lastRequest();
    assertThat(request.method()).isEqualTo("POST");
    assertThat(request.path()).isEqualTo(chatPath());
    assertThat(messagesOnWire(parse(request.body()))).containsExactlyElementsOf(messages);
  }

  @Test
  void reportsTheUsageTheServerCounted() {
    enqueueCompletion("ok", 1234, 56);
    ChatResult result = newModel(server.baseUri(), knobs(0)).chat(simple("hi"));
    assertThat(result.usage()).isEqualTo(new TokenUsage(1234, 56));
  }

  @Test
  void missingUsageCountsAsZero() {
    server.enqueue(completionWithoutUsage("ok"));
    ChatResult result = newModel(server.baseUri(), knobs(0)).chat(simple("hi"));
    assertThat(result.text()).isEqualTo("ok");
    assertThat(result.usage()).isEqualTo(TokenUsage.ZERO);
  }

  @Test
  void jsonModeIsRequestedOnTheWireOnlyWhenAsked() {
    enqueueCompletion("{\"a\":1}", 5, 3);
    enqueueCompletion("plain", 5, 1);
    ChatModel model = newModel(server.baseUri(), knobs(0));
    List<ChatMessage> messages = List.of(ChatMessage.user("Reply in JSON."));

    ChatResult json = model.chat(ChatRequest.of(messages, true));
    ChatResult plain = model.chat(ChatRequest.of(messages, false));

    assertThat(json.text()).isEqualTo("{\"a\":1}");
    assertThat(plain.text()).isEqualTo("plain");
    List<ScriptedHttpServer.Request> requests = server.requests();
    assertThat(jsonModeOnWire(parse(requests.get(0).body()))).isTrue();
    assertThat(jsonModeOnWire(parse(requests.get(1).body()))).isFalse();
  }

  @Test
  void temperatureAndMaxTokensReachTheWire() {
    enqueueCompletion("ok", 5, 1);
    newModel(server.baseUri(), knobs(0))
        .chat(new ChatRequest(List.of(ChatMessage.user("hi")), 0.7, 123, false));
    JsonNode body = parse(server.lastRequest().body());
    assertThat(temperatureOnWire(body)).hasValue(0.7);
    assertThat(maxTokensOnWire(body)).hasValue(123);
  }

  @Test
  void deterministicRequestsSendTemperatureZero() {
    enqueueCompletion("ok", 5, 1);
    newModel(server.baseUri(), knobs(0)).chat(simple("hi"));
    assertThat(temperatureOnWire(parse(server.lastRequest().body()))).hasValue(0.0);
  }

  @Test
  void retriesA429AndHonoursRetryAfterSeconds() {
    enqueueError(429, "rate limited, slow down", Map.of("Retry-After", "1"));
    enqueueCompletion("after the wait", 8, 3);
    Knobs knobs = knobs(2);

    ChatResult result = newModel(server.baseUri(), knobs).chat(simple("hi"));

    assertThat(result.text()).isEqualTo("after the wait");
    assertThat(result.usage()).isEqualTo(new TokenUsage(8, 3));
    assertThat(server.requests()).hasSize(2);
    // the server's one second wins over the 2 ms backoff
    assertThat(knobs.retryLog().waits()).containsExactly(new RetryLog.Wait(1, 429, Duration.ofSeconds(1)));
  }

  @Test
  void retriesServerErrorsWithExponentialBackoff() {
    enqueueError(500, "boom", Map.of());
    enqueueError(502, "bad gateway", Map.of());
    enqueueCompletion("third time lucky", 4, 4);
    Knobs knobs = new Knobs(Duration.ofSeconds(10), 3, Duration.ofMillis(3), new RetryLog());

    ChatResult result = newModel(server.baseUri(), knobs).chat(simple("hi"));

    assertThat(result.text()).isEqualTo("third time lucky");
    assertThat(server.requests()).hasSize(3);
    assertThat(knobs.retryLog().waits())
        .containsExactly(
            new RetryLog.Wait(1, 500, Duration.ofMillis(3)), new RetryLog.Wait(2, 502, Duration.ofMillis(6)));
  }

  @Test
  void serverErrorsUntilRetriesRunOutGiveAProviderExceptionNamingEndpointAndStatus() {
    for (int i = 0; i < 3; i++) {
      enqueueError(503, "model overloaded", Map.of());
    }
    Knobs knobs = knobs(2);
    ChatModel model = newModel(server.baseUri(), knobs);

    assertThatThrownBy(() -> model.chat(simple("hi")))
        .isInstanceOfSatisfying(
            ProviderException.class,
            e -> {
              assertThat(e.status()).isEqualTo(503);
              assertThat(e.endpoint()).isEqualTo(endpoint());
              assertThat(e.getMessage()).contains(endpoint()).contains("503").contains("3 attempts");
            });
    assertThat(server.requests()).hasSize(3);
    assertThat(knobs.retryLog().waits()).extracting(RetryLog.Wait::status).containsExactly(503, 503);
  }

  @Test
  void clientErrorsAreNotRetried() {
    enqueueError(400, "bad request: unknown field", Map.of());
    enqueueCompletion("never served", 1, 1);
    Knobs knobs = knobs(3);
    ChatModel model = newModel(server.baseUri(), knobs);

    assertThatThrownBy(() -> model.chat(simple("hi")))
        .isInstanceOfSatisfying(
            ProviderException.class,
            e -> {
              assertThat(e.status()).isEqualTo(400);
              assertThat(e.getMessage()).contains(endpoint()).contains("400");
            });
    assertThat(server.requests()).hasSize(1);
    assertThat(knobs.retryLog().waits()).isEmpty();
  }

  @Test
  void aTimeoutIsAProviderException() {
    enqueueSlow(Duration.ofSeconds(5));
    Knobs knobs = new Knobs(Duration.ofMillis(300), 0, Duration.ofMillis(2), new RetryLog());
    ChatModel model = newModel(server.baseUri(), knobs);

    assertThatThrownBy(() -> model.chat(simple("hi")))
        .isInstanceOfSatisfying(
            ProviderException.class,
            e -> {
              assertThat(e.status()).isEqualTo(-1);
              assertThat(e.endpoint()).isEqualTo(endpoint());
              assertThat(e.getMessage()).containsIgnoringCase("time").contains(endpoint());
            });
  }

  /**
   * A server (or a proxy before it) that sends the headers and half the body, then nothing: the
   * timeout bounds the whole exchange, not only the wait for the headers. The call runs on another
   * thread only so that a regression fails instead of hanging the build.
   */
  @Test
  void aBodyThatStallsAfterTheHeadersIsATimeout() {
    server.enqueue(completion("the first half arrives, the rest never does", 1, 1).stallingAfterHeaders(Duration.ofSeconds(60)));
    Knobs knobs = new Knobs(Duration.ofMillis(500), 0, Duration.ofMillis(2), new RetryLog());
    ChatModel model = newModel(server.baseUri(), knobs);

    assertTimeoutPreemptively(Duration.ofSeconds(30), () -> assertThatThrownBy(() -> model.chat(simple("hi")))
        .isInstanceOfSatisfying(
            ProviderException.class,
            e -> {
              assertThat(e.status()).isEqualTo(-1);
              assertThat(e.endpoint()).isEqualTo(endpoint());
              assertThat(e.getMessage()).containsIgnoringCase("time").contains(endpoint());
            }));
  }

  @Test
  void aMalformedBodyIsAProviderException() {
    enqueueMalformedBody();
    ChatModel model = newModel(server.baseUri(), knobs(2));

    assertThatThrownBy(() -> model.chat(simple("hi")))
        .isInstanceOfSatisfying(
            ProviderException.class,
            e -> {
              assertThat(e.status()).isEqualTo(-1);
              assertThat(e.getMessage()).contains(endpoint());
            });
    // an unreadable 200 is not a transient failure: no retry
    assertThat(server.requests()).hasSize(1);
  }

  @Test
  void aWellFormedBodyWithoutACompletionIsAProviderException() {
    server.enqueue(ScriptedHttpServer.Response.json("{\"unexpected\": true}"));
    ChatModel model = newModel(server.baseUri(), knobs(0));
    assertThatThrownBy(() -> model.chat(simple("hi")))
        .isInstanceOf(ProviderException.class)
        .hasMessageContaining(endpoint());
  }

  @Test
  void anUnreachableServerIsAProviderException() throws IOException {
    int closedPort;
    try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      closedPort = socket.getLocalPort();
    }
    ChatModel model = newModel(URI.create("http://127.0.0.1:" + closedPort), knobs(0));
    assertThatThrownBy(() -> model.chat(simple("hi")))
        .isInstanceOfSatisfying(
            ProviderException.class,
            e -> {
              assertThat(e.status()).isEqualTo(-1);
              assertThat(e.getMessage()).contains("127.0.0.1:" + closedPort);
            });
  }

  @Test
  void concurrentCallsEachGetTheirOwnAnswer() throws Exception {
    server.route(
        request -> {
          List<ChatMessage> wire = messagesOnWire(parse(request.body()));
          return completion("echo " + wire.get(wire.size() - 1).content(), 3, 2);
        });
    ChatModel model = newModel(server.baseUri(), knobs(0));
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      List<Future<String>> futures = new ArrayList<>();
      for (int i = 0; i < 16; i++) {
        String q = "question " + i;
        Callable<String> call = () -> model.chat(simple(q)).text();
        futures.add(pool.submit(call));
      }
      for (int i = 0; i < 16; i++) {
        assertThat(futures.get(i).get()).isEqualTo("echo question " + i);
      }
    } finally {
      pool.shutdownNow();
    }
  }
}
