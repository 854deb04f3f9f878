package dev.lychee.core.recall;

import dev.lychee.api.Candidate;
import dev.lychee.api.CandidateKind;
import dev.lychee.api.DateRange;
import dev.lychee.api.MemoryRecord;
import dev.lychee.api.MemoryType;
import dev.lychee.api.NodeKind;
import dev.lychee.api.Question;
import dev.lychee.api.QuestionType;
import dev.lychee.api.RecallPlan;
import dev.lychee.api.RecallRoute;
import dev.lychee.api.TokenUsage;
import dev.lychee.api.TurnRef;
import dev.lychee.api.spi.RecallContext;
import dev.lychee.api.spi.TextField;
import dev.lychee.core.read.RetrievalConfig;
import dev.lychee.core.read.RouteQueries;
import dev.lychee.core.read.SourceWindows;
import dev.lychee.core.strategy.StrategyProfile;
import dev.lychee.core.testing.MemoryFixture;
import java.time.LocalDate;
import java.util.EnumSet;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import static org.assertj.core.api.Assertions.assertThat;

class ChannelsTest {
  private static final LocalDate D1 = LocalDate.of(2023, 5, 8);
  private static final LocalDate D2 = LocalDate.of(2023, 6, 20);
  private final RetrievalConfig config = RetrievalConfig.defaults();
  private MemoryFixture f;
  private MemoryRecord pottery;
  private MemoryRecord marathon;

  @BeforeEach
  void setUp() {
    f = new MemoryFixture();
    f.session("s1", D1,
        "Dana: I signed up for a pottery class at the community centre.",
        "Omar: That sounds relaxing. I have been training for the city marathon.",
        "Dana: The instructor uses a Shimpo wheel model XR7.");
    f.session("s2", D2,
        "Omar: I finished the marathon in under four hours!",
        "Dana: Congratulations, that is amazing.");
    pottery = f.record("s1", 0, MemoryType.EVENT, "Dana signed up for a pottery class on 8 May 2023.",
        List.of("Dana"), D1);
    marathon = f.record("s2", 0, MemoryType.EVENT, "Omar finished the city marathon in under four hours.",
        List.of("Omar"), D2);
    f.node(NodeKind.ENTITY, "dana", "Entity: Dana\nRecord: Dana signed up for a pottery class", null, pottery);
    f.node(NodeKind.TEMPORAL, "day:2023-05-08", "Time: 2023-05-08", DateRange.day(D1), pottery);
    f.node(NodeKind.TEMPORAL, "month:2023-06", "Time: 2023-06", DateRange.monthOf(D2), marathon);
  }

  private RecallContext ctx(RecallRoute route, QuestionType type) {
    RecallPlan plan = new RecallPlan(type, "", List.of(route), route.temporalFilter(), TokenUsage.ZERO);
    Question q = new Question(MemoryFixture.NS, route.queries().get(0), 5, null);
    return RouteQueries.context(q, plan, f.embedder, config.maxVariants());
  }

  private static void wellFormed(List<Candidate> out, String channel) {
    assertThat(out).allSatisfy(c -> {
      assertThat(c.namespace()).isEqualTo(MemoryFixture.NS);
      assertThat(c.score()).isBetween(0.0, 1.0);
      assertThat(c.provenance().channels()).contains(channel);
      assertThat(c.provenance().routes()).containsExactly("r1");
    });
    assertThat(out).extracting(Candidate::id).doesNotHaveDuplicates();
    for (int i = 1; i < out.size(); i++) {
      assertThat(out.get(i - 1).score()).isGreaterThanOrEqualTo(out.get(i).score());
    }
  }

  @Test
  void recordVectorFindsTheRecordWithTheReferenceScore() {
    RecallRoute r = RecallRoute.simple("r1", "Omar marathon four hours");
    List<Candidate> out = new RecordVectorChannel(f.store, f.vectors, config.budgets(), config.weights(), config.strategies()).recall(r, ctx(r, QuestionType.SINGLE));
    wellFormed(out, RecordVectorChannel.NAME);
    assertThat(out.get(0).id()).isEqualTo(marathon.id());
    assertThat(out.get(0).kind()).isEqualTo(CandidateKind.RECORD);
    double cos = dot(f.embedder.embedQuery("Omar marathon four hours"),
        f.embedder.embedDocuments(List.of(marathon.normalizedText())).get(0));
    double rScore = Math.max(0, Math.min(1, 2 * cos - 1));
    assertThat(out.get(0).similarity()).isCloseTo(rScore, org.assertj.core.api.Assertions.within(1e-5));
    assertThat(out.get(0).score()).isCloseTo(0.40 + 0.30 * rScore, org.assertj.core.api.Assertions.within(1e-5));
  }

  @Test
  void evidenceNodesExpandToLinkedRecords() {
    RecallRoute r = RecallRoute.simple("r1", "Entity Dana pottery");
    List<Candidate> out = new EvidenceNodeChannel(f.store, f.vectors, config.budgets(), config.weights(), config.strategies()).recall(r, ctx(r, QuestionType.SINGLE));
    wellFormed(out, EvidenceNodeChannel.NAME);
    assertThat(out).extracting(Candidate::id).containsExactly(pottery.id());
    assertThat(out.get(0).provenance().nodes()).hasSize(1);
    assertThat(out.get(0).score()).isLessThanOrEqualTo(0.34); // r·w with w(entity) = .34
    assertThat(out.get(0).similarity()).isZero();
  }

  @Test
  void aRecordReachedThroughSeveralNodesAndVariantsNamesEachOnceInFirstSeenOrder() {
    // round twenty-one keeps a linked record's nodes and queries in plain lists: repeats must still go
    String tag = f.node(NodeKind.TAG, "pottery", "Tag: pottery\nRecord: Dana signed up for a pottery class", null,
        pottery).id();
    String entityTag = f.node(NodeKind.ENTITY_TAG, "dana-pottery", "Entity: Dana\nTag: pottery", null, pottery).id();
    RecallRoute r = new RecallRoute("r1", "Dana pottery", List.of("Dana pottery", "pottery class", "Entity Dana"),
        List.of(), null);
    List<Candidate> out = new EvidenceNodeChannel(f.store, f.vectors, config.budgets(), config.weights(),
        config.strategies()).recall(r, ctx(r, QuestionType.SINGLE));
    Candidate c = out.stream().filter(x -> x.id().equals(pottery.id())).findFirst().orElseThrow();
    assertThat(c.provenance().nodes()).doesNotHaveDuplicates().contains(tag, entityTag);
    assertThat(c.provenance().queries()).doesNotHaveDuplicates().isSubsetOf(r.queries()).isNotEmpty();
  }

  @Test
  void recordsReachedByTheSameVariantShareOneListOfItAndAFurtherVariantOrNodeIsAppendedInOrder() {
    // round twenty-three: no list per node or linked record; Provenance keeps the shared immutable one
    MemoryRecord wheel = f.record("s1", 2, MemoryType.FACT, "Dana's pottery instructor uses a Shimpo wheel.",
        List.of("Dana"), D1);
    String dana = f.node(NodeKind.ENTITY, "dana-all", "Entity: Dana\nRecord: Dana pottery", null, pottery, wheel).id();
    String tag = f.node(NodeKind.TAG, "pottery", "Tag: pottery\nRecord: Dana signed up for a pottery class", null,
        pottery).id();
    RecallRoute one = RecallRoute.simple("r1", "Entity Dana pottery");
    List<Candidate> out = new EvidenceNodeChannel(f.store, f.vectors, config.budgets(), config.weights(),
        config.strategies()).recall(one, ctx(one, QuestionType.SINGLE));
    Candidate p = out.stream().filter(x -> x.id().equals(pottery.id())).findFirst().orElseThrow();
    Candidate w = out.stream().filter(x -> x.id().equals(wheel.id())).findFirst().orElseThrow();
    assertThat(p.provenance().queries()).containsExactly("Entity Dana pottery").isSameAs(w.provenance().queries());
    assertThat(p.provenance().channels()).isSameAs(w.provenance().channels());
    assertThat(p.provenance().nodes()).contains(dana, tag).doesNotHaveDuplicates();

    // three variants, each embedded: the record's queries are its first node's, then what later nodes add, once each
    RecallRoute three = new RecallRoute("r1", "Dana pottery", List.of("Dana pottery", "pottery class", "Entity Dana"),
        List.of(), null);
    List<Candidate> many = new EvidenceNodeChannel(f.store, f.vectors, config.budgets(), config.weights(),
        config.strategies()).recall(three, ctx(three, QuestionType.SINGLE));
    Candidate pp = many.stream().filter(x -> x.id().equals(pottery.id())).findFirst().orElseThrow();
    assertThat(pp.provenance().queries()).doesNotHaveDuplicates().isSubsetOf(three.queries()).isNotEmpty();
    assertThat(pp.provenance().nodes()).doesNotHaveDuplicates().contains(dana, tag);
  }

  @Test
  void evidenceNodesAskForTheirFourKindsInOneCall() {
    RecallRoute r = RecallRoute.simple("r1", "Dana pottery");
    RecallContext plain = ctx(r, QuestionType.SINGLE);
    java.util.List<java.util.List<String>> kindCalls = new java.util.ArrayList<>();
    int[] singleCalls = {0};
    dev.lychee.api.spi.VectorSearches counting = new dev.lychee.api.spi.VectorSearches() {
      @Override
      public java.util.List<java.util.List<dev.lychee.api.ScoredId>> searchAll(dev.lychee.api.spi.VectorIndex index,
          String namespace, String kind, dev.lychee.api.spi.RouteQuery query, int limit) {
        singleCalls[0]++;
        return dev.lychee.api.spi.VectorSearches.DIRECT.searchAll(index, namespace, kind, query, limit);
      }

      @Override
      public java.util.Map<String, java.util.List<java.util.List<dev.lychee.api.ScoredId>>> searchKinds(
          dev.lychee.api.spi.VectorIndex index, String namespace, java.util.List<String> kinds,
          dev.lychee.api.spi.RouteQuery query, int limit) {
        kindCalls.add(kinds);
        return dev.lychee.api.spi.VectorSearches.DIRECT.searchKinds(index, namespace, kinds, query, limit);
      }
    };
    RecallContext counted = new RecallContext(plain.question(), plain.plan(), plain.k(), plain.routeQueries(),
        plain.observer(), counting);
    EvidenceNodeChannel channel = new EvidenceNodeChannel(f.store, f.vectors, config.budgets(), config.weights(),
        config.strategies());
    List<Candidate> out = channel.recall(r, counted);
    assertThat(kindCalls).singleElement().asList().containsExactly(dev.lychee.api.spi.VectorIndex.nodes(NodeKind.ENTITY),
        dev.lychee.api.spi.VectorIndex.nodes(NodeKind.TAG), dev.lychee.api.spi.VectorIndex.nodes(NodeKind.ENTITY_TAG),
        dev.lychee.api.spi.VectorIndex.nodes(NodeKind.EVENT_FRAME));
    assertThat(singleCalls[0]).isZero();
    assertThat(out).isNotEmpty().isEqualTo(channel.recall(r, plain));
  }

  @Test
  void temporalRangeScoresDayAndMonthNodes() {
    RecallRoute day = new RecallRoute("r1", "g", List.of("what happened"), List.of(), DateRange.day(D1));
    List<Candidate> out = new TemporalRangeChannel(f.store, config.budgets(), config.weights()).recall(day, ctx(day, QuestionType.TEMPORAL));
    wellFormed(out, TemporalRangeChannel.NAME);
    assertThat(out).extracting(Candidate::id).containsExactly(pottery.id());
    assertThat(out.get(0).score()).isEqualTo(0.42);

    RecallRoute june = new RecallRoute("r1", "g", List.of("what happened"), List.of(),
        new DateRange(LocalDate.of(2023, 6, 1), LocalDate.of(2023, 6, 30)));
    List<Candidate> jun = new TemporalRangeChannel(f.store, config.budgets(), config.weights()).recall(june, ctx(june, QuestionType.TEMPORAL));
    assertThat(jun).extracting(Candidate::id).containsExactly(marathon.id());
    assertThat(jun.get(0).score()).isEqualTo(0.28);
  }

  @Test
  void temporalRangeIsSilentWithoutAFilter() {
    RecallRoute r = RecallRoute.simple("r1", "what happened");
    assertThat(new TemporalRangeChannel(f.store, config.budgets(), config.weights()).recall(r, ctx(r, QuestionType.TEMPORAL))).isEmpty();
  }

  @Test
  void rawTurnsAreScoredWithTheRawFormula() {
    RecallRoute r = RecallRoute.simple("r1", "Omar finished the marathon");
    List<Candidate> out = new RawTurnChannel(f.store, f.vectors, config.budgets(), config.weights(), config.strategies()).recall(r, ctx(r, QuestionType.SINGLE));
    wellFormed(out, RawTurnChannel.NAME);
    assertThat(out.get(0).turns()).containsExactly(TurnRef.of("s2", 0));
    assertThat(out.get(0).text()).startsWith("Omar: ");
    assertThat(out.get(0).score()).isCloseTo(0.34 + 0.42 * out.get(0).similarity(),
        org.assertj.core.api.Assertions.within(1e-9));
    assertThat(out.get(0).mentionedAt().toLocalDate()).isEqualTo(D2);
  }

  @Test
  void assistantBonusAppliesForPriorAssistantQuestions() {
    StrategyProfile p = config.strategy(QuestionType.PRIOR_ASSISTANT_RESPONSE);
    double user = RawTurnChannel.score(config.weights(), p, .5, dev.lychee.api.Role.USER);
    double asst = RawTurnChannel.score(config.weights(), p, .5, dev.lychee.api.Role.ASSISTANT);
    assertThat(asst - user).isCloseTo(.18 - .04, org.assertj.core.api.Assertions.within(1e-9));
  }

  @Test
  void lexicalFindsARareTokenInTurnsAndRecords() {
    RecallRoute r = RecallRoute.simple("r1", "XR7");
    List<Candidate> out = new LexicalChannel(f.store, config.budgets(), config.weights()).recall(r, ctx(r, QuestionType.SINGLE));
    wellFormed(out, LexicalChannel.NAME);
    assertThat(out).isNotEmpty();
    assertThat(out.get(0).turns()).containsExactly(TurnRef.of("s1", 2));
    // the best hit of a query normalises to 1: base + scale
    assertThat(out.get(0).score()).isCloseTo(config.weights().lexicalTurnBase() + config.weights().lexicalTurnScale(),
        org.assertj.core.api.Assertions.within(1e-9));
  }

  @Test
  void lexicalWithoutRawTurnsSearchesRecordsOnly() {
    RecallRoute r = RecallRoute.simple("r1", "pottery class");
    List<Candidate> out = new LexicalChannel(f.store, config.budgets(), config.weights(), EnumSet.of(TextField.RECORDS))
        .recall(r, ctx(r, QuestionType.SINGLE));
    assertThat(out).isNotEmpty().allMatch(c -> c.kind() == CandidateKind.RECORD);
  }

  @Test
  void channelsNeverCrossNamespaces() {
    RecallRoute r = RecallRoute.simple("r1", "pottery class");
    RecallContext other = RouteQueries.context(new Question("other", "pottery class", 5, null),
        RecallPlan.singleRoute("pottery class"), f.embedder, config.maxVariants());
    assertThat(new RawTurnChannel(f.store, f.vectors, config.budgets(), config.weights(), config.strategies()).recall(r, other)).isEmpty();
    assertThat(new RecordVectorChannel(f.store, f.vectors, config.budgets(), config.weights(), config.strategies()).recall(r, other)).isEmpty();
    assertThat(new LexicalChannel(f.store, config.budgets(), config.weights()).recall(r, other)).isEmpty();
    assertThat(new EvidenceNodeChannel(f.store, f.vectors, config.budgets(), config.weights(), config.strategies()).recall(r, other)).isEmpty();
  }

  @Test
  void sourceWindowsShowTheNeighbouringReply() {
    RecallRoute r = RecallRoute.simple("r1", "Omar finished the marathon");
    RecallContext c = ctx(r, QuestionType.SINGLE);
    List<Candidate> hits = new RawTurnChannel(f.store, f.vectors, config.budgets(), config.weights(), config.strategies()).recall(r, c);
    List<Candidate> windows = new SourceWindows(f.store, config).around(hits.subList(0, 1), MemoryFixture.NS, 5,
        config.strategy(QuestionType.SINGLE), java.util.Set.of());
    assertThat(windows).hasSize(1);
    Candidate w = windows.get(0);
    assertThat(w.kind()).isEqualTo(CandidateKind.WINDOW);
    assertThat(w.id()).isEqualTo("source_window:s2:0-1");
    assertThat(w.turns()).containsExactly(TurnRef.of("s2", 0), TurnRef.of("s2", 1));
    assertThat(w.text()).isEqualTo("Omar: I finished the marathon in under four hours!\n"
        + "Dana: Congratulations, that is amazing.");
    assertThat(w.score()).isEqualTo(hits.get(0).score());
  }

  private static double dot(float[] a, float[] b) {
    double s = 0;
    for (int i = 0; i < a.length; i++) {
      s += a[i] * b[i];
    }
    return s;
  }
}
