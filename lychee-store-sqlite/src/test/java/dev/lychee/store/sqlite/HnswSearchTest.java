package dev.lychee.store.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lychee.api.ScoredId;
import dev.lychee.api.spi.VectorIndex;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The HNSW path above the exact-search threshold: recall, filtering, persisted graph files. */
class HnswSearchTest {
  private static final int DIM = 32;
  /** Size of the recall test; the other tests use a smaller index that is still above the threshold. */
  private static final int N = 2500;
  private static final int SMALL = 1200;

  @TempDir
  Path dir;

  private static SqliteStoreConfig config() {
    return SqliteStoreConfig.builder().synchronousFull(false).exactSearchMaxVectors(1000).build();
  }

  private static float[] unit(Random rnd) {
    float[] v = new float[DIM];
    double n = 0;
    for (int i = 0; i < DIM; i++) {
      v[i] = (float) rnd.nextGaussian();
      n += v[i] * v[i];
    }
    for (int i = 0; i < DIM; i++) {
      v[i] /= (float) Math.sqrt(n);
    }
    return v;
  }

  private static double dot(float[] a, float[] b) {
    double s = 0;
    for (int i = 0; i < a.length; i++) {
      s += a[i] * b[i];
    }
    return s;
  }

  private static List<String> exact(Map<String, float[]> data, float[] q, int k, Set<String> allowed) {
    return data.entrySet().stream().filter(e -> allowed == null || allowed.contains(e.getKey()))
        .sorted(Comparator.comparingDouble((Map.Entry<String, float[]> e) -> -dot(q, e.getValue()))
            .thenComparing(Map.Entry::getKey))
        .limit(k).map(Map.Entry::getKey).toList();
  }

  private static Map<String, float[]> data(Random rnd, int n) {
    Map<String, float[]> data = new LinkedHashMap<>();
    for (int i = 0; i < n; i++) {
      data.put("v" + i, unit(rnd));
    }
    return data;
  }

  @Test
  void recallAtTenIsHighAboveTheThreshold() {
    Random rnd = new Random(2026);
    Map<String, float[]> data = data(rnd, N);
    try (SqliteVectorIndex index = SqliteVectorIndex.open(dir.resolve("v.db"), config())) {
      index.upsert("ns", VectorIndex.RECORDS, data);
      double recall = 0;
      int top1 = 0;
      int queries = 50;
      for (int q = 0; q < queries; q++) {
        float[] query = unit(rnd);
        List<String> truth = exact(data, query, 10, null);
        List<String> got = index.search("ns", VectorIndex.RECORDS, query, 10, null).stream().map(ScoredId::id).toList();
        Set<String> hit = new HashSet<>(got);
        hit.retainAll(truth);
        recall += hit.size() / 10.0;
        if (!got.isEmpty() && got.get(0).equals(truth.get(0))) {
          top1++;
        }
      }
      assertThat(index.graphBuilds()).isEqualTo(1);
      assertThat(recall / queries).isGreaterThanOrEqualTo(0.9);
      assertThat(top1).isGreaterThanOrEqualTo((int) (0.9 * queries));
    }
  }

  @Test
  void filteringOnTheGraphNeverStarves() {
    Random rnd = new Random(7);
    Map<String, float[]> data = data(rnd, SMALL);
    try (SqliteVectorIndex index = SqliteVectorIndex.open(dir.resolve("f.db"), config())) {
      index.upsert("ns", VectorIndex.TURNS, data);
      float[] q = unit(rnd);
      List<String> all = exact(data, q, SMALL, null);
      Set<String> far = new HashSet<>(all.subList(SMALL - 6, SMALL));
      List<ScoredId> hits = index.search("ns", VectorIndex.TURNS, q, 5, far::contains);
      assertThat(hits).extracting(ScoredId::id).containsExactlyElementsOf(exact(data, q, 5, far));
      assertThat(index.graphBuilds()).isEqualTo(1);
    }
  }

  @Test
  void persistedGraphsAreReusedAndRebuiltWhenStaleMissingOrCorrupt() throws Exception {
    Random rnd = new Random(11);
    Map<String, float[]> data = data(rnd, SMALL);
    Path db = dir.resolve("p.db");
    float[] q = unit(rnd);
    List<ScoredId> before;
    Path file;
    try (SqliteVectorIndex index = SqliteVectorIndex.open(db, config())) {
      index.upsert("ns", VectorIndex.RECORDS, data);
      before = index.search("ns", VectorIndex.RECORDS, q, 10, null);
      assertThat(index.graphBuilds()).isEqualTo(1);
      file = index.graphFile("ns", VectorIndex.RECORDS);
      assertThat(file).exists();
    }
    try (SqliteVectorIndex index = SqliteVectorIndex.open(db, config())) {
      assertThat(index.search("ns", VectorIndex.RECORDS, q, 10, null)).isEqualTo(before);
      assertThat(index.graphLoads()).isEqualTo(1);
      assertThat(index.graphBuilds()).isZero();
      // a write makes the file stale: the next search rebuilds and sees the new vector
      index.upsert("ns", VectorIndex.RECORDS, Map.of("fresh", q.clone()));
      assertThat(index.search("ns", VectorIndex.RECORDS, q, 1, null)).extracting(ScoredId::id).containsExactly("fresh");
      assertThat(index.graphBuilds()).isEqualTo(1);
    }
    try (SqliteVectorIndex index = SqliteVectorIndex.open(db, config())) {
      assertThat(index.search("ns", VectorIndex.RECORDS, q, 1, null)).extracting(ScoredId::id).containsExactly("fresh");
      assertThat(index.graphLoads()).isEqualTo(1);
    }
    Files.delete(file);
    try (SqliteVectorIndex index = SqliteVectorIndex.open(db, config())) {
      assertThat(index.search("ns", VectorIndex.RECORDS, q, 1, null)).extracting(ScoredId::id).containsExactly("fresh");
      assertThat(index.graphBuilds()).isEqualTo(1);
      assertThat(file).exists();
    }
    Files.write(file, new byte[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17});
    try (SqliteVectorIndex index = SqliteVectorIndex.open(db, config())) {
      assertThat(index.search("ns", VectorIndex.RECORDS, q, 1, null)).extracting(ScoredId::id).containsExactly("fresh");
      assertThat(index.graphBuilds()).isEqualTo(1);
      // forgetting the namespace deletes its graph file
      index.forget("ns");
      assertThat(file).doesNotExist();
      assertThat(index.search("ns", VectorIndex.RECORDS, q, 1, null)).isEmpty();
    }
  }

  @Test
  void aTinyCacheStillAnswersCorrectly() {
    Random rnd = new Random(3);
    SqliteStoreConfig tiny = SqliteStoreConfig.builder().synchronousFull(false).vectorCacheMaxBytes(1024).build();
    try (SqliteVectorIndex index = SqliteVectorIndex.open(dir.resolve("c.db"), tiny)) {
      Map<String, Map<String, float[]>> all = new LinkedHashMap<>();
      for (int n = 0; n < 4; n++) {
        Map<String, float[]> d = new LinkedHashMap<>();
        for (int i = 0; i < 100; i++) {
          d.put("n" + n + "-" + i, unit(rnd));
        }
        index.upsert("ns" + n, VectorIndex.TURNS, d);
        all.put("ns" + n, d);
      }
      for (int round = 0; round < 3; round++) {
        for (int n = 0; n < 4; n++) {
          float[] q = unit(rnd);
          assertThat(index.search("ns" + n, VectorIndex.TURNS, q, 3, null)).extracting(ScoredId::id)
              .containsExactlyElementsOf(exact(all.get("ns" + n), q, 3, null));
        }
      }
    }
  }
}
