package dev.lychee.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lychee.api.ScoredId;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Two instances (two pools, two in-memory copies) on one database: each sees the other's upserts,
 * removals and forgets on its next search, by replaying changes rather than reloading.
 */
class CrossInstanceVectorTest {
  private PostgresVectorIndex a;
  private PostgresVectorIndex b;

  PostgresStoreConfig.Builder config() {
    return PostgresStoreConfig.builder().maxPoolSize(3);
  }

  @BeforeEach
  void open() {
    String schema = TestPostgres.freshSchema();
    a = PostgresVectorIndex.open(TestPostgres.get().url(), config().schema(schema).build());
    b = PostgresVectorIndex.open(TestPostgres.get().url(), config().schema(schema).build());
  }

  @AfterEach
  void close() {
    a.close();
    b.close();
  }

  private static float[] unit(Random rnd, int dim) {
    float[] v = new float[dim];
    double n = 0;
    for (int i = 0; i < dim; i++) {
      v[i] = (float) rnd.nextGaussian();
      n += v[i] * v[i];
    }
    for (int i = 0; i < dim; i++) {
      v[i] /= (float) Math.sqrt(n);
    }
    return v;
  }

  @Test
  void writesOfOneInstanceReachTheOthersNextSearchIncrementally() {
    Random rnd = new Random(3);
    Map<String, float[]> first = new LinkedHashMap<>();
    for (int i = 0; i < 50; i++) {
      first.put("v" + i, unit(rnd, 16));
    }
    a.upsert("ns", "record", first);
    float[] q = first.get("v7");
    assertThat(b.search("ns", "record", q, 1, null)).extracting(ScoredId::id).containsExactly("v7");
    assertThat(b.fullLoads()).isEqualTo(1);

    // a new vector right on the query, written by the other instance
    a.upsert("ns", "record", Map.of("fresh", q.clone()));
    assertThat(b.search("ns", "record", q, 2, null)).extracting(ScoredId::id).containsExactlyInAnyOrder("v7", "fresh");
    a.remove("ns", "record", List.of("v7", "fresh"));
    assertThat(b.search("ns", "record", q, 50, null)).extracting(ScoredId::id).doesNotContain("v7", "fresh").hasSize(49);
    // a replaced vector moves
    float[] moved = unit(rnd, 16);
    a.upsert("ns", "record", Map.of("v3", moved));
    assertThat(b.search("ns", "record", moved, 1, null)).singleElement()
        .satisfies(h -> assertThat(h.id()).isEqualTo("v3")).satisfies(h -> assertThat(h.score()).isCloseTo(1.0, org.assertj.core.data.Offset.offset(1e-5)));
    assertThat(b.fullLoads()).as("caught up by replay, not reload").isEqualTo(1);
    assertThat(b.replays()).isEqualTo(3);

    // b writes, a reads
    b.upsert("ns", "record", Map.of("from-b", moved.clone()));
    assertThat(a.search("ns", "record", moved, 2, null)).extracting(ScoredId::id).containsExactlyInAnyOrder("v3", "from-b");
    assertThat(a.size("ns", "record")).isEqualTo(b.size("ns", "record")).isEqualTo(50);
  }

  @Test
  void forgetReachesEveryInstanceAndOnlyThatNamespace() {
    Random rnd = new Random(4);
    float[] q = unit(rnd, 8);
    a.upsert("ns", "turn", Map.of("t1", q, "t2", unit(rnd, 8)));
    a.upsert("keep", "turn", Map.of("k1", q.clone()));
    assertThat(b.search("ns", "turn", q, 5, null)).hasSize(2);
    assertThat(b.search("keep", "turn", q, 5, null)).hasSize(1);
    a.forget("ns");
    assertThat(b.search("ns", "turn", q, 5, null)).isEmpty();
    assertThat(b.search("keep", "turn", q, 5, null)).extracting(ScoredId::id).containsExactly("k1");
    // reuse after forget, even with another dimension
    b.upsert("ns", "turn", Map.of("new", new float[] {1f, 0f}));
    assertThat(a.search("ns", "turn", new float[] {1f, 0f}, 5, null)).extracting(ScoredId::id).containsExactly("new");
  }

  @Test
  void searchAllReadsTheHeadOnceAndAnswersAsSingleSearches() {
    Random rnd = new Random(5);
    Map<String, float[]> vectors = new LinkedHashMap<>();
    for (int i = 0; i < 40; i++) {
      vectors.put("v" + i, unit(rnd, 12));
    }
    a.upsert("ns", "turn", vectors);
    List<float[]> queries = List.of(unit(rnd, 12), unit(rnd, 12), unit(rnd, 12));
    // bring b's copy up to date first, so that only the head reads are counted below
    b.search("ns", "turn", queries.get(0), 1, null);
    long before = b.headReads();
    List<List<ScoredId>> all = b.searchAll("ns", "turn", queries, 5, id -> !id.equals("v3"));
    assertThat(b.headReads() - before).as("one head row read for every query of the call").isEqualTo(1);
    for (int i = 0; i < queries.size(); i++) {
      assertThat(all.get(i)).isEqualTo(b.search("ns", "turn", queries.get(i), 5, id -> !id.equals("v3")));
    }
    // a write by the other instance between calls is seen by the next call, for every query
    a.upsert("ns", "turn", Map.of("fresh", queries.get(2).clone()));
    assertThat(b.searchAll("ns", "turn", queries, 1, null).get(2)).extracting(ScoredId::id).containsExactly("fresh");
    assertThat(b.searchAll("empty", "turn", queries, 3, null)).hasSize(3).allSatisfy(l -> assertThat(l).isEmpty());
  }

  @Test
  void searchKindsReadsEveryHeadInOneRoundTripAndSeesTheOtherInstancesWrites() {
    Random rnd = new Random(6);
    List<String> kinds = List.of("node:entity", "node:tag", "node:entity_tag", "node:event_frame");
    for (String kind : kinds.subList(0, 3)) {
      Map<String, float[]> vectors = new LinkedHashMap<>();
      for (int i = 0; i < 30; i++) {
        vectors.put(kind + i, unit(rnd, 12));
      }
      a.upsert("ns", kind, vectors);
    }
    List<float[]> queries = List.of(unit(rnd, 12), unit(rnd, 12));
    b.searchKinds("ns", kinds, queries, 1, null); // b's copies catch up first
    long before = b.headReads();
    Map<String, List<List<ScoredId>>> byKind = b.searchKinds("ns", kinds, queries, 4, null);
    assertThat(b.headReads() - before).as("one statement reads the heads of all four kinds").isEqualTo(1);
    for (String kind : kinds) {
      assertThat(byKind.get(kind)).isEqualTo(b.searchAll("ns", kind, queries, 4, null));
    }
    assertThat(byKind.get("node:event_frame")).hasSize(2).allSatisfy(l -> assertThat(l).isEmpty());
    // writes by the other instance to two kinds, one of them new, are seen by the next call
    a.upsert("ns", "node:event_frame", Map.of("frame", queries.get(0).clone()));
    a.upsert("ns", "node:tag", Map.of("tag-new", queries.get(1).clone()));
    Map<String, List<List<ScoredId>>> after = b.searchKinds("ns", kinds, queries, 1, null);
    assertThat(after.get("node:event_frame").get(0)).extracting(ScoredId::id).containsExactly("frame");
    assertThat(after.get("node:tag").get(1)).extracting(ScoredId::id).containsExactly("tag-new");
    a.forget("ns");
    assertThat(b.searchKinds("ns", kinds, queries, 3, null).values())
        .allSatisfy(lists -> assertThat(lists).allSatisfy(l -> assertThat(l).isEmpty()));
  }
}
