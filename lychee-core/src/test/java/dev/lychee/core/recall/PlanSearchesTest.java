package dev.lychee.core.recall;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lychee.api.Question;
import dev.lychee.api.QuestionType;
import dev.lychee.api.RecallPlan;
import dev.lychee.api.RecallRoute;
import dev.lychee.api.ScoredId;
import dev.lychee.api.TokenUsage;
import dev.lychee.api.spi.RecallContext;
import dev.lychee.api.spi.VectorIndex;
import dev.lychee.api.spi.VectorSearches;
import dev.lychee.core.read.RouteQueries;
import dev.lychee.core.testing.HashingEmbedder;
import dev.lychee.core.vector.ExactVectorIndex;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/**
 * Routes that share their vector searches through the context get exactly the hits they would get
 * searching on their own, while the index is searched once per (kind, limit) for the whole plan.
 */
class PlanSearchesTest {
  private final HashingEmbedder embedder = new HashingEmbedder();
  private final CountingIndex vectors = new CountingIndex();

  private RecallContext context() {
    Map<String, float[]> m = new HashMap<>();
    String[] words = {"pottery", "marathon", "class", "city", "wheel", "hours", "Dana", "Omar", "centre", "june"};
    for (int i = 0; i < 200; i++) {
      String text = words[i % words.length] + " " + words[(i * 7) % words.length] + " " + i;
      m.put("t" + i, embedder.embedDocuments(List.of(text)).get(0));
    }
    vectors.upsert("ns", VectorIndex.TURNS, m);
    List<RecallRoute> routes = List.of(
        new RecallRoute("r1", "what Dana did", List.of("Dana pottery class"), List.of(), null),
        new RecallRoute("r2", "what Omar did", List.of("Omar marathon", "city marathon hours"), List.of(), null),
        new RecallRoute("r3", "what Dana did", List.of("Dana pottery class"), List.of(), null));
    RecallPlan plan = new RecallPlan(QuestionType.SINGLE, "", routes, null, TokenUsage.ZERO);
    return RouteQueries.context(new Question("ns", "What did Dana and Omar do?", 5, null), plan, embedder, 8);
  }

  @Test
  void sharedSearchesGiveEveryRouteItsOwnHits() {
    RecallContext c = context();
    assertThat(c.searches()).isInstanceOf(PlanSearches.class);
    List<List<List<ScoredId>>> alone = new ArrayList<>();
    for (RecallRoute r : c.plan().routes()) {
      alone.add(VectorSearches.DIRECT.searchAll(vectors, "ns", VectorIndex.TURNS, c.query(r), 7));
    }
    int callsAlone = vectors.calls;
    assertThat(callsAlone).isEqualTo(3);

    vectors.calls = 0;
    List<List<List<ScoredId>>> shared = new ArrayList<>();
    for (RecallRoute r : c.plan().routes()) {
      shared.add(c.searchAll(vectors, VectorIndex.TURNS, c.query(r), 7));
    }
    // another limit is another search
    c.searchAll(vectors, VectorIndex.TURNS, c.query(c.plan().routes().get(0)), 3);
    assertThat(shared).isEqualTo(alone);
    assertThat(shared.get(1)).hasSize(c.query(c.plan().routes().get(1)).variants().size());
    assertThat(vectors.calls).isEqualTo(2);
  }

  @Test
  void contextsShareNothingAndAPlainContextSearchesTheIndexEachTime() {
    RecallContext c = context();
    RecallContext other = context();
    RecallRoute r = c.plan().routes().get(0);
    c.searchAll(vectors, VectorIndex.TURNS, c.query(r), 5);
    other.searchAll(vectors, VectorIndex.TURNS, other.query(r), 5);
    assertThat(vectors.calls).isEqualTo(2);

    RecallContext plain = new RecallContext(c.question(), c.plan(), c.k(), c.routeQueries());
    assertThat(plain.searches()).isSameAs(VectorSearches.DIRECT);
    plain.searchAll(vectors, VectorIndex.TURNS, plain.query(r), 5);
    plain.searchAll(vectors, VectorIndex.TURNS, plain.query(r), 5);
    assertThat(vectors.calls).isEqualTo(4);
  }

  @Test
  void severalKindsGoToTheIndexInOneCallAndGiveWhatSearchAllGives() {
    RecallContext c = context();
    List<String> kinds = List.of(VectorIndex.TURNS, VectorIndex.RECORDS, VectorIndex.nodes(dev.lychee.api.NodeKind.TAG));
    vectors.upsert("ns", VectorIndex.RECORDS, Map.of("r1", embedder.embedDocuments(List.of("Dana pottery")).get(0)));
    List<Map<String, List<List<ScoredId>>>> alone = new ArrayList<>();
    for (RecallRoute r : c.plan().routes()) {
      alone.add(VectorSearches.DIRECT.searchKinds(vectors, "ns", kinds, c.query(r), 6));
    }
    vectors.calls = 0;
    vectors.kindCalls = 0;
    for (int i = 0; i < c.plan().routes().size(); i++) {
      RecallRoute r = c.plan().routes().get(i);
      assertThat(c.searchKinds(vectors, kinds, c.query(r), 6)).isEqualTo(alone.get(i));
      // a kind searched with the others is shared with a later searchAll of that kind
      assertThat(c.searchAll(vectors, VectorIndex.RECORDS, c.query(r), 6)).isEqualTo(alone.get(i).get(VectorIndex.RECORDS));
    }
    assertThat(vectors.kindCalls).as("one call for the three kinds, for the whole plan").isEqualTo(1);
    assertThat(vectors.calls).isZero();
  }

  /** An exact index that counts its batched searches. */
  private static final class CountingIndex implements VectorIndex {
    private final ExactVectorIndex inner = new ExactVectorIndex();
    int calls;
    int kindCalls;

    @Override
    public Map<String, List<List<ScoredId>>> searchKinds(String namespace, List<String> kinds, List<float[]> queries,
        int k, Predicate<String> filter) {
      kindCalls++;
      Map<String, List<List<ScoredId>>> out = new java.util.LinkedHashMap<>();
      kinds.forEach(kind -> out.putIfAbsent(kind, inner.searchAll(namespace, kind, queries, k, filter)));
      return out;
    }

    @Override
    public void upsert(String namespace, String kind, Map<String, float[]> vectors) {
      inner.upsert(namespace, kind, vectors);
    }

    @Override
    public List<ScoredId> search(String namespace, String kind, float[] query, int k, Predicate<String> filter) {
      return searchAll(namespace, kind, List.of(query), k, filter).get(0);
    }

    @Override
    public List<List<ScoredId>> searchAll(String namespace, String kind, List<float[]> queries, int k,
        Predicate<String> filter) {
      calls++;
      return inner.searchAll(namespace, kind, queries, k, filter);
    }

    @Override
    public void remove(String namespace, String kind, Collection<String> ids) {
      inner.remove(namespace, kind, ids);
    }

    @Override
    public void forget(String namespace) {
      inner.forget(namespace);
    }

    @Override
    public int size(String namespace, String kind) {
      return inner.size(namespace, kind);
    }

    @Override
    public void close() {
      inner.close();
    }
  }
}
