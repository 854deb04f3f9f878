package dev.lychee.core.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lychee.api.Answer;
import dev.lychee.api.ChatMessage;
import dev.lychee.api.MemoryRecord;
import dev.lychee.api.Recall;
import dev.lychee.api.RecallRoute;
import dev.lychee.api.Role;
import dev.lychee.api.TokenUsage;
import dev.lychee.api.Turn;
import com.google.inject.Module;
import dev.lychee.api.spi.ChatModel;
import dev.lychee.api.spi.Embedder;
import dev.lychee.core.ingest.IngestResult;
import dev.lychee.core.Lychee;
import dev.lychee.core.LycheeConfig;
import dev.lychee.core.testing.HashingEmbedder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.time.LocalDateTime;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * End-to-end test of Lychee's LLM path (LLM encoder, LLM planner, LLM answerer) over a real
 * provider talking to a local HTTP server in the provider's wire protocol.
 *
 * <p>The server tells the three prompts apart by their messages (the encoder's user message holds
 * {@code <CURRENT_TURNS>}, the planner's {@code <QUESTION>}, the answerer's a "Question:" line after
 * the evidence) and answers each with scripted, valid output. Every answer reports a distinct
 * usage, so the test can check that construction tokens (encoder) and query tokens (planner plus
 * answerer) are summed where they belong. The conversation is invented for this test.
 */
public abstract class BaseLlmPathTestCase {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Pattern TURN =
      Pattern.compile("<TURN index=\"(\\d+)\" role=\"(\\w+)\"(?: speaker=\"([^\"]*)\")?>(.*?)</TURN>", Pattern.DOTALL);

  static final TokenUsage ENCODER_USAGE = new TokenUsage(500, 120);
  static final TokenUsage PLANNER_USAGE = new TokenUsage(300, 80);
  static final TokenUsage ANSWER_USAGE = new TokenUsage(400, 5);
  static final String DOG_RECORD = "Maren adopted a beagle named Biscuit on 2023-05-07.";

  protected ScriptedHttpServer server;
  private final AtomicInteger encoderCalls = new AtomicInteger();
  private final AtomicInteger plannerCalls = new AtomicInteger();
  private final AtomicInteger answerCalls = new AtomicInteger();
  private volatile String lastAnswerPrompt = "";

  /** A chat model of the provider under test, pointed at {@code baseUrl}. */
  protected abstract ChatModel newModel(URI baseUrl);

  /** The provider's Guice module (chat model only) pointed at {@code baseUrl}. */
  protected abstract Module providerModule(URI baseUrl);

  /** A completion in the provider's wire format. */
  protected abstract ScriptedHttpServer.Response completion(String text, int promptTokens, int completionTokens);

  /** The chat messages of a recorded request body. */
  protected abstract List<ChatMessage> messagesOnWire(JsonNode body);

  @BeforeEach
  void startServer() {
    server = ScriptedHttpServer.start();
    server.route(this::answer);
  }

  @AfterEach
  void stopServer() {
    server.close();
  }

  private ScriptedHttpServer.Response answer(ScriptedHttpServer.Request request) {
    List<ChatMessage> messages;
    try {
      messages = messagesOnWire(JSON.readTree(request.body()));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    // the first user message carries the prompt; a repair retry appends more messages after it
    String user = messages.stream().filter(m -> m.role() == Role.USER).map(ChatMessage::content)
        .findFirst().orElse("");
    if (user.contains("<CURRENT_TURNS>")) {
      encoderCalls.incrementAndGet();
      return completion(encoderJson(user), (int) ENCODER_USAGE.inputTokens(), (int) ENCODER_USAGE.outputTokens());
    }
    if (user.contains("<QUESTION>")) {
      plannerCalls.incrementAndGet();
      return completion(PLAN, (int) PLANNER_USAGE.inputTokens(), (int) PLANNER_USAGE.outputTokens());
    }
    if (user.contains("Question:")) {
      answerCalls.incrementAndGet();
      lastAnswerPrompt = user;
      return completion("Biscuit", (int) ANSWER_USAGE.inputTokens(), (int) ANSWER_USAGE.outputTokens());
    }
    return null; // the server answers 400: the test fails on an unexpected prompt
  }

  /** One record per turn that says something, plus the adoption event when the turns mention it. */
  private static String encoderJson(String user) {
    ObjectNode root = JSON.createObjectNode();
    ArrayNode records = root.putArray("records");
    Matcher m = TURN.matcher(user);
    while (m.find()) {
      int index = Integer.parseInt(m.group(1));
      String speaker = m.group(3) == null ? "the user" : m.group(3);
      String text = m.group(4).strip();
      if (text.contains("adopted a beagle")) {
        ObjectNode r = records.addObject();
        r.put("memory_type", "event");
        r.put("semantic_text", DOG_RECORD);
        r.putArray("entities").add("Maren").add("Biscuit");
        r.putObject("temporal").put("t_ref", "2023-05-07").put("t_valid_from", "").put("t_valid_to", "");
        r.putArray("tags").add("dog").add("adoption").add("pet");
        r.putArray("evidence_turns").add(index);
        r.put("source_role", "user");
      } else if (text.contains("pottery")) {
        ObjectNode r = records.addObject();
        r.put("memory_type", "preference");
        r.put("semantic_text", speaker + " enjoys pottery classes on weekends.");
        r.putArray("entities").add(speaker);
        r.putObject("temporal").put("t_ref", "").put("t_valid_from", "").put("t_valid_to", "");
        r.putArray("tags").add("pottery").add("hobby");
        r.putArray("evidence_turns").add(index);
        r.put("source_role", "user");
      }
    }
    root.put("disambiguation_context", "Speakers: Maren and Joss.");
    return root.toString();
  }

  private static final String PLAN = """
      {"reason": "asks for the name of Maren's dog",
       "question_type": "single",
       "semantic_queries": ["Maren adopted a dog", "Maren dog name", "Maren beagle"],
       "temporal_filter": {},
       "evidence_target": "the name of the dog Maren adopted",
       "evidence_constraints": ["Maren", "dog"],
       "constraints": [{"kind": "entity", "value": "Maren"}],
       "evidence_routes": [
         {"route_id": "r1", "evidence_goal": "Maren's dog adoption", "queries": ["Maren adopted a beagle", "Maren new dog"],
          "constraints": [], "temporal_filter": {}},
         {"route_id": "r2", "evidence_goal": "names of Maren's pets", "queries": ["Maren pet name", "Maren puppy"],
          "constraints": [], "temporal_filter": {}}]}
      """;

  private static List<Turn> conversation() {
    return List.of(
        Turn.user("Maren", "Big news: on Sunday I adopted a beagle from the shelter, his name is Biscuit!"),
        Turn.user("Joss", "That is wonderful, Maren. How is Biscuit settling in?"),
        Turn.user("Maren", "He sleeps all day and steals socks. Otherwise perfect."),
        Turn.user("Joss", "Ha. I finally signed up for pottery classes on weekends, by the way."),
        Turn.user("Maren", "You always wanted to try pottery, good for you."));
  }

  @Test
  void recordsPlanRoutesAndTheAnswerFlowThroughAndTokensAreCounted() {
    // synchronous encoding: the call's result then accounts for every encoder call
    LycheeConfig config = LycheeConfig.builder().llm(LycheeConfig.Mode.LLM)
        .encodeMode(dev.lychee.core.ingest.IngestConfig.EncodeMode.SYNC).build();
    try (Lychee lychee = Lychee.builder().embedder(new HashingEmbedder()).chatModel(newModel(server.baseUri())).config(config).build()) {
      IngestResult appended = lychee.append("ns", "s1", LocalDateTime.of(2023, 5, 9, 18, 30), conversation());
      IngestResult flushed = lychee.flush("ns", "s1");
      IngestResult ingest = appended.plus(flushed);

      // construction: every encoder call's reported usage, and nothing else, is counted
      int encodes = encoderCalls.get();
      assertThat(encodes).isPositive();
      assertThat(ingest.errors()).isEmpty();
      assertThat(ingest.segmentsEncoded()).isEqualTo(encodes);
      assertThat(ingest.usage())
          .isEqualTo(new TokenUsage(ENCODER_USAGE.inputTokens() * encodes, ENCODER_USAGE.outputTokens() * encodes));
      assertThat(ingest.encoderInputTokens()).isPositive();
      assertThat(plannerCalls.get()).isZero();

      // records the encoder wrote are in the store, with provenance back to the cited turn
      List<MemoryRecord> records = lychee.store().records("ns");
      assertThat(records).extracting(MemoryRecord::text).contains(DOG_RECORD, "Joss enjoys pottery classes on weekends.");
      MemoryRecord dog = records.stream().filter(r -> r.text().equals(DOG_RECORD)).findFirst().orElseThrow();
      assertThat(dog.evidence()).extracting(t -> t.index()).containsExactly(0);

      // recall: the LLM plan's routes are the ones executed, the record comes back as evidence
      Recall recall = lychee.recall("ns", "What is the name of the dog Maren adopted?");
      assertThat(plannerCalls.get()).isEqualTo(1);
      assertThat(recall.plan().routes()).extracting(RecallRoute::id).containsExactly("r1", "r2");
      assertThat(recall.plan().routes().get(0).queries()).contains("Maren adopted a beagle");
      assertThat(recall.plan().usage()).isEqualTo(PLANNER_USAGE);
      assertThat(recall.evidence()).anySatisfy(e -> assertThat(e.candidate().text()).contains("Biscuit"));

      // answer: the answerer saw the record in its prompt; query tokens = planner + answerer
      Answer answer = lychee.answer("ns", "What is the name of the dog Maren adopted?");
      assertThat(answer.text()).isEqualTo("Biscuit");
      assertThat(answerCalls.get()).isEqualTo(1);
      assertThat(lastAnswerPrompt).contains(DOG_RECORD);
      assertThat(answer.plan().routes()).extracting(RecallRoute::id).containsExactly("r1", "r2");
      assertThat(answer.usage()).isEqualTo(PLANNER_USAGE.plus(ANSWER_USAGE));
    }
  }

  @Test
  void theProviderModuleWiresTheModelIntoLycheeCreate() {
    LycheeConfig config = LycheeConfig.builder().llm(LycheeConfig.Mode.LLM).build();
    Module embedder = binder -> binder.bind(Embedder.class).toInstance(new HashingEmbedder());
    try (Lychee lychee = Lychee.create(config, providerModule(server.baseUri()), embedder)) {
      IngestResult ingest = lychee.append("ns", "s1", LocalDateTime.of(2023, 5, 9, 18, 30), conversation())
          .plus(lychee.flush("ns", "s1"));
      assertThat(ingest.errors()).isEmpty();
      // the LLM encoder encodes in the background by default: the call queued every closed segment
      assertThat(ingest.segmentsQueued()).isEqualTo(ingest.segmentsClosed()).isPositive();
      assertThat(lychee.awaitIdle("ns", java.time.Duration.ofSeconds(30))).isTrue();
      assertThat(encoderCalls.get()).isEqualTo(ingest.segmentsClosed());
      assertThat(lychee.store().segments("ns")).allMatch(s -> s.state() == dev.lychee.api.SegmentState.ENCODED);

      Answer answer = lychee.answer("ns", "What is the name of the dog Maren adopted?");
      assertThat(answer.text()).isEqualTo("Biscuit");
      assertThat(answer.plan().routes()).extracting(RecallRoute::id).containsExactly("r1", "r2");
      assertThat(answer.usage()).isEqualTo(PLANNER_USAGE.plus(ANSWER_USAGE));
    }
  }
}
