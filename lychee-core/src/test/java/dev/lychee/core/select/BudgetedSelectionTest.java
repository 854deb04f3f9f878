package dev.lychee.core.select;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lychee.api.Candidate;
import dev.lychee.api.CandidateKind;
import dev.lychee.api.Evidence;
import dev.lychee.api.MemoryType;
import dev.lychee.api.Provenance;
import dev.lychee.api.Question;
import dev.lychee.api.QuestionType;
import dev.lychee.api.RecallPlan;
import dev.lychee.api.RecallRoute;
import dev.lychee.api.TokenUsage;
import dev.lychee.api.TurnRef;
import dev.lychee.api.spi.RecallContext;
import dev.lychee.core.answer.EvidenceTokens;
import dev.lychee.core.llm.O200kTokenCounter;
import dev.lychee.core.strategy.Strategies;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** Selection under a token budget (issue 20.1): never over the budget as the answer prompt counts it. */
class BudgetedSelectionTest {
  private static final EvidenceTokens TOKENS = new EvidenceTokens(new O200kTokenCounter());
  private static final String[] WORDS = ("Dana painted a sunrise over the lake and Omar ran the city marathon in June "
      + "while Nadia joined a choir rehearsal meeting downtown and adopted two cats named Felix and Bailey "
      + "after her trip to Sweden last summer with her grandmother").split(" ");

  private final MmrSelector selector = new MmrSelector(MmrConfig.defaults(), Strategies.defaults());

  private static RecallContext ctx(String question, int k, int budget) {
    Question q = new Question("ns", question, k, null).withTokenBudget(budget);
    return new RecallContext(q, RecallPlan.singleRoute(question), k, List.of());
  }

  private static String sentence(Random rnd, int words) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < words; i++) {
      sb.append(i == 0 ? "" : " ").append(WORDS[rnd.nextInt(WORDS.length)]);
    }
    return sb.append('.').toString();
  }

  /** A best-first pool of raw turns, records and windows of very different sizes. */
  private static List<Candidate> randomPool(Random rnd, int n) {
    List<Candidate> pool = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      String session = "s" + rnd.nextInt(6);
      int index = rnd.nextInt(200);
      double score = rnd.nextDouble();
      LocalDateTime said = LocalDateTime.of(2023, 1 + rnd.nextInt(12), 1 + rnd.nextInt(28), 10, 0);
      switch (rnd.nextInt(3)) {
        case 0 -> pool.add(new Candidate(TurnRef.of(session, index).id(), CandidateKind.RAW_TURN, "ns",
            "Dana: " + sentence(rnd, 3 + rnd.nextInt(120)), session, List.of(TurnRef.of(session, index)), said,
            null, null, null, List.of(), List.of(), score, score, Provenance.of("raw_turn", "q", null, "r1")));
        case 1 -> pool.add(new Candidate("rec-" + i, CandidateKind.RECORD, "ns", sentence(rnd, 4 + rnd.nextInt(30)),
            session, List.of(TurnRef.of(session, index)), said, null, MemoryType.EVENT, null, List.of("Dana"),
            List.of(), score, score, Provenance.of("record_vector", "q", null, "r1")));
        default -> pool.add(window(session, index, 2 + rnd.nextInt(6), rnd, score, said));
      }
    }
    pool.sort(Comparator.comparingDouble(Candidate::score).reversed());
    return pool;
  }

  private static Candidate window(String session, int lo, int lines, Random rnd, double score, LocalDateTime said) {
    List<TurnRef> turns = new ArrayList<>();
    List<String> text = new ArrayList<>();
    for (int i = 0; i < lines; i++) {
      turns.add(TurnRef.of(session, lo + i));
      text.add((i % 2 == 0 ? "Dana: " : "Omar: ") + sentence(rnd, 5 + rnd.nextInt(60)));
    }
    return new Candidate("source_window:" + session + ":" + lo + "-" + (lo + lines - 1), CandidateKind.WINDOW, "ns",
        String.join("\n", text), session, turns, said, null, null, null, List.of(), List.of(), score, score,
        Provenance.of("source_window", "q", null, "r1"));
  }

  @Test
  void theSerialisedEvidenceNeverExceedsTheBudgetOverManyPoolsAndBudgets() {
    Random rnd = new Random(20_1);
    int checked = 0;
    for (int round = 0; round < 60; round++) {
      List<Candidate> pool = randomPool(rnd, 5 + rnd.nextInt(70));
      int budget = Question.MIN_TOKEN_BUDGET + rnd.nextInt(rnd.nextBoolean() ? 300 : 3000);
      int k = 1 + rnd.nextInt(40);
      List<Evidence> out = selector.select(pool, ctx("When did Omar run the marathon?", k, budget));
      assertThat(TOKENS.count(out)).as("round %d, budget %d", round, budget).isLessThanOrEqualTo(budget);
      assertThat(out).hasSizeLessThanOrEqualTo(k);
      assertThat(out).extracting(Evidence::rank)
          .containsExactly(IntStream.rangeClosed(1, out.size()).boxed().toArray(Integer[]::new));
      assertThat(out).extracting(e -> e.candidate().id()).doesNotHaveDuplicates();
      checked++;
    }
    assertThat(checked).isEqualTo(60);
  }

  @Test
  void aBudgetIsFilledWhenThePoolAllowsIt() {
    Random rnd = new Random(7);
    List<Candidate> pool = randomPool(rnd, 80);
    List<Evidence> out = selector.select(pool, ctx("When did Omar run the marathon?", 60, 1000));
    // nothing left in the pool would still fit: the leftover is smaller than the smallest unpicked item
    Set<String> picked = new HashSet<>();
    out.forEach(e -> picked.add(e.candidate().id()));
    int left = 1000 - TOKENS.count(out);
    int smallestLeft = pool.stream().filter(c -> !picked.contains(c.id()) && c.kind() != CandidateKind.WINDOW)
        .mapToInt(c -> TOKENS.item(c, out.size() + 1)).min().orElse(Integer.MAX_VALUE);
    assertThat(left).isLessThan(smallestLeft + 3);
    assertThat(TOKENS.count(out)).isGreaterThan(900);
  }

  @Test
  void doublingTheBudgetNeverRecallsLessOverManyPools() {
    Random rnd = new Random(42);
    for (int round = 0; round < 25; round++) {
      List<Candidate> pool = randomPool(rnd, 20 + rnd.nextInt(60));
      // gold: the turns the best-scored quarter of the pool cites
      Set<TurnRef> gold = new HashSet<>();
      pool.subList(0, pool.size() / 4).forEach(c -> gold.addAll(c.turns()));
      double previous = -1;
      Set<String> previousIds = Set.of();
      for (int budget = 250; budget <= 4000; budget *= 2) {
        List<Evidence> out = selector.select(pool, ctx("When did Omar run the marathon?", 80, budget));
        Set<TurnRef> covered = new HashSet<>();
        out.forEach(e -> covered.addAll(e.turns()));
        double recall = (double) gold.stream().filter(covered::contains).count() / gold.size();
        assertThat(recall).as("round %d, budget %d", round, budget).isGreaterThanOrEqualTo(previous);
        Set<String> ids = new HashSet<>();
        out.forEach(e -> ids.add(e.candidate().id()));
        // every whole item of the smaller budget is still there (a cut window may have grown back)
        previousIds.stream().filter(id -> !id.startsWith("source_window:"))
            .forEach(id -> assertThat(ids).contains(id));
        previous = recall;
        previousIds = ids;
      }
    }
  }

  @Test
  void aWindowThatDoesNotFitIsCutAroundItsQueryBearingLine() {
    Candidate w = new Candidate("source_window:s1:10-14", CandidateKind.WINDOW, "ns", String.join("\n",
        "Dana: We spent the whole weekend cleaning the garage and sorting old boxes of letters and photos.",
        "Omar: That sounds exhausting, did you find anything worth keeping from your grandparents?",
        "Dana: Yes, and I finally ran the city marathon last Sunday, it took me four hours and ten minutes.",
        "Omar: Congratulations, that is a huge achievement after all the months of training you put in.",
        "Dana: Thanks, next I want to learn to sail on the lake with my cousin during the summer holidays."),
        "s1", List.of(TurnRef.of("s1", 10), TurnRef.of("s1", 11), TurnRef.of("s1", 12), TurnRef.of("s1", 13),
            TurnRef.of("s1", 14)), LocalDateTime.of(2023, 6, 20, 9, 0), null, null, null, List.of(), List.of(),
        .9, .9, Provenance.of("source_window", "q", null, "r1"));
    int whole = TOKENS.count(List.of(new Evidence(1, .9, w)));
    int budget = whole / 2;
    List<Evidence> out = selector.select(List.of(w), ctx("When did Dana run the city marathon?", 5, budget));
    assertThat(out).hasSize(1);
    Candidate cut = out.get(0).candidate();
    assertThat(TOKENS.count(out)).isLessThanOrEqualTo(budget);
    assertThat(cut.text()).contains("ran the city marathon").doesNotContain("cleaning the garage");
    assertThat(cut.turns()).contains(TurnRef.of("s1", 12)).hasSizeLessThan(5);
    assertThat(cut.text().split("\n")).hasSize(cut.turns().size());
    assertThat(cut.id()).isEqualTo("source_window:s1:" + cut.turns().get(0).index() + "-"
        + cut.turns().get(cut.turns().size() - 1).index());
  }

  @Test
  void withoutABudgetSelectionIsUnchanged() {
    Random rnd = new Random(3);
    List<Candidate> pool = randomPool(rnd, 40);
    RecallContext plain = new RecallContext(new Question("ns", "q", 10, null), RecallPlan.singleRoute("q"), 10,
        List.of());
    assertThat(selector.select(pool, plain)).hasSize(10);
  }

  @Test
  void theBudgetDepthGrowsWithTheBudgetBetweenKAndTheCap() {
    BudgetConfig c = BudgetConfig.builder().tokensPerItem(50).maxDepth(40).build();
    Question q = new Question("ns", "q", 10, null);
    assertThat(c.depth(q)).isEqualTo(10);
    assertThat(c.depth(q.withTokenBudget(100))).isEqualTo(10);
    assertThat(c.depth(q.withTokenBudget(1000))).isEqualTo(20);
    assertThat(c.depth(q.withTokenBudget(100_000))).isEqualTo(40);
    assertThat(c.depth(q.withK(50).withTokenBudget(1000))).isEqualTo(50);
  }

  private static RecallContext ctx(RecallPlan plan, int k, int budget) {
    Question q = new Question("ns", plan.routes().get(0).goal(), k, null).withTokenBudget(budget);
    return new RecallContext(q, plan, k, List.of());
  }

  private static RecallPlan plan(QuestionType type, int routes) {
    List<RecallRoute> r = new ArrayList<>();
    for (int i = 1; i <= routes; i++) {
      r.add(RecallRoute.simple("r" + i, "What did Dana and Omar do in June?"));
    }
    return new RecallPlan(type, "test", r, null, TokenUsage.ZERO);
  }

  private static Set<String> ids(List<Evidence> out, CandidateKind kind) {
    Set<String> ids = new HashSet<>();
    out.stream().filter(e -> e.candidate().kind() == kind).forEach(e -> ids.add(e.candidate().id()));
    return ids;
  }

  @Test
  void aMultiPartPlanFillsTheStagesAboveTheThresholdWithRecordsOnly() {
    Random rnd = new Random(9);
    int singleGrew = 0;
    for (int round = 0; round < 20; round++) {
      List<Candidate> pool = randomPool(rnd, 60);
      for (RecallPlan multi : List.of(plan(QuestionType.AGGREGATE, 1), plan(QuestionType.COMPARISON, 1),
          plan(QuestionType.SINGLE, 2))) {
        List<Evidence> half = selector.select(pool, ctx(multi, 80, 500));
        List<Evidence> whole = selector.select(pool, ctx(multi, 80, 1000));
        // windows and raw turns come from the first 500 tokens only; the rest of the budget is records
        Set<String> first = new HashSet<>(ids(half, CandidateKind.WINDOW));
        first.addAll(ids(half, CandidateKind.RAW_TURN));
        Set<String> later = new HashSet<>(ids(whole, CandidateKind.WINDOW));
        later.addAll(ids(whole, CandidateKind.RAW_TURN));
        assertThat(first).as("round %d, %s", round, multi.type()).containsAll(later);
        assertThat(TOKENS.count(whole)).isLessThanOrEqualTo(1000);
      }
      RecallPlan single = plan(QuestionType.SINGLE, 1);
      Set<String> before = ids(selector.select(pool, ctx(single, 80, 500)), CandidateKind.RAW_TURN);
      if (!before.containsAll(ids(selector.select(pool, ctx(single, 80, 1000)), CandidateKind.RAW_TURN))) {
        singleGrew++;
      }
    }
    // the pools do offer raw turns beyond 500 tokens: a single-part plan takes them
    assertThat(singleGrew).isGreaterThan(0);
  }

  @Test
  void aMultiPartPlanIsSelectedAsAnyOtherUpToTheThresholdOrWithTheRuleOff() {
    Random rnd = new Random(11);
    // both multi-part rules off in turn: the records-only stages here, the cost exponent (its own test) always;
    // the single-fact hedge (its own test) off, so that the single plan is selected without a cost exponent too
    MmrSelector even = new MmrSelector(MmrConfig.defaults(), BudgetConfig.builder().multiPartCostExponent(0)
        .hedgeCostExponent(0).build(), Strategies.defaults(), TOKENS);
    MmrSelector off = new MmrSelector(MmrConfig.defaults(), BudgetConfig.builder().multiPartRecordsAbove(0)
        .multiPartCostExponent(0).hedgeCostExponent(0).build(), Strategies.defaults(), TOKENS);
    for (int round = 0; round < 10; round++) {
      List<Candidate> pool = randomPool(rnd, 60);
      RecallPlan aggregate = plan(QuestionType.AGGREGATE, 1);
      RecallPlan single = plan(QuestionType.SINGLE, 1);
      assertThat(ids(even.select(pool, ctx(aggregate, 80, 500)), CandidateKind.WINDOW))
          .isEqualTo(ids(even.select(pool, ctx(single, 80, 500)), CandidateKind.WINDOW));
      assertThat(off.select(pool, ctx(aggregate, 80, 2000))).extracting(e -> e.candidate().id())
          .isEqualTo(off.select(pool, ctx(single, 80, 2000)).stream().map(e -> e.candidate().id()).toList());
    }
  }

  @Test
  void multiPartMeansAnAggregateOrComparisonTypeOrSeveralRoutes() {
    assertThat(plan(QuestionType.AGGREGATE, 1).multiPart()).isTrue();
    assertThat(plan(QuestionType.COMPARISON, 1).multiPart()).isTrue();
    assertThat(plan(QuestionType.SINGLE, 2).multiPart()).isTrue();
    assertThat(plan(QuestionType.SINGLE, 1).multiPart()).isFalse();
    assertThat(plan(QuestionType.TEMPORAL, 1).multiPart()).isFalse();
    assertThat(BudgetConfig.defaults().multiPartRecordsAbove()).isEqualTo(500);
  }

  @Test
  void aMultiPartCostExponentActsOnMultiPartPlansOnly() {
    assertThat(BudgetConfig.defaults().multiPartCostExponent()).isEqualTo(0.05);
    assertThat(BudgetConfig.defaults().costExponent()).isZero();
    BudgetConfig mp = BudgetConfig.builder().multiPartCostExponent(0.5).build();
    assertThat(mp.toBuilder().build().multiPartCostExponent()).isEqualTo(0.5);
    MmrSelector unpriced = new MmrSelector(MmrConfig.defaults(), BudgetConfig.builder().multiPartCostExponent(0).build(),
        Strategies.defaults(), TOKENS);
    MmrSelector priced = new MmrSelector(MmrConfig.defaults(), mp, Strategies.defaults(), TOKENS);
    Random rnd = new Random(13);
    int differs = 0;
    for (int round = 0; round < 10; round++) {
      List<Candidate> pool = randomPool(rnd, 60);
      RecallPlan single = plan(QuestionType.SINGLE, 1);
      RecallPlan aggregate = plan(QuestionType.AGGREGATE, 1);
      // a single-part plan is selected as without the rule
      assertThat(priced.select(pool, ctx(single, 80, 500))).extracting(e -> e.candidate().id())
          .isEqualTo(unpriced.select(pool, ctx(single, 80, 500)).stream().map(e -> e.candidate().id()).toList());
      List<Evidence> cheap = priced.select(pool, ctx(aggregate, 80, 500));
      assertThat(TOKENS.count(cheap)).isLessThanOrEqualTo(500);
      if (!cheap.stream().map(e -> e.candidate().id()).toList()
          .equals(unpriced.select(pool, ctx(aggregate, 80, 500)).stream().map(e -> e.candidate().id()).toList())) {
        differs++;
      }
    }
    // gain per token^0.5 prefers small items: a multi-part plan's selection changes
    assertThat(differs).isGreaterThan(0);
  }

  /** A one-line record of {@code session}'s turn {@code index}. */
  private static Candidate record(String id, String session, int index, String text, double score) {
    return new Candidate(id, CandidateKind.RECORD, "ns", text, session, List.of(TurnRef.of(session, index)),
        LocalDateTime.of(2023, 5, 7, 10, 0), null, MemoryType.EVENT, null, List.of(), List.of(), score, score,
        Provenance.of("record_vector", "q", null, "r1"));
  }

  @Test
  void aSingleFactPlanHedgesOnceItsFirstWindowIsIn() {
    Random rnd = new Random(5);
    // the best hit's window, a second window and a record below it,
    // each from its own session
    Candidate first = window("s1", 10, 3, rnd, 0.90, LocalDateTime.of(2023, 5, 7, 10, 0));
    Candidate second = window("s2", 40, 3, rnd, 0.80, LocalDateTime.of(2023, 6, 7, 10, 0));
    Candidate rec = record("rec-1", "s3", 70, "Omar ran the city marathon in June.", 0.70);
    List<Candidate> pool = List.of(first, second, rec);
    // one stage per budget, so that no smaller stage cuts a window first
    BudgetConfig hedged = BudgetConfig.builder().hedgeCostExponent(0.1).nestFloor(0).build();
    MmrSelector on = new MmrSelector(MmrConfig.defaults(), hedged, Strategies.defaults(), TOKENS);
    MmrSelector off = new MmrSelector(MmrConfig.defaults(), hedged.toBuilder().hedgeCostExponent(0).build(),
        Strategies.defaults(), TOKENS);
    RecallPlan single = plan(QuestionType.SINGLE, 1);
    // two items: the hedge keeps the first window and takes the record over the second window
    assertThat(on.select(pool, ctx(single, 2, 2000))).extracting(e -> e.candidate().id())
        .containsExactly(first.id(), rec.id());
    assertThat(off.select(pool, ctx(single, 2, 2000))).extracting(e -> e.candidate().id())
        .containsExactly(first.id(), second.id());
    // the defaults (docs/defaults.md §4.14): the hedge at .03 after the first pick, in every stage, single type
    BudgetConfig d = BudgetConfig.defaults();
    assertThat(d.hedgeCostExponent()).isEqualTo(0.03);
    assertThat(d.hedgeAfter()).isEqualTo(1);
    assertThat(d.hedgeUpTo()).isZero();
    assertThat(d.hedgeEveryType()).isFalse();
    // with hedgeAfter 0 even the first pick is hedged; here the window still leads on value
    MmrSelector fromFirst = new MmrSelector(MmrConfig.defaults(), hedged.toBuilder().hedgeAfter(0).build(),
        Strategies.defaults(), TOKENS);
    assertThat(fromFirst.select(pool, ctx(single, 1, 2000))).extracting(e -> e.candidate().id())
        .containsExactly(first.id());
    // with hedgeAfter 2 the second pick is not hedged yet
    MmrSelector late = new MmrSelector(MmrConfig.defaults(), hedged.toBuilder().hedgeAfter(2).build(),
        Strategies.defaults(), TOKENS);
    assertThat(late.select(pool, ctx(single, 2, 2000))).extracting(e -> e.candidate().id())
        .containsExactly(first.id(), second.id());
    // other types are selected as without the hedge unless every type is asked for
    RecallPlan temporal = plan(QuestionType.TEMPORAL, 1);
    assertThat(on.select(pool, ctx(temporal, 2, 2000))).extracting(e -> e.candidate().id())
        .containsExactly(first.id(), second.id());
    MmrSelector every = new MmrSelector(MmrConfig.defaults(), hedged.toBuilder().hedgeEveryType(true).build(),
        Strategies.defaults(), TOKENS);
    assertThat(every.select(pool, ctx(temporal, 2, 2000))).extracting(e -> e.candidate().id())
        .containsExactly(first.id(), rec.id());
    // a stage above hedgeUpTo is selected as without the hedge (one stage each here)
    MmrSelector small = new MmrSelector(MmrConfig.defaults(), hedged.toBuilder().hedgeUpTo(500).build(),
        Strategies.defaults(), TOKENS);
    assertThat(small.select(pool, ctx(single, 2, 2000))).extracting(e -> e.candidate().id())
        .containsExactly(first.id(), second.id());
    assertThat(small.select(pool, ctx(single, 2, 500))).extracting(e -> e.candidate().id())
        .containsExactly(first.id(), rec.id());
  }
}
