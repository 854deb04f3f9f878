package dev.lychee.core.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lychee.api.ChatMessage;
import dev.lychee.api.QueueFullException;
import dev.lychee.api.Role;
import dev.lychee.api.SegmentState;
import dev.lychee.api.StoredSegment;
import dev.lychee.api.Turn;
import dev.lychee.api.spi.ChatModel;
import dev.lychee.core.Lychee;
import dev.lychee.core.LycheeConfig;
import dev.lychee.core.fallback.FallbackConfig;
import dev.lychee.core.ingest.IngestConfig;
import dev.lychee.core.ingest.IngestResult;
import dev.lychee.core.ingest.MemoryStatus;
import dev.lychee.core.testing.HashingEmbedder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Background encoding against a real provider speaking its wire protocol to a local HTTP server
 * that is held, slow, failing, returns garbage or hangs. Each turn is its own segment ("turn"
 * segmenter); the server answers segment k of session S with the record "Fact k of S.", so the
 * reference context each request carried shows whether segment k-1 was committed before segment
 * k was encoded.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
public abstract class BaseBackgroundEncodingTestCase {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Pattern TURN = Pattern.compile("Message (\\d+) of (\\w+)\\.");
  private static final LocalDateTime DAY = LocalDateTime.of(2024, 3, 1, 10, 0);
  private static final Duration IDLE = Duration.ofSeconds(60);

  protected ScriptedHttpServer server;
  private final List<String> encoderPrompts = new java.util.concurrent.CopyOnWriteArrayList<>();
  private final CountDownLatch gate = new CountDownLatch(1);
  private volatile boolean gated;
  private final AtomicInteger failuresLeft = new AtomicInteger();
  private final AtomicInteger garbageLeft = new AtomicInteger();
  private volatile Duration hang = Duration.ZERO;
  private volatile boolean readsHang;

  /** A chat model of the provider under test at {@code baseUrl}, with this per-call timeout and no retries of its own. */
  protected abstract ChatModel newModel(URI baseUrl, Duration timeout);

  /** A completion in the provider's wire format. */
  protected abstract ScriptedHttpServer.Response completion(String text, int promptTokens, int completionTokens);

  /** An error response in the provider's wire format. */
  protected abstract ScriptedHttpServer.Response error(int status);

  /** The chat messages of a recorded request body. */
  protected abstract List<ChatMessage> messagesOnWire(JsonNode body);

  @BeforeEach
  void startServer() {
    server = ScriptedHttpServer.start();
    server.route(this::answer);
  }

  @AfterEach
  void stopServer() {
    gate.countDown();
    server.close();
  }

  private ScriptedHttpServer.Response answer(ScriptedHttpServer.Request request) {
    String user;
    try {
      user = messagesOnWire(JSON.readTree(request.body())).stream().filter(m -> m.role() == Role.USER)
          .map(ChatMessage::content).findFirst().orElse("");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    if (!user.contains("<CURRENT_TURNS>")) {
      // planner and answerer calls hang when the test asks for it
      return readsHang ? completion("{}", 1, 1).delayedBy(Duration.ofSeconds(30)) : null;
    }
    encoderPrompts.add(user);
    if (!hang.isZero()) {
      return completion("{\"records\": []}", 1, 1).delayedBy(hang);
    }
    if (gated) {
      try {
        gate.await(60, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    if (failuresLeft.getAndDecrement() > 0) {
      return error(503);
    }
    if (garbageLeft.getAndDecrement() > 0) {
      return completion("I am sorry, I cannot produce JSON today.", 5, 5);
    }
    Matcher m = TURN.matcher(user.substring(user.indexOf("<CURRENT_TURNS>")));
    if (!m.find()) {
      return null;
    }
    ObjectNode root = JSON.createObjectNode();
    ObjectNode r = root.putArray("records").addObject();
    r.put("memory_type", "fact");
    r.put("semantic_text", "Fact " + m.group(1) + " of " + m.group(2) + ".");
    r.putArray("evidence_turns").add(0);
    return completion(root.toString(), 10, 5);
  }

  private Lychee open(IngestConfig.Builder ingest, Duration callTimeout) {
    LycheeConfig config = LycheeConfig.builder().segmenter("turn").encoder(LycheeConfig.Mode.LLM)
        .planner(LycheeConfig.Mode.OFFLINE).answerer(LycheeConfig.Mode.OFFLINE)
        .ingest(ingest.encodeMode(IngestConfig.EncodeMode.ASYNC).flushOtherSessions(false)
            .retryBackoff(Duration.ofMillis(5)).maxBackoff(Duration.ofMillis(20)).build())
        .build();
    return Lychee.builder().embedder(new HashingEmbedder()).chatModel(newModel(server.baseUri(), callTimeout))
        .config(config).build();
  }

  private static List<Turn> turns(String session, int from, int count) {
    List<Turn> out = new ArrayList<>();
    for (int i = from; i < from + count; i++) {
      out.add(Turn.user(i % 2 == 0 ? "Ada" : "Ben", "Message " + i + " of " + session + ". The weather talk goes on."));
    }
    return out;
  }

  @Test
  void appendReturnsWhileTheServerHoldsEveryEncoderCall() {
    gated = true;
    try (Lychee l = open(IngestConfig.builder(), Duration.ofSeconds(60))) {
      IngestResult r = l.append("ns", "s1", DAY, turns("s1", 0, 4)).plus(l.flush("ns", "s1"));
      // the server has not answered one encoder call yet, and the caller already has its result
      assertThat(r.turnsStored()).isEqualTo(4);
      assertThat(r.segmentsClosed()).isPositive();
      assertThat(r.segmentsQueued()).isEqualTo(r.segmentsClosed());
      assertThat(r.segmentsEncoded()).isZero();
      assertThat(l.store().countTurns("ns")).isEqualTo(4);
      MemoryStatus before = l.status("ns");
      assertThat(before.queued()).isEqualTo(r.segmentsClosed());
      assertThat(before.segments(SegmentState.PENDING)).isEqualTo(r.segmentsClosed());
      assertThat(before.oldestPendingAge()).isPresent();
      // raw turns are recallable at once
      assertThat(l.recall("ns", "What was message 2 about?").evidence()).isNotEmpty();

      gate.countDown();
      assertThat(l.awaitIdle("ns", IDLE)).isTrue();
      MemoryStatus after = l.status("ns");
      assertThat(after.segments(SegmentState.ENCODED)).isEqualTo(r.segmentsClosed());
      assertThat(after.queued()).isZero();
      assertThat(after.idle()).isTrue();
      assertThat(l.store().records("ns")).hasSize(r.segmentsClosed());
    }
  }

  @Test
  void failuresAndGarbageAreRetriedUntilTheServerRecovers() {
    failuresLeft.set(3);
    garbageLeft.set(2);
    try (Lychee l = open(IngestConfig.builder().maxAttempts(8), Duration.ofSeconds(20))) {
      IngestResult r = l.append("ns", "s1", DAY, turns("s1", 0, 3)).plus(l.flush("ns", "s1"));
      assertThat(r.failures()).isEmpty();
      assertThat(l.awaitIdle("ns", IDLE)).isTrue();
      assertThat(l.store().segments("ns")).hasSize(r.segmentsClosed())
          .allMatch(s -> s.state() == SegmentState.ENCODED);
      assertThat(l.store().records("ns")).extracting(m -> m.text())
          .containsExactlyInAnyOrder("Fact 0 of s1.", "Fact 1 of s1.", "Fact 2 of s1.");
      // 3 refused calls and 2 garbage answers came before the calls that succeeded
      assertThat(encoderPrompts).hasSize(3 + 2 + r.segmentsClosed());
      assertOrderPerSession();
    }
  }

  @Test
  void eightConcurrentSessionsEndWithExactCountsAndTheirOwnOrder() throws Exception {
    int sessions = 8;
    int perSession = 5;
    ExecutorService pool = Executors.newFixedThreadPool(sessions);
    try (Lychee l = open(IngestConfig.builder().concurrency(4), Duration.ofSeconds(20))) {
      List<Future<IngestResult>> results = new ArrayList<>();
      for (int s = 0; s < sessions; s++) {
        String session = "sess" + s;
        results.add(pool.submit(() -> {
          IngestResult total = IngestResult.EMPTY;
          for (int i = 0; i < perSession; i++) {
            total = total.plus(l.append("ns", session, DAY, turns(session, i, 1)));
          }
          return total.plus(l.flush("ns", session));
        }));
      }
      int closed = 0;
      for (Future<IngestResult> f : results) {
        IngestResult r = f.get(60, TimeUnit.SECONDS);
        assertThat(r.turnsStored()).isEqualTo(perSession);
        assertThat(r.failures()).isEmpty();
        closed += r.segmentsClosed();
      }
      assertThat(l.awaitIdle("ns", IDLE)).isTrue();
      assertThat(l.store().countTurns("ns")).isEqualTo(sessions * perSession);
      List<StoredSegment> stored = l.store().segments("ns");
      assertThat(stored).hasSize(closed).allMatch(s -> s.state() == SegmentState.ENCODED);
      assertThat(closed).isEqualTo(sessions * perSession);
      assertThat(l.store().records("ns")).hasSize(sessions * perSession);
      // every segment was encoded exactly once
      assertThat(encoderPrompts).hasSize(closed);
      assertOrderPerSession();
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void aHangingServerFailsWithinTheCallTimeoutNamingTheEndpointAndTheSegmentStaysPending() {
    hang = Duration.ofSeconds(30);
    try (Lychee l = open(IngestConfig.builder().maxAttempts(2), Duration.ofMillis(300))) {
      IngestResult r = l.append("ns", "s1", DAY, turns("s1", 0, 1)).plus(l.flush("ns", "s1"));
      assertThat(r.segmentsQueued()).isEqualTo(1);
      assertThat(l.awaitIdle("ns", IDLE)).isTrue();
      MemoryStatus status = l.status("ns");
      assertThat(status.segments(SegmentState.PENDING)).isEqualTo(1);
      assertThat(status.stoppedSessions()).isEqualTo(1);
      assertThat(status.lastError()).hasValueSatisfying(e -> assertThat(e)
          .contains("127.0.0.1:" + server.baseUri().getPort()).doesNotContain("sk-test"));
      assertThat(encoderPrompts).hasSize(2);
      assertThat(l.store().turns("ns", "s1")).hasSize(1);

      // the server recovers: encodePending finishes the job
      hang = Duration.ZERO;
      assertThat(l.encodePending("ns").segmentsQueued()).isEqualTo(1);
      assertThat(l.awaitIdle("ns", IDLE)).isTrue();
      assertThat(l.status("ns").segments(SegmentState.ENCODED)).isEqualTo(1);
      assertThat(l.status("ns").stoppedSessions()).isZero();
    }
  }

  @Test
  void aFullQueueRejectsTheCallBeforeStoringAnythingAndNothingIsLost() {
    gated = true;
    // the append itself queues its segment (segmentation on the caller's thread), so the next call
    // finds the queue full at once
    try (Lychee l = open(IngestConfig.builder().queueCapacity(1).whenFull(IngestConfig.FullQueuePolicy.REJECT)
        .segmentInBackground(false), Duration.ofSeconds(60))) {
      assertThat(l.append("ns", "s1", DAY, turns("s1", 0, 1)).segmentsQueued()).isEqualTo(1);
      assertThatThrownBy(() -> l.append("ns", "s1", DAY, turns("s1", 1, 1)))
          .isInstanceOf(QueueFullException.class).hasMessageContaining("nothing of this call was stored");
      assertThat(l.store().countTurns("ns")).isEqualTo(1);

      gate.countDown();
      assertThat(l.awaitIdle("ns", IDLE)).isTrue();
      // the caller retries the refused call as it was
      assertThat(l.append("ns", "s1", DAY, turns("s1", 1, 1)).turnsStored()).isEqualTo(1);
      assertThat(l.awaitIdle("ns", IDLE)).isTrue();
      assertThat(l.store().countTurns("ns")).isEqualTo(2);
      assertThat(l.store().segments("ns")).hasSize(2).allMatch(s -> s.state() == SegmentState.ENCODED);
    }
  }

  @Test
  void aFullQueueMakesTheCallWaitForRoomWhenThePolicyIsWait() throws Exception {
    gated = true;
    try (Lychee l = open(IngestConfig.builder().queueCapacity(1).whenFull(IngestConfig.FullQueuePolicy.WAIT)
        .fullQueueWait(Duration.ofSeconds(60)).segmentInBackground(false), Duration.ofSeconds(60))) {
      l.append("ns", "s1", DAY, turns("s1", 0, 1));
      Thread caller = Thread.currentThread();
      Thread opener = new Thread(() -> {
        // open the gate only once the caller is parked waiting for room
        while (caller.getState() != Thread.State.TIMED_WAITING) {
          Thread.onSpinWait();
        }
        gate.countDown();
      });
      opener.start();
      IngestResult second = l.append("ns", "s1", DAY, turns("s1", 1, 1));
      opener.join(10_000);
      assertThat(second.turnsStored()).isEqualTo(1);
      assertThat(l.awaitIdle("ns", IDLE)).isTrue();
      assertThat(l.store().segments("ns")).hasSize(2).allMatch(s -> s.state() == SegmentState.ENCODED);
    }
  }

  @Test
  void aFullQueueThatStaysFullThrowsAfterTheWait() {
    gated = true;
    try (Lychee l = open(IngestConfig.builder().queueCapacity(1).fullQueueWait(Duration.ofMillis(50)).segmentInBackground(false),
        Duration.ofSeconds(60))) {
      l.append("ns", "s1", DAY, turns("s1", 0, 1));
      assertThatThrownBy(() -> l.append("ns", "s2", DAY, turns("s2", 0, 1)))
          .isInstanceOf(QueueFullException.class).hasMessageContaining("waited");
      assertThat(l.store().countTurns("ns")).isEqualTo(1);
      gate.countDown();
      assertThat(l.awaitIdle("ns", IDLE)).isTrue();
    }
  }

  @Test
  void aHangingLlmMakesAskFallBackToTheOfflinePathWithinTheDeadlineOrFailWhenConfigured() {
    readsHang = true;
    for (FallbackConfig.LlmFailurePolicy policy : FallbackConfig.LlmFailurePolicy.values()) {
      LycheeConfig config = LycheeConfig.builder().segmenter("turn").llm(LycheeConfig.Mode.LLM)
          .encodeMode(IngestConfig.EncodeMode.SYNC)
          .fallback(new FallbackConfig(Duration.ofMillis(500), policy)).build();
      try (Lychee l = Lychee.builder().embedder(new HashingEmbedder()).chatModel(newModel(server.baseUri(), Duration.ofSeconds(60)))
          .config(config).build()) {
        l.append("ns", "s1", DAY, turns("s1", 0, 2));
        if (policy == FallbackConfig.LlmFailurePolicy.FALL_BACK) {
          dev.lychee.api.Answer a = l.answer("ns", "What was message 1 about?");
          assertThat(a.evidence()).isNotEmpty();
          assertThat(a.text()).as("the extractive answer is a span of the evidence").isNotBlank();
          assertThat(a.evidence()).anySatisfy(e -> assertThat(e.text()).contains(a.text()));
        } else {
          assertThatThrownBy(() -> l.answer("ns", "What was message 1 about?"))
              .isInstanceOf(dev.lychee.core.fallback.LlmUnavailableException.class);
        }
      }
    }
  }

  /** In every session, segment k's request came after segment k-1 was committed (its record is in the context). */
  private void assertOrderPerSession() {
    Map<String, Integer> lastSeen = new HashMap<>();
    for (String prompt : encoderPrompts) {
      String current = prompt.substring(prompt.indexOf("<CURRENT_TURNS>"));
      Matcher m = TURN.matcher(current);
      assertThat(m.find()).isTrue();
      int k = Integer.parseInt(m.group(1));
      String session = m.group(2);
      int previous = lastSeen.getOrDefault(session, -1);
      assertThat(k).as("session %s: segment %d requested after segment %d", session, k, previous)
          .isBetween(previous, previous + 1);
      String reference = prompt.substring(prompt.indexOf("<REFERENCE_CONTEXT>"), prompt.indexOf("</REFERENCE_CONTEXT>"));
      if (k > 0) {
        assertThat(reference).as("context of segment %d of %s", k, session).contains("Fact " + (k - 1) + " of " + session + ".");
      }
      assertThat(reference).doesNotContain("Fact " + k + " of " + session + ".");
      lastSeen.put(session, k);
    }
  }
}
