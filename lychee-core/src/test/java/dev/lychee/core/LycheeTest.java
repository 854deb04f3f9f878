package dev.lychee.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lychee.api.Answer;
import dev.lychee.api.CandidateKind;
import dev.lychee.api.Evidence;
import dev.lychee.api.LycheeException;
import dev.lychee.api.Question;
import dev.lychee.api.Recall;
import dev.lychee.api.SegmentState;
import dev.lychee.api.Turn;
import dev.lychee.api.TurnRef;
import dev.lychee.api.spi.VectorIndex;
import dev.lychee.core.ingest.IngestResult;
import dev.lychee.core.testing.HashingEmbedder;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The facade end to end on the in-memory store with the offline components. */
class LycheeTest {
  private static final LocalDateTime DAY1 = LocalDateTime.of(2023, 5, 8, 13, 56);
  private static final LocalDateTime DAY2 = LocalDateTime.of(2023, 5, 25, 9, 10);

  private Lychee lychee;

  @BeforeEach
  void open() {
    lychee = Lychee.builder().embedder(new HashingEmbedder()).build();
  }

  @AfterEach
  void close() {
    lychee.close();
  }

  private static List<Turn> session1() {
    return List.of(
        Turn.user("Nadia", "Hi Rafael! Yesterday I went to a community choir rehearsal and it was so powerful."),
        Turn.user("Rafael", "That's great, Nadia. I carved a wooden fox last week."),
        Turn.user("Nadia", "I love that. I am planning to study landscape architecture."),
        Turn.user("Rafael", "You would be great at it. My nephews love the zoo, we go every spring."));
  }

  private static List<Turn> session2() {
    return List.of(
        Turn.user("Rafael", "Guess what, I ran a relay race for the local hospice last Saturday."),
        Turn.user("Nadia", "Amazing! I adopted a dog named Oscar two days ago."));
  }

  @Test
  void appendStoresEveryTurnAtOnceAndRecallFindsIt() {
    IngestResult r = lychee.append("alice", "s1", DAY1, session1());
    assertThat(r.turnsStored()).isEqualTo(4);
    assertThat(lychee.store().countTurns("alice")).isEqualTo(4);
    assertThat(lychee.vectors().size("alice", VectorIndex.TURNS)).isEqualTo(4);

    Recall recall = lychee.recall("alice", "What did Rafael carve?");
    assertThat(recall.evidence()).isNotEmpty();
    assertThat(recall.coveredTurns(5)).contains(TurnRef.of("s1", 1));
    Evidence first = recall.evidence().get(0);
    assertThat(first.candidate().namespace()).isEqualTo("alice");
    assertThat(first.candidate().provenance().channels()).isNotEmpty();
  }

  @Test
  void flushEncodesEverySegmentIntoRecordsAndNodes() {
    lychee.append("alice", "s1", DAY1, session1());
    IngestResult f = lychee.flush("alice", "s1");
    assertThat(f.errors()).isEmpty();
    var segments = lychee.store().segments("alice");
    assertThat(segments).isNotEmpty().allMatch(s -> s.state() == SegmentState.ENCODED);
    int covered = segments.stream().mapToInt(s -> s.segment().turns().size()).sum();
    assertThat(covered).as("every turn in exactly one segment").isEqualTo(4);
    assertThat(lychee.store().records("alice")).isNotEmpty();
    assertThat(lychee.vectors().size("alice", VectorIndex.RECORDS)).isEqualTo(lychee.store().records("alice").size());
  }

  @Test
  void reSendingTheSameIndexedTurnsIsIdempotent() {
    List<Turn> indexed = new ArrayList<>();
    for (int i = 0; i < session1().size(); i++) {
      indexed.add(session1().get(i).withIndex(i));
    }
    lychee.append("alice", "s1", DAY1, indexed);
    IngestResult again = lychee.append("alice", "s1", DAY1, indexed);
    assertThat(again.turnsStored()).isZero();
    lychee.flush("alice", "s1");
    assertThat(lychee.store().countTurns("alice")).isEqualTo(4);
    int covered = lychee.store().segments("alice").stream().mapToInt(s -> s.segment().turns().size()).sum();
    assertThat(covered).isEqualTo(4);
  }

  @Test
  void namespacesNeverSeeEachOther() {
    lychee.append("alice", "s1", DAY1, session1());
    lychee.append("bob", "s1", DAY2, session2());
    lychee.flush("alice", "s1");
    lychee.flush("bob", "s1");
    Recall r = lychee.recall(new Question("bob", "What did Rafael paint at the lake?", 20, null));
    assertThat(r.evidence()).allMatch(e -> e.candidate().namespace().equals("bob"));
    assertThat(r.coveredTurns(20)).allMatch(t -> t.index() < 2);
    assertThat(lychee.recall("carol", "anything at all").evidence()).isEmpty();
  }

  @Test
  void forgetRemovesRowsAndVectors() {
    lychee.append("alice", "s1", DAY1, session1());
    lychee.append("alice", "s2", DAY2, session2());
    lychee.flushAll("alice");
    lychee.forget("alice", "s1");
    assertThat(lychee.store().countTurns("alice")).isEqualTo(2);
    assertThat(lychee.vectors().size("alice", VectorIndex.TURNS)).isEqualTo(2);
    assertThat(lychee.recall(new Question("alice", "What did Rafael carve?", 20, null)).coveredTurns(20))
        .allMatch(t -> t.session().equals("s2"));
    lychee.forget("alice");
    assertThat(lychee.store().countTurns("alice")).isZero();
    assertThat(lychee.vectors().size("alice", VectorIndex.TURNS)).isZero();
    assertThat(lychee.store().records("alice")).isEmpty();
  }

  @Test
  void answerReturnsTextWithItsEvidence() {
    lychee.append("alice", "s1", DAY1, session1());
    lychee.flush("alice", "s1");
    Answer a = lychee.answer("alice", "What is Nadia planning to study?");
    assertThat(a.text()).isNotBlank();
    assertThat(a.evidence()).isNotEmpty();
  }

  @Test
  void badInputGetsClearErrors() {
    assertThatThrownBy(() -> lychee.append(" ", "s1", DAY1, session1())).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("namespace");
    assertThatThrownBy(() -> lychee.append("alice", "", DAY1, session1())).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("session");
    assertThatThrownBy(() -> lychee.append("alice", "s1", DAY1, List.of(Turn.user("A", "  "))))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("blank");
    assertThatThrownBy(() -> lychee.recall("alice", "   ")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new Question("alice", "q", 0, null)).isInstanceOf(IllegalArgumentException.class);
    assertThat(lychee.store().countTurns("alice")).as("a rejected append stores nothing").isZero();
  }

  @Test
  void absurdlyLongTurnsAreRejectedAboveTheLimitAndSplitBelowIt() {
    Lychee small = Lychee.builder().embedder(new HashingEmbedder())
        .config(LycheeConfig.builder().maxTurnChars(50_000).build()).build();
    try (small) {
      String huge = "word ".repeat(12_000);
      assertThatThrownBy(() -> small.append("a", "s", DAY1, List.of(Turn.user("A", huge))))
          .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("maxTurnChars");
      String big = "The quick brown fox jumps over the lazy dog near the river bank. ".repeat(600);
      small.append("a", "s", DAY1, List.of(Turn.user("A", big)));
      small.flush("a", "s");
      assertThat(small.store().countTurns("a")).isEqualTo(1);
      assertThat(small.store().segments("a")).isNotEmpty();
    }
  }

  @Test
  void missingEmbedderIsAClearError() {
    assertThatThrownBy(() -> Lychee.create()).isInstanceOf(LycheeException.class).hasMessageContaining("Embedder");
    assertThatThrownBy(() -> Lychee.builder().build()).isInstanceOf(LycheeException.class);
  }

  @Test
  void closedInstanceRefusesWork() {
    lychee.close();
    assertThatThrownBy(() -> lychee.recall("alice", "q")).isInstanceOf(IllegalStateException.class);
  }

  @Test
  void concurrentSessionsAppendAndRecall() throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(6);
    try {
      List<Future<?>> futures = new ArrayList<>();
      for (int t = 0; t < 4; t++) {
        String session = "s" + t;
        futures.add(pool.submit(() -> {
          for (int i = 0; i < 10; i++) {
            lychee.append("alice", session, DAY1, List.of(Turn.user("Nadia", "Message " + i + " about hiking trip " + session)));
          }
          lychee.flush("alice", session);
        }));
      }
      for (int t = 0; t < 2; t++) {
        futures.add(pool.submit(() -> {
          for (int i = 0; i < 10; i++) {
            lychee.recall("alice", "hiking trip");
          }
        }));
      }
      for (Future<?> f : futures) {
        f.get(60, TimeUnit.SECONDS);
      }
    } finally {
      pool.shutdownNow();
    }
    assertThat(lychee.store().countTurns("alice")).isEqualTo(40);
    int covered = lychee.store().segments("alice").stream().mapToInt(s -> s.segment().turns().size()).sum();
    assertThat(covered).isEqualTo(40);
  }

  @Test
  void rawTurnCandidatesCiteThemselves() {
    lychee.append("alice", "s1", DAY1, session1());
    Recall r = lychee.recall("alice", "camping every summer beach kids");
    assertThat(r.evidence()).anySatisfy(e -> {
      assertThat(e.candidate().kind()).isIn(CandidateKind.RAW_TURN, CandidateKind.WINDOW);
      assertThat(e.turns()).contains(TurnRef.of("s1", 3));
    });
  }

  @Test
  void storedNodesKeepTheirFirstVectorUnlessReembeddingIsOn() {
    assertThat(documentsEmbedded(false)).isLessThan(documentsEmbedded(true));
  }

  private static int documentsEmbedded(boolean reembed) {
    java.util.concurrent.atomic.AtomicInteger count = new java.util.concurrent.atomic.AtomicInteger();
    HashingEmbedder base = new HashingEmbedder();
    dev.lychee.api.spi.Embedder counting = new dev.lychee.api.spi.Embedder() {
      @Override
      public List<float[]> embedDocuments(List<String> texts) {
        count.addAndGet(texts.size());
        return base.embedDocuments(texts);
      }

      @Override
      public float[] embedQuery(String query) {
        return base.embedQuery(query);
      }

      @Override
      public int dimension() {
        return base.dimension();
      }

      @Override
      public String modelId() {
        return "counting";
      }
    };
    LycheeConfig config = LycheeConfig.builder().segmenter("turn").reembedNodes(reembed).build();
    try (Lychee l = Lychee.builder().embedder(counting).config(config).build()) {
      l.append("a", "s1", DAY1, session1());
      l.flush("a", "s1");
      assertThat(l.store().nodes("a", dev.lychee.api.NodeKind.ENTITY)).isNotEmpty();
    }
    return count.get();
  }

  @Test
  void forgetClearsTheEncoderReferenceContext() {
    List<String> prompts = new java.util.concurrent.CopyOnWriteArrayList<>();
    dev.lychee.api.spi.ChatModel chat = new dev.lychee.api.spi.ChatModel() {
      @Override
      public dev.lychee.api.ChatResult chat(dev.lychee.api.ChatRequest request) {
        String user = request.messages().get(request.messages().size() - 1).content();
        prompts.add(user);
        return new dev.lychee.api.ChatResult("{\"records\":[{\"memory_type\":\"event\","
            + "\"semantic_text\":\"Secret fact number " + prompts.size() + " about Nadia.\",\"evidence_turns\":[0]}],"
            + "\"disambiguation_context\":\"Nadia is the speaker\"}", new dev.lychee.api.TokenUsage(10, 5), "scripted");
      }

      @Override
      public String modelId() {
        return "scripted";
      }
    };
    LycheeConfig config = LycheeConfig.builder().segmenter("turn").encoder(LycheeConfig.Mode.LLM)
        .planner(LycheeConfig.Mode.OFFLINE).answerer(LycheeConfig.Mode.OFFLINE).build();
    try (Lychee l = Lychee.builder().embedder(new HashingEmbedder()).chatModel(chat).config(config).build()) {
      l.append("a", "s1", DAY1, session1().subList(0, 2));
      l.flush("a", "s1");
      // an LLM encoder encodes in the background by default
      assertThat(l.awaitIdle("a", java.time.Duration.ofSeconds(30))).isTrue();
      assertThat(prompts.get(prompts.size() - 1)).contains("Secret fact number");
      l.forget("a");
      prompts.clear();
      l.append("a", "s1", DAY1, session1().subList(0, 1));
      l.flush("a", "s1");
      assertThat(l.awaitIdle("a", java.time.Duration.ofSeconds(30))).isTrue();
      assertThat(prompts).isNotEmpty().noneMatch(p -> p.contains("Secret fact") || p.contains("Nadia is the speaker"));
    }
  }
}
