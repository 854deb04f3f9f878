package dev.lychee.core.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.inject.AbstractModule;
import com.google.inject.Guice;
import com.google.inject.Module;
import com.google.inject.util.Modules;
import dev.lychee.api.Question;
import dev.lychee.api.Recall;
import dev.lychee.api.QuestionType;
import dev.lychee.api.RecallPlan;
import dev.lychee.api.RecallRoute;
import dev.lychee.api.ScoredId;
import dev.lychee.api.TokenUsage;
import dev.lychee.api.spi.EmbeddingProfile;
import dev.lychee.api.spi.Embedder;
import dev.lychee.api.spi.QueryPlanner;
import dev.lychee.api.spi.RecordStore;
import dev.lychee.api.spi.RouteQuery;
import dev.lychee.api.spi.VectorIndex;
import dev.lychee.api.spi.VectorSearches;
import dev.lychee.core.plan.RuleBasedPlanner;
import dev.lychee.core.recall.PlanSearches;
import dev.lychee.core.testing.HashingEmbedder;
import dev.lychee.core.testing.MemoryFixture;
import dev.lychee.core.vector.ExactVectorIndex;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * {@link RetrievalConfig#maxEmbeddedVariants()}: the query batch holds at most the bound's number of
 * texts, the question always among them, while every route keeps all its variants for the channels
 * that match words and vector searches run with the embedded ones only.
 */
class EmbeddedVariantsTest {
  private static final String QUESTION = "What did Dana and Omar do in June?";

  private final CountingEmbedder embedder = new CountingEmbedder();

  private static RecallPlan plan() {
    List<RecallRoute> routes = List.of(
        new RecallRoute("r1", "what Dana did", List.of("Dana pottery class", "Dana wheel"), List.of(), null),
        new RecallRoute("r2", "what Omar did", List.of("Omar marathon", "city marathon hours"), List.of(), null));
    return new RecallPlan(QuestionType.SINGLE, "", routes, null, TokenUsage.ZERO);
  }

  private List<RouteQuery> queries(int maxEmbedded) {
    Question q = new Question("ns", QUESTION, 5, null);
    return RouteQueries.embedded(RouteQueries.withoutVectors(q, plan(), 8), embedder, maxEmbedded);
  }

  private static Set<String> allVariants(List<RouteQuery> queries) {
    Set<String> all = new LinkedHashSet<>();
    queries.forEach(q -> all.addAll(q.variants()));
    return all;
  }

  @Test
  void withoutABoundEveryDistinctVariantIsEmbeddedOnce() {
    List<RouteQuery> queries = queries(0);
    assertThat(embedder.batches).hasSize(1);
    assertThat(embedder.batches.get(0)).containsExactlyElementsOf(allVariants(queries));
    for (RouteQuery q : queries) {
      assertThat(q.embeddedVariants()).isEqualTo(q.variants());
    }
  }

  @Test
  void theBatchRespectsTheBoundAndAlwaysHoldsTheQuestion() {
    for (int bound = 1; bound <= 4; bound++) {
      embedder.batches.clear();
      List<RouteQuery> queries = queries(bound);
      assertThat(embedder.batches).hasSize(1);
      List<String> batch = embedder.batches.get(0);
      // two routes: the question and each route's goal always, the bound beyond them
      assertThat(batch).hasSize(Math.max(bound, 3)).contains(QUESTION, "what Dana did", "what Omar did")
          .doesNotHaveDuplicates();
      Set<String> embedded = new LinkedHashSet<>();
      for (RouteQuery q : queries) {
        // every route keeps all its variants for the lexical channel, the question first and embedded
        assertThat(q.variants()).hasSize(4).startsWith(QUESTION);
        assertThat(q.embeddedVariants()).startsWith(QUESTION).isSubsetOf(q.variants());
        assertThat(q.vectors().keySet()).containsExactlyInAnyOrderElementsOf(q.embeddedVariants());
        embedded.addAll(q.embeddedVariants());
      }
      assertThat(embedded).containsExactlyInAnyOrderElementsOf(batch);
    }
  }

  @Test
  void aVariantWithoutAVectorIsNeverSearchedByVector() {
    List<RouteQuery> queries = queries(1);
    RouteQuery r2 = queries.get(1);
    assertThat(r2.embeddedVariants()).containsExactly(QUESTION, "what Omar did");
    assertThatThrownBy(() -> r2.vector("Omar marathon")).isInstanceOf(IllegalArgumentException.class);

    ExactVectorIndex index = new ExactVectorIndex();
    Map<String, float[]> stored = new HashMap<>();
    for (int i = 0; i < 20; i++) {
      stored.put("t" + i, embedder.embedDocuments(List.of("Omar marathon " + i)).get(0));
    }
    index.upsert("ns", VectorIndex.TURNS, stored);
    List<List<ScoredId>> direct = VectorSearches.DIRECT.searchAll(index, "ns", VectorIndex.TURNS, r2, 5);
    List<List<ScoredId>> shared = new PlanSearches(queries).searchAll(index, "ns", VectorIndex.TURNS, r2, 5);
    assertThat(direct).hasSize(2).isEqualTo(shared);
  }

  @Test
  void aSingleRoutePlanEmbedsTheQuestionAloneWithTheBoundAtOne() {
    Question q = new Question("ns", QUESTION, 5, null);
    RecallPlan one = new RecallPlan(QuestionType.SINGLE, "", List.of(plan().routes().get(0)), null, TokenUsage.ZERO);
    List<RouteQuery> queries = RouteQueries.embedded(RouteQueries.withoutVectors(q, one, 8), embedder, 1);
    assertThat(embedder.batches).containsExactly(List.of(QUESTION));
    assertThat(queries.get(0).embeddedVariants()).containsExactly(QUESTION);
  }

  @Test
  void perPersonRoutesSearchByVectorWithTheirOwnGoals() {
    // the rule-based planner's routes for two people all lead with the question; without their
    // goals embedded both would search by vector with the same single text
    Question q = new Question("ns", "What hobbies do Dana and Omar share?", 5, null);
    RecallPlan plan = new RuleBasedPlanner().plan(q);
    assertThat(plan.routes()).hasSize(2);
    List<RouteQuery> queries = RouteQueries.embedded(RouteQueries.withoutVectors(q, plan, 8), embedder, 1);
    assertThat(embedder.batches).hasSize(1);
    List<String> batch = embedder.batches.get(0);
    assertThat(batch).hasSize(3).contains(q.text());
    RouteQuery dana = queries.get(0);
    RouteQuery omar = queries.get(1);
    assertThat(dana.embeddedVariants()).hasSize(2).startsWith(q.text());
    assertThat(omar.embeddedVariants()).hasSize(2).startsWith(q.text());
    assertThat(dana.embeddedVariants().get(1)).contains("Dana").doesNotContain("Omar");
    assertThat(omar.embeddedVariants().get(1)).contains("Omar").doesNotContain("Dana");
  }

  @Test
  void theBoundIsChecked() {
    assertThatThrownBy(() -> queries(-1)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> RetrievalConfig.builder().maxEmbeddedVariants(-1).build())
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(RetrievalConfig.defaults().maxEmbeddedVariants()).isEqualTo(1);
    assertThat(RetrievalConfig.defaults().toBuilder().maxEmbeddedVariants(2).build().maxEmbeddedVariants())
        .isEqualTo(2);
  }

  @Test
  void thePipelineEmbedsAtMostTheBoundPerRecallAndStillFindsEvidence() {
    MemoryFixture f = threeTurns();
    CountingEmbedder counting = new CountingEmbedder(f.embedder);
    // not a point-in-time question, which searches with the question alone (docs/defaults.md §4.15)
    String question = "What did Dana sign up for at the centre, and what did Omar finish?";
    for (int bound : List.of(0, 2, 1)) {
      counting.batches.clear();
      try (RecallPipeline p = pipeline(f, counting, bound)) {
        Recall r = p.recall(new Question(MemoryFixture.NS, question, 5, null));
        assertThat(r.evidence()).isNotEmpty();
        assertThat(counting.batches).hasSize(1);
        List<String> batch = counting.batches.get(0);
        assertThat(batch).contains(question);
        if (bound > 0) {
          assertThat(batch).hasSizeLessThanOrEqualTo(bound);
        } else {
          assertThat(batch.size()).isGreaterThan(2); // the planner's variants, all embedded
        }
      }
    }
  }

  @Test
  void aModelsPlanHasEveryVariantEmbeddedWhateverTheBound() {
    MemoryFixture f = new MemoryFixture();
    f.session("s1", LocalDate.of(2023, 5, 8),
        "Dana: I signed up for a pottery class at the community centre.",
        "Omar: I finished the city marathon in under four hours!");
    CountingEmbedder counting = new CountingEmbedder(f.embedder);
    String question = "When did Dana sign up for pottery?";
    RecallRoute route = new RecallRoute("r1", "when Dana joined a pottery class",
        List.of("Dana pottery class sign-up", "community centre course"), List.of(), null);
    QueryPlanner model = q -> new RecallPlan(QuestionType.SINGLE, "", List.of(route), null, new TokenUsage(120, 40));
    try (RecallPipeline p = pipeline(f, counting, 1, model)) {
      p.recall(new Question(MemoryFixture.NS, question, 5, null));
    }
    assertThat(counting.batches).hasSize(1);
    assertThat(counting.batches.get(0)).contains(question, "when Dana joined a pottery class",
        "Dana pottery class sign-up", "community centre course");
  }

  @Test
  void vectorsAtHandAreUsedAndOnlyTheOtherTextsAreEmbeddedInOneBatch() {
    Question q = new Question("ns", QUESTION, 5, null);
    List<RouteQuery> texts = RouteQueries.withoutVectors(q, plan(), 8);
    for (int bound : List.of(0, 1, 3)) {
      embedder.batches.clear();
      List<RouteQuery> oneBatch = RouteQueries.embedded(texts, embedder, bound);
      List<String> all = embedder.batches.get(0);
      embedder.batches.clear();
      float[] questionVector = new HashingEmbedder().embedQueries(List.of(QUESTION)).get(0);
      Map<String, float[]> ahead = new HashMap<>(Map.of(QUESTION, questionVector));
      if (!all.contains("city marathon hours")) {
        ahead.put("city marathon hours", new float[] {1}); // the bound leaves it out: not used
      }
      List<RouteQuery> split = RouteQueries.embedded(texts, embedder, bound, ahead);
      assertThat(embedder.batches).containsExactly(all.subList(1, all.size()));
      assertThat(split).hasSameSizeAs(oneBatch);
      for (int i = 0; i < split.size(); i++) {
        assertThat(split.get(i).embeddedVariants()).isEqualTo(oneBatch.get(i).embeddedVariants());
        assertThat(split.get(i).vectors()).containsOnlyKeys(oneBatch.get(i).vectors().keySet());
        for (String v : split.get(i).embeddedVariants()) {
          assertThat(split.get(i).vector(v)).isEqualTo(oneBatch.get(i).vector(v));
        }
      }
      assertThat(split.get(0).vector(QUESTION)).isSameAs(questionVector);
    }
    embedder.batches.clear();
    RecallPlan one = new RecallPlan(QuestionType.SINGLE, "", List.of(plan().routes().get(0)), null, TokenUsage.ZERO);
    RouteQueries.embedded(RouteQueries.withoutVectors(q, one, 8), embedder, 1,
        Map.of(QUESTION, new HashingEmbedder().embedQueries(List.of(QUESTION)).get(0)));
    assertThat(embedder.batches).as("nothing left to embed").isEmpty();
  }

  @Test
  void withEarlyThreadsTheQuestionGoesAheadAndTheSameTextsAreEmbeddedOnce() {
    MemoryFixture f = threeTurns();
    String question = "What did Dana sign up for at the centre, and what did Omar finish?";
    String twoPeople = "What hobbies do Dana and Omar share?";
    RecallRoute route = new RecallRoute("r1", "when Dana joined a pottery class",
        List.of("Dana pottery class sign-up", "community centre course"), List.of(), null);
    QueryPlanner model = q -> new RecallPlan(QuestionType.SINGLE, "", List.of(route), null, new TokenUsage(120, 40));
    for (QueryPlanner planner : java.util.Arrays.asList(null, model)) {
      for (String text : List.of(question, twoPeople)) {
        for (int bound : List.of(0, 2, 1)) {
          CountingEmbedder sequential = new CountingEmbedder(f.embedder);
          CountingEmbedder ahead = new CountingEmbedder(f.embedder);
          Question q = new Question(MemoryFixture.NS, text, 5, null);
          Recall one;
          Recall two;
          try (RecallPipeline p = pipeline(f, sequential, bound, planner, 0)) {
            one = p.recall(q);
          }
          try (RecallPipeline p = pipeline(f, ahead, bound, planner, 1)) {
            two = p.recall(q);
          }
          String as = text + ", bound " + bound + (planner == null ? "" : ", a model's plan");
          assertThat(two.evidence()).as(as).isNotEmpty().isEqualTo(one.evidence());
          List<String> all = sequential.batches.get(0);
          assertThat(sequential.batches).as(as).hasSize(1);
          // the question alone first, then every other text of the sequential batch in one batch
          assertThat(ahead.batches.get(0)).as(as).containsExactly(text);
          assertThat(ahead.batches.stream().flatMap(List::stream).toList()).as(as).isEqualTo(all);
          assertThat(ahead.batches).as(as).hasSize(all.size() == 1 ? 1 : 2);
        }
      }
    }
  }

  /** One session of three turns: Dana's pottery class, Omar's marathon, the puppy's name. */
  private static MemoryFixture threeTurns() {
    MemoryFixture f = new MemoryFixture();
    f.session("s1", LocalDate.of(2023, 5, 8),
        "Dana: I signed up for a pottery class at the community centre.",
        "Omar: I finished the city marathon in under four hours!",
        "Dana: We called the puppy Biscuit, after the colour of his fur.");
    return f;
  }

  private static RecallPipeline pipeline(MemoryFixture f, Embedder embedder, int maxEmbedded) {
    return pipeline(f, embedder, maxEmbedded, null);
  }

  private static RecallPipeline pipeline(MemoryFixture f, Embedder embedder, int maxEmbedded, QueryPlanner planner) {
    return pipeline(f, embedder, maxEmbedded, planner, 0);
  }

  private static RecallPipeline pipeline(MemoryFixture f, Embedder embedder, int maxEmbedded, QueryPlanner planner,
      int earlyThreads) {
    Module m = Modules.combine(
        new RetrievalModule(RetrievalConfig.builder().maxEmbeddedVariants(maxEmbedded)
            .earlyChannelThreads(earlyThreads).build()),
        new AbstractModule() {
          @Override
          protected void configure() {
            bind(RecordStore.class).toInstance(f.store);
            bind(VectorIndex.class).toInstance(f.vectors);
            bind(Embedder.class).toInstance(embedder);
            if (planner == null) {
              bind(QueryPlanner.class).to(RuleBasedPlanner.class);
            } else {
              bind(QueryPlanner.class).toInstance(planner);
            }
          }
        });
    return Guice.createInjector(m).getInstance(RecallPipeline.class);
  }

  /** A hashing embedder that records each query batch. */
  private static final class CountingEmbedder implements Embedder {
    private final Embedder inner;
    final List<List<String>> batches = new ArrayList<>();

    CountingEmbedder() {
      this(new HashingEmbedder());
    }

    CountingEmbedder(Embedder inner) {
      this.inner = inner;
    }

    @Override
    public List<float[]> embedDocuments(List<String> texts) {
      return inner.embedDocuments(texts);
    }

    @Override
    public float[] embedQuery(String query) {
      return inner.embedQuery(query);
    }

    @Override
    public synchronized List<float[]> embedQueries(List<String> queries) {
      batches.add(List.copyOf(queries));
      return inner.embedQueries(queries);
    }

    @Override
    public int dimension() {
      return inner.dimension();
    }

    @Override
    public String modelId() {
      return inner.modelId();
    }

    @Override
    public EmbeddingProfile profile() {
      return inner.profile();
    }
  }
}
