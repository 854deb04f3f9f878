package dev.lychee.core.rerank;

import dev.lychee.api.Candidate;
import dev.lychee.api.DateRange;
import dev.lychee.api.Question;
import dev.lychee.api.QuestionType;
import dev.lychee.api.RecallPlan;
import dev.lychee.api.RecallRoute;
import dev.lychee.api.TokenUsage;
import dev.lychee.api.spi.RecallContext;
import dev.lychee.core.testing.Cands;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import static org.assertj.core.api.Assertions.assertThat;

class FeatureRerankerTest {
  private static RecallContext ctx(String q, DateRange filter) {
    RecallRoute r = new RecallRoute("r1", q, List.of(q), List.of(), filter);
    RecallPlan plan = new RecallPlan(QuestionType.SINGLE, "", List.of(r), filter, TokenUsage.ZERO);
    return new RecallContext(new Question("ns", q, 5, null), plan, 5, List.of());
  }

  /** Counts the features it is shown; wants them or not as told. */
  private static final class FeatureCount implements dev.lychee.api.spi.RecallObserver {
    private final boolean wants;
    int shown;

    FeatureCount(boolean wants) {
      this.wants = wants;
    }

    @Override
    public void features(Candidate candidate, Map<String, Double> features, double score) {
      shown++;
    }

    @Override
    public boolean wantsFeatures() {
      return wants;
    }
  }

  @Test
  void featuresAreBuiltOnlyForAnObserverThatWantsThemAndTheRankingIsTheSame() {
    // round twenty-three: a timing observer (eval speed --stages) no longer pays a map per candidate
    List<Candidate> in = List.of(Cands.turn("s1", 1, "Omar: I like jazz concerts a lot", .62),
        Cands.turn("s1", 2, "Dana: my violin lessons start on Monday", .58));
    String q = "When do Dana's violin lessons start?";
    RecallContext plain = ctx(q, null);
    FeatureReranker rr = new FeatureReranker(RerankWeights.defaults());
    List<Candidate> expected = rr.rerank(in, plain);
    for (boolean wants : new boolean[] {true, false}) {
      FeatureCount seen = new FeatureCount(wants);
      RecallContext watched = new RecallContext(plain.question(), plain.plan(), plain.k(), plain.routeQueries(), seen);
      assertThat(rr.rerank(in, watched)).isEqualTo(expected);
      assertThat(seen.shown).isEqualTo(wants ? in.size() : 0);
    }
    assertThat(dev.lychee.api.spi.RecallObserver.NONE.wantsFeatures()).isFalse();
  }

  @Test
  void lexicalAndSpeakerEvidenceLiftsTheRightItem() {
    Candidate off = Cands.turn("s1", 1, "Omar: I like jazz concerts a lot", .62);
    Candidate on = Cands.turn("s1", 2, "Dana: my violin lessons start on Monday", .60);
    List<Candidate> out = new FeatureReranker(RerankWeights.defaults())
        .rerank(List.of(off, on), ctx("When do Dana's violin lessons start?", null));
    assertThat(out).extracting(Candidate::id).containsExactly(on.id(), off.id());
    assertThat(out).allMatch(c -> c.score() >= 0 && c.score() <= 1);
  }

  @Test
  void temporalMatchCounts() {
    // both mentioned on 2023-05-08 (Cands default); a filter on that day favours neither, one on
    // another day leaves the order to the other features
    Candidate a = Cands.turn("s1", 1, "Dana went hiking", .50);
    Candidate b = Cands.turn("s1", 2, "Dana went hiking", .50);
    FeatureReranker rr = new FeatureReranker(RerankWeights.defaults());
    double on = rr.rerank(List.of(a), ctx("hiking", DateRange.day(LocalDate.of(2023, 5, 8)))).get(0).score();
    double off = rr.rerank(List.of(b), ctx("hiking", DateRange.day(LocalDate.of(2022, 1, 1)))).get(0).score();
    assertThat(on).isGreaterThan(off);
  }

  @Test
  void aRareQueryTermOutweighsOneThatEveryCandidateShares() {
    // "garden" is in every candidate, "tomatoes" in one: matching the rare term must count more
    java.util.Set<String> query = new java.util.LinkedHashSet<>(List.of("garden", "tomato"));
    dev.lychee.core.text.TermFinder finder = dev.lychee.core.text.TermFinder.of(query, java.util.Set.of());
    List<dev.lychee.core.text.TermFinder.Found> pool = java.util.stream.Stream.of(
        "garden tomato", "garden fence", "garden shed", "garden bench").map(finder::find).toList();
    double[] w = FeatureReranker.poolIdf(finder.terms(), pool);
    assertThat(w[1]).as("tomato").isGreaterThan(w[0]);
    assertThat(FeatureReranker.overlap(w, pool.get(0).terms())).isEqualTo(1.0);
    assertThat(FeatureReranker.overlap(w, pool.get(1).terms())).isLessThan(0.5).isGreaterThan(0);
    assertThat(FeatureReranker.overlap(w, finder.find("kitchen").terms())).isZero();
    assertThat(FeatureReranker.overlap(new double[0], pool.get(0).terms())).isZero();
  }

  @Test
  void keepsEveryCandidate() {
    List<Candidate> in = List.of(Cands.turn("s", 1, "a", .1), Cands.turn("s", 2, "b", .9), Cands.turn("s", 3, "c", .5));
    assertThat(new FeatureReranker(RerankWeights.defaults()).rerank(in, ctx("x", null))).hasSize(3);
  }

  @Test
  void speakerIsOneForTheNamedSpeakerHalfForAMentionAndZeroOtherwise() {
    java.util.Set<String> dana = java.util.Set.of("dana");
    assertThat(FeatureReranker.speaker(dana, Cands.turn("s", 1, "Omar: hi\nDana: my violin", .5))).isEqualTo(1.0);
    assertThat(FeatureReranker.speaker(dana, Cands.turn("s", 2, "Omar: I met Dana today", .5))).isEqualTo(0.5);
    assertThat(FeatureReranker.speaker(dana, Cands.turn("s", 3, "Omar: I met Danny today", .5))).isZero();
    assertThat(FeatureReranker.speaker(java.util.Set.of(), Cands.turn("s", 4, "Dana: hi", .5))).isZero();
    // a name that is not one token (hyphen, apostrophe) is still found at the start of a line
    assertThat(FeatureReranker.speaker(java.util.Set.of("mary-ann"), Cands.turn("s", 5, "Mary-Ann: hello", .5)))
        .isEqualTo(1.0);
    assertThat(FeatureReranker.speaker(java.util.Set.of("o'neil"), Cands.turn("s", 6, "O'Neil: hello", .5)))
        .isEqualTo(1.0);
  }

  @Test
  void theScannedTextHoldsTheQueryTermsAmongItsContentTermsAndWhetherANameIsAToken() {
    String text = "Dana: The Libraries had books, and a garden-shed";
    java.util.List<String> query = java.util.List.of("library", "book", "shed", "the", "violin");
    dev.lychee.core.text.TermFinder.Found m =
        dev.lychee.core.text.TermFinder.of(query, java.util.Set.of("dana")).find(text);
    assertThat(m.terms().stream().mapToObj(query::get)).containsExactlyInAnyOrder("library", "book", "shed");
    assertThat(m.word()).isTrue();
    assertThat(dev.lychee.core.text.TermFinder.of(query, java.util.Set.of("omar")).find(text).word()).isFalse();
  }

  @Test
  void aSpeakerLineIsFoundAtTheStartOfAnyLineAsSplittingTheTextIntoLinesFindsIt() {
    java.util.Random random = new java.util.Random(2);
    String[] parts = {"Dana:", "dana: ", "Omar:", "O'Neil:", "Mary-Ann:", "Dana", " met Dana", ":", "\n", "\n\n", "x ", "İ"};
    java.util.List<java.util.Set<String>> nameSets = List.of(java.util.Set.of("dana"), java.util.Set.of("o'neil", "omar"),
        java.util.Set.of("mary-ann"), java.util.Set.of("dana", "mary-ann"));
    for (int round = 0; round < 3000; round++) {
      StringBuilder text = new StringBuilder();
      for (int i = 0; i < random.nextInt(8); i++) {
        text.append(parts[random.nextInt(parts.length)]);
      }
      java.util.Set<String> names = nameSets.get(random.nextInt(nameSets.size()));
      Candidate c = Cands.turn("s", round, text.toString(), .5);
      double expected = 0;
      boolean holds = dev.lychee.core.text.TermFinder.of(java.util.Set.of(), names).find(text.toString()).word();
      for (String line : text.toString().toLowerCase(java.util.Locale.ROOT).split("\n")) {
        for (String n : names) {
          if (line.startsWith(n + ":")) {
            expected = 1;
          }
        }
      }
      if (expected == 0) {
        expected = holds ? 0.5 : 0;
      }
      assertThat(FeatureReranker.speaker(names, c)).as(text.toString()).isEqualTo(expected);
    }
  }

  @Test
  void weightsByNumberGiveBitForBitTheWeightsAndOverlapOfTheSetForm() {
    java.util.Random random = new java.util.Random(11);
    String[] vocabulary = {"hike", "hikes", "river", "rivers", "beagle", "library", "libraries", "the", "Dana", "x",
        "7", "garden", "shed", "berries", "berry", "glass", "class"};
    for (int round = 0; round < 200; round++) {
      java.util.Set<String> query = new java.util.LinkedHashSet<>();
      for (int i = 0; i < 1 + random.nextInt(6); i++) {
        query.addAll(dev.lychee.core.text.Terms.content(vocabulary[random.nextInt(vocabulary.length)]));
      }
      dev.lychee.core.text.TermFinder finder = dev.lychee.core.text.TermFinder.of(query, java.util.Set.of());
      java.util.List<java.util.Set<String>> sets = new java.util.ArrayList<>();
      java.util.List<dev.lychee.core.text.TermFinder.Found> found = new java.util.ArrayList<>();
      for (int t = 0; t < 1 + random.nextInt(30); t++) {
        StringBuilder text = new StringBuilder();
        for (int w = 0; w < random.nextInt(12); w++) {
          text.append(vocabulary[random.nextInt(vocabulary.length)]).append(random.nextBoolean() ? " " : ", ");
        }
        java.util.Set<String> content = new java.util.HashSet<>(dev.lychee.core.text.Terms.content(text.toString()));
        content.retainAll(query);
        sets.add(content);
        found.add(finder.find(text.toString()));
      }
      Map<String, Double> bySet = referenceIdf(query, sets);
      double[] byNumber = FeatureReranker.poolIdf(finder.terms(), found);
      assertThat(byNumber).containsExactly(bySet.values().stream().mapToDouble(Double::doubleValue).toArray());
      for (int t = 0; t < sets.size(); t++) {
        assertThat(FeatureReranker.overlap(byNumber, found.get(t).terms()))
            .isEqualTo(referenceOverlap(bySet, sets.get(t)));
      }
    }
  }

  @Test
  void namedPeopleSkipSentenceWords() {
    assertThat(FeatureReranker.namedPeople("What did Dana's brother tell Omar?")).containsExactly("dana", "omar");
  }

  /** The pool weights computed over term strings, the form the reranker had before it scanned by number. */
  private static Map<String, Double> referenceIdf(java.util.Set<String> queryTerms, List<java.util.Set<String>> texts) {
    Map<String, Double> out = new java.util.LinkedHashMap<>();
    for (String q : queryTerms) {
      long df = texts.stream().filter(t -> t.contains(q)).count();
      out.put(q, Math.log(1 + (double) texts.size() / (1 + df)));
    }
    return out;
  }

  /** The weighted overlap over term strings, summed in query-term order as the reranker sums. */
  private static double referenceOverlap(Map<String, Double> weights, java.util.Set<String> text) {
    double all = 0;
    double hit = 0;
    for (Map.Entry<String, Double> e : weights.entrySet()) {
      all += e.getValue();
      if (text.contains(e.getKey())) {
        hit += e.getValue();
      }
    }
    return all > 0 ? hit / all : 0;
  }
}
