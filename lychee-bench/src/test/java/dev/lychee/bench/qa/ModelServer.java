package dev.lychee.bench.qa;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lychee.core.conformance.ScriptedHttpServer;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A local model server for LLM-judged runs, speaking the OpenAI or the Ollama chat protocol, that
 * answers each of Lychee's prompts validly by recognising it from its content:
 *
 * <ul>
 *   <li>encoder: one fact record per segment, citing its first turn;
 *   <li>planner: a one-route plan;
 *   <li>answerer: the reference answer when the question names {@link #KNOWN_PERSON}, else a wrong
 *       one (so the expected judge accuracy follows from the fixture);
 *   <li>judge: CORRECT exactly when the graded answer equals the reference.
 * </ul>
 *
 * <p>Each kind reports fixed token usage ({@link #usage}), so tests can check the run's accounting
 * against what the server said. Requests whose body contains the {@link #holdWhenContaining held
 * marker} wait until {@link #release()} (to interrupt a run at a known point).
 */
final class ModelServer implements AutoCloseable {
  static final String KNOWN_PERSON = "Alice";
  static final ObjectMapper JSON = new ObjectMapper();

  enum Kind { ENCODER, PLANNER, ANSWER, JUDGE, SUMMARY }

  /** Reported usage per kind: {prompt, completion}. */
  static final Map<Kind, int[]> USAGE = Map.of(
      Kind.ENCODER, new int[] {100, 20}, Kind.PLANNER, new int[] {30, 10}, Kind.ANSWER, new int[] {50, 5},
      Kind.JUDGE, new int[] {40, 2}, Kind.SUMMARY, new int[] {70, 15});

  private static final Pattern QUESTION = Pattern.compile("Question: (.*)\\nAnswer:", Pattern.DOTALL);
  private static final Pattern GRADED = Pattern.compile(
      "Reference answer: (.*)\\nAnswer to grade: (.*)", Pattern.DOTALL);

  private final ScriptedHttpServer http = ScriptedHttpServer.start();
  private final boolean ollama;
  private final Map<Kind, AtomicLong> counts = new ConcurrentHashMap<>();
  private volatile java.util.function.UnaryOperator<String> answers =
      q -> q.contains(KNOWN_PERSON) ? Fixture.goldFor(q) : "Something else entirely";
  private volatile String held;
  private final CountDownLatch release = new CountDownLatch(1);
  private final CountDownLatch heldArrived = new CountDownLatch(1);

  private ModelServer(boolean ollama) {
    this.ollama = ollama;
    http.route(this::answer);
  }

  static ModelServer openAi() {
    return new ModelServer(false);
  }

  static ModelServer ollama() {
    return new ModelServer(true);
  }

  /** The environment that points a run at this server. */
  Map<String, String> environment() {
    return ollama ? Map.of("OLLAMA_HOST", http.baseUri().toString())
        : Map.of("OPENAI_BASE_URL", http.baseUri() + "/v1", "OPENAI_API_KEY", "sk-test-not-a-secret");
  }

  /** Answers questions with {@code rule} (question text to answer text) instead of the LoCoMo rule. */
  void answerWith(java.util.function.UnaryOperator<String> rule) {
    this.answers = rule;
  }

  /** Holds every request whose body contains {@code marker} until {@link #release()}. */
  void holdWhenContaining(String marker) {
    this.held = marker;
  }

  /** Waits until a held request has arrived. */
  boolean awaitHeld(long seconds) throws InterruptedException {
    return heldArrived.await(seconds, TimeUnit.SECONDS);
  }

  void release() {
    held = null;
    release.countDown();
  }

  long count(Kind kind) {
    AtomicLong c = counts.get(kind);
    return c == null ? 0 : c.get();
  }

  long total() {
    return counts.values().stream().mapToLong(AtomicLong::get).sum();
  }

  java.util.List<ScriptedHttpServer.Request> requests() {
    return http.requests();
  }

  private final AtomicLong toRateLimit = new AtomicLong();
  private final AtomicLong rateLimited = new AtomicLong();

  /** Answers the next {@code n} requests with 429 and {@code Retry-After: 0}. */
  void rateLimitFirst(int n) {
    toRateLimit.set(n);
  }

  /** How many requests were answered 429. */
  long rateLimited() {
    return rateLimited.get();
  }

  private ScriptedHttpServer.Response answer(ScriptedHttpServer.Request request) {
    if (toRateLimit.getAndUpdate(n -> n > 0 ? n - 1 : 0) > 0) {
      rateLimited.incrementAndGet();
      return ScriptedHttpServer.Response.json(429, "{\"error\": {\"message\": \"slow down\", \"type\": \"rate_limit\"}}")
          .withHeader("Retry-After", "0");
    }
    String marker = held;
    if (marker != null && request.body().contains(marker)) {
      heldArrived.countDown();
      try {
        release.await(60, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    JsonNode body;
    try {
      body = JSON.readTree(request.body());
    } catch (Exception e) {
      return null;
    }
    String system = body.path("messages").path(0).path("content").asText();
    String user = body.path("messages").path(1).path("content").asText();
    Kind kind;
    String text;
    if (system.startsWith("You write long-term memory records")) {
      kind = Kind.ENCODER;
      text = "{\"records\": [{\"memory_type\": \"fact\", \"semantic_text\": \"Segment record " + Math.abs(user.hashCode())
          + ".\", \"entities\": [], \"temporal\": {\"t_ref\": \"\", \"t_valid_from\": \"\", \"t_valid_to\": \"\"}, "
          + "\"tags\": [\"note\"], \"evidence_turns\": [0], \"source_role\": \"user\"}], \"disambiguation_context\": \"\"}";
    } else if (system.startsWith("Summarise a piece of conversation")) {
      kind = Kind.SUMMARY;
      text = "{\"summary\": \"A summary of " + Math.abs(user.hashCode()) + ".\"}";
    } else if (system.startsWith("You plan how to search")) {
      kind = Kind.PLANNER;
      text = "{\"reason\": \"r\", \"question_type\": \"single\", \"semantic_queries\": [\"memory\"], \"temporal_filter\": {}, "
          + "\"evidence_target\": \"t\", \"evidence_constraints\": [], \"constraints\": [], \"evidence_routes\": "
          + "[{\"route_id\": \"r1\", \"evidence_goal\": \"g\", \"queries\": [\"memory\"], \"constraints\": [], "
          + "\"temporal_filter\": {}}]}";
    } else if (system.startsWith("You answer questions about a long conversation")) {
      kind = Kind.ANSWER;
      Matcher m = QUESTION.matcher(user);
      String q = m.find() ? m.group(1).strip() : "";
      text = answers.apply(q);
    } else if (system.startsWith("You grade one answer")) {
      kind = Kind.JUDGE;
      Matcher m = GRADED.matcher(user);
      boolean found = m.find();
      boolean same = found && m.group(1).strip().equals(m.group(2).strip());
      if (system.contains("cannot be answered from the conversation")) {
        same = found && m.group(2).contains("not available");
      }
      text = same ? "{\"verdict\": \"CORRECT\"}" : "{\"verdict\": \"WRONG\"}";
    } else {
      return null;
    }
    counts.computeIfAbsent(kind, k -> new AtomicLong()).incrementAndGet();
    int[] u = USAGE.get(kind);
    return ollama ? ollamaReply(text, u) : openAiReply(text, u);
  }

  private static ScriptedHttpServer.Response openAiReply(String text, int[] u) {
    ObjectNode root = JSON.createObjectNode();
    root.put("id", "chatcmpl-qa");
    root.put("object", "chat.completion");
    root.put("created", 1_700_000_000L);
    root.put("model", "qa-model");
    ObjectNode choice = root.putArray("choices").addObject();
    choice.put("index", 0);
    choice.putObject("message").put("role", "assistant").put("content", text);
    choice.put("finish_reason", "stop");
    root.putObject("usage").put("prompt_tokens", u[0]).put("completion_tokens", u[1]).put("total_tokens", u[0] + u[1]);
    return ScriptedHttpServer.Response.json(root.toString());
  }

  private static ScriptedHttpServer.Response ollamaReply(String text, int[] u) {
    ObjectNode root = JSON.createObjectNode();
    root.put("model", "qa-model");
    root.put("created_at", "2026-01-05T10:00:00.000000Z");
    root.putObject("message").put("role", "assistant").put("content", text);
    root.put("done_reason", "stop");
    root.put("done", true);
    root.put("prompt_eval_count", u[0]);
    root.put("eval_count", u[1]);
    return ScriptedHttpServer.Response.json(root.toString());
  }

  @Override
  public void close() {
    release();
    http.close();
  }
}
