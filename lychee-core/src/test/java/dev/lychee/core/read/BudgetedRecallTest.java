package dev.lychee.core.read;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.inject.AbstractModule;
import com.google.inject.Guice;
import com.google.inject.Module;
import com.google.inject.util.Modules;
import dev.lychee.api.ChatRequest;
import dev.lychee.api.ChatResult;
import dev.lychee.api.MemoryType;
import dev.lychee.api.Question;
import dev.lychee.api.Recall;
import dev.lychee.api.TokenUsage;
import dev.lychee.api.TurnRef;
import dev.lychee.api.spi.ChatModel;
import dev.lychee.api.spi.Embedder;
import dev.lychee.api.spi.QueryPlanner;
import dev.lychee.api.spi.RecordStore;
import dev.lychee.api.spi.Selector;
import dev.lychee.api.spi.VectorIndex;
import dev.lychee.core.answer.EvidenceTokens;
import dev.lychee.core.answer.LlmAnswerGenerator;
import dev.lychee.core.llm.O200kTokenCounter;
import dev.lychee.core.plan.RuleBasedPlanner;
import dev.lychee.core.select.TopKSelector;
import dev.lychee.core.testing.MemoryFixture;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Recall with a token budget through the whole pipeline (issue 20.1). */
class BudgetedRecallTest {
  private static final EvidenceTokens TOKENS = new EvidenceTokens(new O200kTokenCounter());
  private static final int[] BUDGETS = {32, 40, 64, 100, 150, 250, 333, 500, 777, 1000, 1500, 2000};

  private final MemoryFixture f = new MemoryFixture();
  /** Question -> the turns that answer it. */
  private final Map<String, Set<TurnRef>> gold = new java.util.LinkedHashMap<>();

  @BeforeEach
  void memory() {
    String[] topics = {"pottery class at the community centre", "marathon training in the park",
        "new puppy named Biscuit", "job interview at the bakery", "trip to Sweden with grandmother",
        "sailing lessons on the lake"};
    for (int s = 0; s < 6; s++) {
      List<String> lines = new ArrayList<>();
      for (int i = 0; i < 12; i++) {
        String who = i % 2 == 0 ? "Dana" : "Omar";
        lines.add(who + ": " + (i == 3 ? "The big news is my " + topics[s] + ", which started last week and I "
            + "have been thinking about it every single day since, honestly, more than I expected to."
            : i == 4 ? "That is wonderful, tell me more about the " + topics[s] + "!"
            : "We talked about the weather and dinner plans for a while, number " + s + "-" + i + "."));
      }
      f.session("s" + s, LocalDate.of(2023, 1 + s, 10), lines.toArray(String[]::new));
      f.record("s" + s, 3, MemoryType.EVENT, "Dana started a " + topics[s] + ".", List.of("Dana"),
          LocalDate.of(2023, 1 + s, 3));
      gold.put("What did Dana say about the " + topics[s] + "?", Set.of(TurnRef.of("s" + s, 3), TurnRef.of("s" + s, 4)));
    }
    gold.put("What hobbies and plans does Dana have this year?", Set.of(TurnRef.of("s0", 3), TurnRef.of("s1", 3),
        TurnRef.of("s5", 3)));
  }

  private RecallPipeline pipeline(Module... overrides) {
    Module base = Modules.combine(new RetrievalModule(), new AbstractModule() {
      @Override
      protected void configure() {
        bind(RecordStore.class).toInstance(f.store);
        bind(VectorIndex.class).toInstance(f.vectors);
        bind(Embedder.class).toInstance(f.embedder);
        bind(QueryPlanner.class).to(RuleBasedPlanner.class);
      }
    });
    return Guice.createInjector(Modules.override(base).with(overrides)).getInstance(RecallPipeline.class);
  }

  private static Question q(String text, int budget) {
    return new Question(MemoryFixture.NS, text, 5, null).withTokenBudget(budget);
  }

  private static double recall(Recall r, Set<TurnRef> gold) {
    Set<TurnRef> covered = new HashSet<>();
    r.evidence().forEach(e -> covered.addAll(e.turns()));
    return (double) gold.stream().filter(covered::contains).count() / gold.size();
  }

  @Test
  void noQuestionAndNoBudgetGetsMoreTokensThanItsBudget() {
    RecallPipeline mmr = pipeline();
    RecallPipeline topK = pipeline(new AbstractModule() {
      @Override
      protected void configure() {
        bind(Selector.class).to(TopKSelector.class); // a selector that knows no budget: the pipeline cuts
      }
    });
    int checked = 0;
    for (String question : gold.keySet()) {
      for (int b : BUDGETS) {
        for (RecallPipeline p : List.of(mmr, topK)) {
          Recall r = p.recall(q(question, b));
          assertThat(TOKENS.count(r.evidence())).as("%s @ %d", question, b).isLessThanOrEqualTo(b);
          checked++;
        }
      }
    }
    assertThat(checked).isEqualTo(gold.size() * BUDGETS.length * 2);
  }

  @Test
  void aDoubledBudgetNeverRecallsLessOnTheFixture() {
    RecallPipeline p = pipeline();
    double sumSmall = 0;
    double sumLarge = 0;
    for (Map.Entry<String, Set<TurnRef>> e : gold.entrySet()) {
      double previous = -1;
      // doubling chains: the evidence for B holds the evidence for B/2 (docs/defaults.md §4.14)
      for (int start : new int[] {300, 250}) {
        previous = -1;
        for (int b = start; b <= 2400; b *= 2) {
          double r = recall(p.recall(q(e.getKey(), b)), e.getValue());
          assertThat(r).as("%s @ %d", e.getKey(), b).isGreaterThanOrEqualTo(previous);
          previous = r;
        }
      }
      sumSmall += recall(p.recall(q(e.getKey(), 100)), e.getValue());
      sumLarge += previous;
    }
    assertThat(sumLarge).isGreaterThan(sumSmall);
    assertThat(sumLarge / gold.size()).isGreaterThan(0.8);
  }

  @Test
  void theAnswerPromptShowsExactlyTheBudgetedEvidence() {
    AtomicReference<String> user = new AtomicReference<>();
    ChatModel chat = new ChatModel() {
      @Override
      public ChatResult chat(ChatRequest request) {
        user.set(request.messages().get(request.messages().size() - 1).content());
        return new ChatResult("a pottery class", TokenUsage.ZERO, "m");
      }

      @Override
      public String modelId() {
        return "m";
      }
    };
    Question question = q("What did Dana say about the pottery class at the community centre?", 300);
    Recall r = pipeline().recall(question);
    new LlmAnswerGenerator(chat, new O200kTokenCounter()).answer(question, r.plan(), r.evidence());
    String shown = TOKENS.serialise(r.evidence());
    assertThat(user.get()).startsWith(shown);
    assertThat(new O200kTokenCounter().count(shown)).isLessThanOrEqualTo(300);
  }
}
