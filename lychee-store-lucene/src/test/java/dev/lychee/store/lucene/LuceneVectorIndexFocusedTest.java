package dev.lychee.store.lucene;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.lychee.api.NodeKind;
import dev.lychee.api.ScoredId;
import dev.lychee.api.spi.VectorIndex;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Lucene-specific behaviour of the vector index: HNSW against exact answers, dimensions, reopen. */
class LuceneVectorIndexFocusedTest {
  @TempDir Path dir;
  LuceneVectorIndex exact;

  @BeforeEach
  void open() {
    exact = new LuceneVectorIndex(dir.resolve("exact"), TestConfigs.FAST);
  }

  @AfterEach
  void close() {
    exact.close();
  }

  static float[] unit(float... v) {
    double n = 0;
    for (float x : v) {
      n += x * x;
    }
    float[] out = new float[v.length];
    for (int i = 0; i < v.length; i++) {
      out[i] = (float) (v[i] / Math.sqrt(n));
    }
    return out;
  }

  static Map<String, float[]> random(Random rnd, int count, int dim, String prefix) {
    Map<String, float[]> out = new LinkedHashMap<>();
    for (int i = 0; i < count; i++) {
      float[] v = new float[dim];
      for (int j = 0; j < dim; j++) {
        v[j] = (float) rnd.nextGaussian();
      }
      out.put(prefix + i, unit(v));
    }
    return out;
  }

  @Test
  void scoresAreCosinesSortedThenByIdAndUpsertReplaces() {
    exact.upsert("alice", VectorIndex.RECORDS, Map.of(
        "b", unit(1, 0, 0), "a", unit(1, 0, 0), "c", unit(1, 1, 0), "d", unit(-1, 0, 0)));
    List<ScoredId> hits = exact.search("alice", VectorIndex.RECORDS, unit(1, 0, 0), 10, null);
    assertThat(hits).extracting(ScoredId::id).containsExactly("a", "b", "c", "d");
    assertThat(hits.get(0).score()).isCloseTo(1.0, within(1e-6));
    assertThat(hits.get(2).score()).isCloseTo(Math.sqrt(0.5), within(1e-6));
    assertThat(hits.get(3).score()).isCloseTo(-1.0, within(1e-6));
    exact.upsert("alice", VectorIndex.RECORDS, Map.of("d", unit(1, 0, 0)));
    assertThat(exact.size("alice", VectorIndex.RECORDS)).isEqualTo(4);
    assertThat(exact.search("alice", VectorIndex.RECORDS, unit(1, 0, 0), 3, null)).extracting(ScoredId::id)
        .containsExactly("a", "b", "d");
  }

  @Test
  void nonUnitVectorsAreNormalisedSoScoresStayCosines() {
    exact.upsert("alice", VectorIndex.TURNS, Map.of("x", new float[] {3, 4}));
    assertThat(exact.search("alice", VectorIndex.TURNS, new float[] {6, 8}, 1, null).get(0).score())
        .isCloseTo(1.0, within(1e-6));
    assertThatThrownBy(() -> exact.upsert("alice", VectorIndex.TURNS, Map.of("z", new float[] {0, 0})))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void indexesAreIsolatedByNamespaceAndKindAndCanUseDifferentDimensions() {
    exact.upsert("alice", VectorIndex.TURNS, Map.of("t1", unit(1, 0)));
    exact.upsert("alice", VectorIndex.nodes(NodeKind.ENTITY), Map.of("n1", unit(1, 0, 0, 0)));
    exact.upsert("bob", VectorIndex.TURNS, Map.of("t2", unit(0, 1, 0)));
    assertThat(exact.search("alice", VectorIndex.TURNS, unit(1, 1), 5, null)).extracting(ScoredId::id).containsExactly("t1");
    assertThat(exact.search("bob", VectorIndex.TURNS, unit(1, 1, 1), 5, null)).extracting(ScoredId::id).containsExactly("t2");
    assertThat(exact.search("carol", VectorIndex.TURNS, unit(1, 1, 1), 5, null)).isEmpty();
    assertThatThrownBy(() -> exact.upsert("alice", VectorIndex.TURNS, Map.of("t3", unit(1, 0, 0))))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> exact.search("alice", VectorIndex.TURNS, unit(1, 0, 0), 5, null))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> exact.search("alice", VectorIndex.TURNS, unit(1, 0), 0, null))
        .isInstanceOf(IllegalArgumentException.class);
    exact.forget("alice");
    assertThat(exact.size("alice", VectorIndex.TURNS)).isZero();
    assertThat(exact.size("bob", VectorIndex.TURNS)).isEqualTo(1);
    // an emptied index may start over with another dimension
    exact.upsert("alice", VectorIndex.TURNS, Map.of("t3", unit(1, 0, 0)));
    assertThat(exact.size("alice", VectorIndex.TURNS)).isEqualTo(1);
  }

  @Test
  void largeDimensionsAndRemovalSurviveReopen() {
    Map<String, float[]> vectors = random(new Random(7), 20, 1536, "v");
    exact.upsert("alice", VectorIndex.RECORDS, vectors);
    exact.remove("alice", VectorIndex.RECORDS, List.of("v3", "unknown"));
    exact.close();
    exact = new LuceneVectorIndex(dir.resolve("exact"), TestConfigs.FAST.toBuilder().exactSearchMaxVectors(0).build());
    assertThat(exact.size("alice", VectorIndex.RECORDS)).isEqualTo(19);
    List<ScoredId> hits = exact.search("alice", VectorIndex.RECORDS, vectors.get("v5"), 3, null);
    assertThat(hits.get(0).id()).isEqualTo("v5");
    assertThat(hits.get(0).score()).isCloseTo(1.0, within(1e-5));
    assertThat(exact.search("alice", VectorIndex.RECORDS, vectors.get("v3"), 19, null))
        .extracting(ScoredId::id).doesNotContain("v3");
  }

  @Test
  void graphSearchAgreesWithExactScanIncludingFilters() {
    Random rnd = new Random(42);
    Map<String, float[]> vectors = random(rnd, 600, 24, "id");
    Map<String, float[]> noise = random(rnd, 300, 24, "other");
    try (LuceneVectorIndex graph = new LuceneVectorIndex(dir.resolve("graph"),
        TestConfigs.FAST.toBuilder().exactSearchMaxVectors(0).build())) {
      for (LuceneVectorIndex idx : List.of(exact, graph)) {
        idx.upsert("alice", VectorIndex.TURNS, vectors);
        idx.upsert("bob", VectorIndex.TURNS, noise);
        idx.upsert("alice", VectorIndex.RECORDS, noise);
      }
      int agree = 0;
      int total = 0;
      for (int q = 0; q < 20; q++) {
        float[] query = random(rnd, 1, 24, "q").get("q0");
        List<ScoredId> truth = exact.search("alice", VectorIndex.TURNS, query, 10, null);
        List<ScoredId> approx = graph.search("alice", VectorIndex.TURNS, query, 10, null);
        assertThat(approx).hasSize(10).allSatisfy(h -> assertThat(h.id()).startsWith("id"));
        assertThat(approx).isSortedAccordingTo(ExactVectorScan.BEST_FIRST);
        Set<String> truthIds = new HashSet<>(truth.stream().map(ScoredId::id).toList());
        for (ScoredId h : approx) {
          total++;
          if (truthIds.contains(h.id())) {
            agree++;
          }
          // the score mapped back from Lucene's (1+dot)/2 is the cosine
          assertThat(h.score()).isCloseTo(dot(vectors.get(h.id()), query), within(1e-5));
        }
        // a filter passing one id in 50: widening cannot cover it, the exact fallback must
        java.util.function.Predicate<String> rare = id -> Integer.parseInt(id.substring(2)) % 50 == 0;
        assertThat(graph.search("alice", VectorIndex.TURNS, query, 5, rare))
            .isEqualTo(exact.search("alice", VectorIndex.TURNS, query, 5, rare));
        assertThat(exact.search("alice", VectorIndex.TURNS, query, 5, rare))
            .hasSize(5).allSatisfy(h -> assertThat(rare.test(h.id())).isTrue());
      }
      assertThat((double) agree / total).isGreaterThanOrEqualTo(0.9);
    }
  }

  private static double dot(float[] a, float[] b) {
    double s = 0;
    for (int i = 0; i < a.length; i++) {
      s += a[i] * b[i];
    }
    return s;
  }

  @Test
  void upsertAllWritesEveryKindAtOnceOrNone() {
    String tags = VectorIndex.nodes(NodeKind.TAG);
    Map<String, Map<String, float[]>> batch = new LinkedHashMap<>();
    batch.put(VectorIndex.RECORDS, Map.of("r1", unit(1, 0, 0), "r2", unit(0, 1, 0)));
    batch.put(tags, Map.of("t1", unit(0, 0, 1)));
    batch.put(VectorIndex.nodes(NodeKind.ENTITY), Map.of());
    exact.upsertAll("ns", batch);
    assertThat(exact.size("ns", VectorIndex.RECORDS)).isEqualTo(2);
    assertThat(exact.size("ns", tags)).isEqualTo(1);
    assertThat(exact.search("ns", tags, unit(0, 0, 1), 1, null).get(0).id()).isEqualTo("t1");

    // a kind whose dimension clashes with its stored vectors fails the whole call: nothing of it lands
    Map<String, Map<String, float[]>> clash = new LinkedHashMap<>();
    clash.put(VectorIndex.RECORDS, Map.of("r3", unit(1, 1, 0)));
    clash.put(tags, Map.of("t2", unit(1, 1)));
    assertThatThrownBy(() -> exact.upsertAll("ns", clash)).isInstanceOf(IllegalArgumentException.class);
    assertThat(exact.size("ns", VectorIndex.RECORDS)).isEqualTo(2);
    assertThat(exact.size("ns", tags)).isEqualTo(1);
  }
}
