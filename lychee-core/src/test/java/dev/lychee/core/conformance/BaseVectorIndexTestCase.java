package dev.lychee.core.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.lychee.api.NodeKind;
import dev.lychee.api.ScoredId;
import dev.lychee.api.spi.VectorIndex;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Conformance suite of the {@link VectorIndex} contract. Implementations supply
 * {@link #newIndex()}; durable ones also {@link #supportsReopen()} and {@link #reopen(VectorIndex)}.
 * Sizes stay below 5000 vectors per index, where every implementation is expected to be exact.
 * Random data comes from fixed seeds so that failures reproduce.
 */
public abstract class BaseVectorIndexTestCase {

  /** A fresh, empty index. */
  protected abstract VectorIndex newIndex();

  /** True when {@link #reopen} is implemented. */
  protected boolean supportsReopen() {
    return false;
  }

  /** Closes {@code index} and opens a new one over the same files. */
  protected VectorIndex reopen(VectorIndex index) {
    throw new UnsupportedOperationException("this index cannot be reopened");
  }

  protected VectorIndex index;

  @BeforeEach
  void openIndex() {
    index = newIndex();
  }

  @AfterEach
  void closeIndex() {
    if (index != null) {
      index.close();
    }
  }

  private void reopenIfSupported() {
    if (supportsReopen()) {
      index = reopen(index);
    }
  }

  protected static float[] unit(Random rnd, int dim) {
    float[] v = new float[dim];
    double n = 0;
    for (int i = 0; i < dim; i++) {
      v[i] = (float) rnd.nextGaussian();
      n += v[i] * v[i];
    }
    float inv = (float) (1 / Math.sqrt(n));
    for (int i = 0; i < dim; i++) {
      v[i] *= inv;
    }
    return v;
  }

  protected static double dot(float[] a, float[] b) {
    double s = 0;
    for (int i = 0; i < a.length; i++) {
      s += (double) a[i] * b[i];
    }
    return s;
  }

  /** The true top-k by brute force, score descending then id ascending. */
  protected static List<String> bruteForce(Map<String, float[]> data, float[] q, int k) {
    return data.entrySet().stream()
        .map(e -> new ScoredId(e.getKey(), dot(q, e.getValue())))
        .sorted(Comparator.comparingDouble(ScoredId::score).reversed().thenComparing(ScoredId::id))
        .limit(k).map(ScoredId::id).toList();
  }

  private static Map<String, float[]> randomVectors(Random rnd, String prefix, int n, int dim) {
    Map<String, float[]> m = new LinkedHashMap<>();
    for (int i = 0; i < n; i++) {
      m.put(prefix + i, unit(rnd, dim));
    }
    return m;
  }

  @Test
  void searchReturnsExactNeighboursWithCosineScores() {
    Random rnd = new Random(42);
    Map<String, float[]> data = randomVectors(rnd, "v", 1500, 32);
    index.upsert("ns", VectorIndex.RECORDS, data);
    reopenIfSupported();
    assertThat(index.size("ns", VectorIndex.RECORDS)).isEqualTo(1500);
    for (int q = 0; q < 20; q++) {
      float[] query = unit(rnd, 32);
      List<ScoredId> hits = index.search("ns", VectorIndex.RECORDS, query, 10, null);
      assertThat(hits).extracting(ScoredId::id).containsExactlyElementsOf(bruteForce(data, query, 10));
      for (ScoredId h : hits) {
        assertThat(h.score()).isCloseTo(dot(query, data.get(h.id())), within(1e-4));
      }
      for (int i = 1; i < hits.size(); i++) {
        assertThat(hits.get(i - 1).score()).isGreaterThanOrEqualTo(hits.get(i).score());
      }
    }
    // a stored vector finds itself first with score 1
    List<ScoredId> self = index.search("ns", VectorIndex.RECORDS, data.get("v77"), 1, null);
    assertThat(self).singleElement().satisfies(h -> {
      assertThat(h.id()).isEqualTo("v77");
      assertThat(h.score()).isCloseTo(1.0, within(1e-4));
    });
  }

  @Test
  void searchAllAnswersEveryQueryExactlyAsOneSearchDoes() {
    Random rnd = new Random(9);
    Map<String, float[]> data = randomVectors(rnd, "m", 600, 16);
    index.upsert("ns", VectorIndex.TURNS, data);
    List<float[]> queries = List.of(unit(rnd, 16), unit(rnd, 16), data.get("m5"), unit(rnd, 16));
    java.util.function.Predicate<String> even = id -> Integer.parseInt(id.substring(1)) % 2 == 0;
    for (java.util.function.Predicate<String> filter : java.util.Arrays.asList(null, even)) {
      for (int k : new int[] {1, 7, 1000}) {
        List<List<ScoredId>> all = index.searchAll("ns", VectorIndex.TURNS, queries, k, filter);
        assertThat(all).hasSize(queries.size());
        for (int i = 0; i < queries.size(); i++) {
          assertThat(all.get(i)).as("query %d, k %d", i, k)
              .containsExactlyElementsOf(index.search("ns", VectorIndex.TURNS, queries.get(i), k, filter));
        }
      }
    }
    assertThat(index.searchAll("ns", VectorIndex.TURNS, List.of(), 5, null)).isEmpty();
    assertThat(index.searchAll("ns", VectorIndex.RECORDS, queries, 5, null)).hasSize(4).allMatch(List::isEmpty);
    assertThatThrownBy(() -> index.searchAll("ns", VectorIndex.TURNS, queries, 0, null))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void searchKindsAnswersEveryKindExactlyAsSearchAllDoes() {
    Random rnd = new Random(19);
    List<String> kinds = List.of(VectorIndex.nodes(NodeKind.ENTITY), VectorIndex.nodes(NodeKind.TAG),
        VectorIndex.nodes(NodeKind.EVENT_FRAME), VectorIndex.RECORDS);
    index.upsert("ns", kinds.get(0), randomVectors(rnd, "e", 120, 16));
    index.upsert("ns", kinds.get(1), randomVectors(rnd, "t", 40, 16));
    index.upsert("other", kinds.get(2), randomVectors(rnd, "f", 30, 16)); // another namespace only
    index.upsert("ns", kinds.get(3), randomVectors(rnd, "r", 3, 16));
    List<float[]> queries = List.of(unit(rnd, 16), unit(rnd, 16), unit(rnd, 16));
    java.util.function.Predicate<String> notFirst = id -> !id.endsWith("0");
    for (java.util.function.Predicate<String> filter : java.util.Arrays.asList(null, notFirst)) {
      for (int k : new int[] {1, 9, 500}) {
        Map<String, List<List<ScoredId>>> byKind = index.searchKinds("ns", kinds, queries, k, filter);
        assertThat(byKind.keySet()).containsExactlyElementsOf(kinds);
        for (String kind : kinds) {
          assertThat(byKind.get(kind)).as("kind %s, k %d", kind, k)
              .isEqualTo(index.searchAll("ns", kind, queries, k, filter));
        }
      }
    }
    assertThat(index.searchKinds("ns", kinds, queries, 5, null).get(kinds.get(2)))
        .hasSize(3).allMatch(List::isEmpty);
    // a write between two calls is seen by the next one, in every kind
    index.upsert("ns", kinds.get(2), Map.of("new", queries.get(1).clone()));
    assertThat(index.searchKinds("ns", kinds, queries, 1, null).get(kinds.get(2)).get(1))
        .extracting(ScoredId::id).containsExactly("new");
    assertThat(index.searchKinds("ns", List.of(kinds.get(1), kinds.get(1)), queries, 2, null)).hasSize(1);
    assertThat(index.searchKinds("ns", List.of(), queries, 2, null)).isEmpty();
    assertThatThrownBy(() -> index.searchKinds("ns", kinds, queries, 0, null))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void kLargerThanTheIndexReturnsEverything() {
    Random rnd = new Random(1);
    Map<String, float[]> data = randomVectors(rnd, "x", 5, 8);
    index.upsert("ns", VectorIndex.TURNS, data);
    assertThat(index.search("ns", VectorIndex.TURNS, unit(rnd, 8), 100, null)).hasSize(5);
  }

  @Test
  void tiesAreBrokenByIdAscending() {
    float[] v = {1, 0, 0, 0};
    Map<String, float[]> data = new LinkedHashMap<>();
    for (String id : List.of("d", "b", "a", "e", "c")) {
      data.put(id, v.clone());
    }
    data.put("far", new float[] {0, 1, 0, 0});
    index.upsert("ns", VectorIndex.TURNS, data);
    assertThat(index.search("ns", VectorIndex.TURNS, v, 3, null)).extracting(ScoredId::id)
        .containsExactly("a", "b", "c");
    assertThat(index.search("ns", VectorIndex.TURNS, v, 6, null)).extracting(ScoredId::id)
        .containsExactly("a", "b", "c", "d", "e", "far");
  }

  @Test
  void upsertReplacesAVector() {
    index.upsert("ns", VectorIndex.TURNS, Map.of("a", new float[] {1, 0}, "b", new float[] {0, 1}));
    index.upsert("ns", VectorIndex.TURNS, Map.of("a", new float[] {0, -1}));
    reopenIfSupported();
    assertThat(index.size("ns", VectorIndex.TURNS)).isEqualTo(2);
    List<ScoredId> hits = index.search("ns", VectorIndex.TURNS, new float[] {0, 1}, 2, null);
    assertThat(hits).extracting(ScoredId::id).containsExactly("b", "a");
    assertThat(hits.get(1).score()).isCloseTo(-1.0, within(1e-6));
  }

  @Test
  void filteringNeverStarvesTheResult() {
    Random rnd = new Random(3);
    Map<String, float[]> data = randomVectors(rnd, "n", 2000, 16);
    index.upsert("ns", VectorIndex.RECORDS, data);
    float[] q = unit(rnd, 16);
    // accept only the 7 ids that are farthest from the query
    List<String> order = bruteForce(data, q, data.size());
    Set<String> far = new HashSet<>(order.subList(order.size() - 7, order.size()));
    List<ScoredId> hits = index.search("ns", VectorIndex.RECORDS, q, 5, far::contains);
    assertThat(hits).hasSize(5).extracting(ScoredId::id).allSatisfy(id -> assertThat(far).contains(id));
    assertThat(hits).extracting(ScoredId::id).containsExactlyElementsOf(
        order.stream().filter(far::contains).limit(5).toList());
    assertThat(index.search("ns", VectorIndex.RECORDS, q, 5, id -> false)).isEmpty();
    assertThat(index.search("ns", VectorIndex.RECORDS, q, 50, far::contains)).hasSize(7);
  }

  @Test
  void removeDropsIdsAndKeepsTheRestSearchable() {
    Random rnd = new Random(4);
    Map<String, float[]> data = randomVectors(rnd, "r", 300, 12);
    index.upsert("ns", VectorIndex.TURNS, data);
    List<String> gone = new ArrayList<>();
    for (int i = 0; i < 300; i += 3) {
      gone.add("r" + i);
    }
    gone.add("never-there");
    index.remove("ns", VectorIndex.TURNS, gone);
    gone.remove("never-there");
    gone.forEach(data::remove);
    reopenIfSupported();
    assertThat(index.size("ns", VectorIndex.TURNS)).isEqualTo(200);
    for (Map.Entry<String, float[]> e : data.entrySet()) {
      List<ScoredId> top = index.search("ns", VectorIndex.TURNS, e.getValue(), 1, null);
      assertThat(top).extracting(ScoredId::id).containsExactly(e.getKey());
    }
    List<ScoredId> all = index.search("ns", VectorIndex.TURNS, unit(rnd, 12), 1000, null);
    assertThat(all).extracting(ScoredId::id).containsExactlyInAnyOrderElementsOf(data.keySet());
    index.remove("ns", VectorIndex.TURNS, List.copyOf(data.keySet()));
    assertThat(index.size("ns", VectorIndex.TURNS)).isZero();
    assertThat(index.search("ns", VectorIndex.TURNS, unit(rnd, 12), 5, null)).isEmpty();
    index.remove("ghost", VectorIndex.TURNS, List.of("x"));
  }

  @Test
  void randomisedNamespaceAndKindIsolation() {
    Random rnd = new Random(99);
    List<String> kinds = List.of(VectorIndex.TURNS, VectorIndex.RECORDS, VectorIndex.nodes(NodeKind.ENTITY),
        VectorIndex.nodes(NodeKind.EVENT_FRAME));
    Map<String, Map<String, float[]>> truth = new HashMap<>();
    for (int n = 0; n < 10; n++) {
      for (String kind : kinds) {
        // the same ids in every namespace and kind: only the scoping can tell them apart
        Map<String, float[]> data = randomVectors(rnd, "id", 5 + rnd.nextInt(40), 8);
        index.upsert("t" + n, kind, data);
        truth.put("t" + n + "|" + kind, data);
      }
    }
    index.forget("t3");
    index.remove("t4", VectorIndex.TURNS, List.of("id0", "id1", "id2"));
    for (String kind : kinds) {
      truth.put("t3|" + kind, Map.of());
    }
    truth.get("t4|" + VectorIndex.TURNS).keySet().removeAll(List.of("id0", "id1", "id2"));
    reopenIfSupported();
    for (Map.Entry<String, Map<String, float[]>> e : truth.entrySet()) {
      String ns = e.getKey().substring(0, e.getKey().indexOf('|'));
      String kind = e.getKey().substring(e.getKey().indexOf('|') + 1);
      assertThat(index.size(ns, kind)).as(e.getKey()).isEqualTo(e.getValue().size());
      for (int q = 0; q < 3; q++) {
        float[] query = unit(rnd, 8);
        assertThat(index.search(ns, kind, query, 5, null)).extracting(ScoredId::id).as(e.getKey())
            .containsExactlyElementsOf(bruteForce(e.getValue(), query, 5));
      }
      for (String id : e.getValue().keySet()) {
        List<ScoredId> self = index.search(ns, kind, e.getValue().get(id), 1, null);
        assertThat(self.get(0).score()).isCloseTo(1.0, within(1e-4));
      }
    }
    assertThat(index.size("t3", VectorIndex.TURNS)).isZero();
    assertThat(index.search("nobody", VectorIndex.TURNS, unit(rnd, 8), 3, null)).isEmpty();
    assertThat(index.size("t1", "unknown-kind")).isZero();
  }

  @Test
  void namesHoldingSeparatorCharactersNeverAliasEachOther() {
    // joined with NUL, (ns "n\0records", id "1") and (ns "n", id "records\01") would share one key
    String crafted = "n\u0000" + VectorIndex.RECORDS;
    index.upsert(crafted, VectorIndex.RECORDS, Map.of("1", new float[] {1, 0, 0}));
    index.upsert("n", VectorIndex.RECORDS, Map.of(VectorIndex.RECORDS + "\u00001", new float[] {0, 1, 0}));
    reopenIfSupported();
    assertThat(index.size(crafted, VectorIndex.RECORDS)).isEqualTo(1);
    assertThat(index.size("n", VectorIndex.RECORDS)).isEqualTo(1);
    assertThat(index.search(crafted, VectorIndex.RECORDS, new float[] {1, 0, 0}, 5, null))
        .singleElement().satisfies(h -> {
          assertThat(h.id()).isEqualTo("1");
          assertThat(h.score()).isCloseTo(1.0, within(1e-4));
        });
    assertThat(index.search("n", VectorIndex.RECORDS, new float[] {0, 1, 0}, 5, null))
        .extracting(ScoredId::id).containsExactly(VectorIndex.RECORDS + "\u00001");
  }

  @Test
  void forgetRemovesOnlyThatNamespaceAndAllowsReuse() {
    index.upsert("a", VectorIndex.TURNS, Map.of("x", new float[] {1, 0, 0}));
    index.upsert("a", VectorIndex.RECORDS, Map.of("y", new float[] {0, 1, 0}));
    index.upsert("b", VectorIndex.TURNS, Map.of("x", new float[] {1, 0, 0}));
    index.forget("a");
    reopenIfSupported();
    assertThat(index.size("a", VectorIndex.TURNS)).isZero();
    assertThat(index.size("a", VectorIndex.RECORDS)).isZero();
    assertThat(index.size("b", VectorIndex.TURNS)).isEqualTo(1);
    index.forget("never-used");
    // after forgetting, another dimension is welcome
    index.upsert("a", VectorIndex.TURNS, Map.of("z", new float[] {0, 0, 0, 1}));
    assertThat(index.search("a", VectorIndex.TURNS, new float[] {0, 0, 0, 1}, 1, null))
        .extracting(ScoredId::id).containsExactly("z");
  }

  @Test
  void reopenKeepsVectors() {
    assumeTrue(supportsReopen(), "index is not durable");
    Random rnd = new Random(8);
    Map<String, float[]> data = randomVectors(rnd, "p", 400, 24);
    index.upsert("ns", VectorIndex.RECORDS, data);
    index.upsert("other", VectorIndex.RECORDS, randomVectors(rnd, "p", 10, 24));
    float[] q = unit(rnd, 24);
    List<ScoredId> before = index.search("ns", VectorIndex.RECORDS, q, 10, null);
    index = reopen(index);
    assertThat(index.size("ns", VectorIndex.RECORDS)).isEqualTo(400);
    assertThat(index.search("ns", VectorIndex.RECORDS, q, 10, null)).isEqualTo(before);
    index.upsert("ns", VectorIndex.RECORDS, Map.of("new", q.clone()));
    assertThat(index.search("ns", VectorIndex.RECORDS, q, 1, null)).extracting(ScoredId::id).containsExactly("new");
  }

  @Test
  void concurrentWritersAndReadersEndWithExactCounts() throws Exception {
    int writers = 8;
    int batches = 20;
    int perBatch = 10;
    int dim = 16;
    ConcurrentLinkedQueue<Throwable> errors = new ConcurrentLinkedQueue<>();
    AtomicBoolean done = new AtomicBoolean();
    CountDownLatch start = new CountDownLatch(1);
    List<Thread> threads = new ArrayList<>();
    for (int w = 0; w < writers; w++) {
      int seed = w;
      String ns = "ns" + (w % 2);
      threads.add(new Thread(() -> {
        Random rnd = new Random(seed);
        try {
          start.await();
          for (int b = 0; b < batches; b++) {
            Map<String, float[]> batch = new HashMap<>();
            for (int i = 0; i < perBatch; i++) {
              batch.put("w" + seed + "-" + b + "-" + i, unit(rnd, dim));
            }
            index.upsert(ns, VectorIndex.TURNS, batch);
            // a throw-away vector per batch, removed again
            index.upsert(ns, VectorIndex.TURNS, Map.of("tmp" + seed, unit(rnd, dim)));
            index.remove(ns, VectorIndex.TURNS, List.of("tmp" + seed));
          }
        } catch (Throwable t) {
          errors.add(t);
        }
      }));
    }
    for (int r = 0; r < 3; r++) {
      int seed = 100 + r;
      threads.add(new Thread(() -> {
        Random rnd = new Random(seed);
        try {
          start.await();
          while (!done.get()) {
            List<ScoredId> hits = index.search("ns" + rnd.nextInt(2), VectorIndex.TURNS, unit(rnd, dim), 5, null);
            assertThat(hits.size()).isLessThanOrEqualTo(5);
            for (int i = 1; i < hits.size(); i++) {
              assertThat(hits.get(i - 1).score()).isGreaterThanOrEqualTo(hits.get(i).score());
            }
            // a pause between rounds: spinning readers would starve the writers they are meant to
            // overlap on a small machine, and the test would time the scheduler, not the store
            Thread.sleep(1);
          }
        } catch (Throwable t) {
          errors.add(t);
        }
      }));
    }
    threads.forEach(Thread::start);
    start.countDown();
    for (int i = 0; i < writers; i++) {
      threads.get(i).join(TimeUnit.MINUTES.toMillis(2));
    }
    done.set(true);
    for (Thread t : threads) {
      t.join(TimeUnit.MINUTES.toMillis(1));
    }
    assertThat(errors).isEmpty();
    int expected = writers / 2 * batches * perBatch;
    assertThat(index.size("ns0", VectorIndex.TURNS)).isEqualTo(expected);
    assertThat(index.size("ns1", VectorIndex.TURNS)).isEqualTo(expected);
    Set<String> all = index.search("ns0", VectorIndex.TURNS, unit(new Random(0), dim), 10_000, null)
        .stream().map(ScoredId::id).collect(Collectors.toSet());
    assertThat(all).hasSize(expected).allSatisfy(id -> assertThat(id).doesNotStartWith("tmp"));
  }

  @Test
  void badArgumentsGiveClearExceptions() {
    index.upsert("ns", VectorIndex.TURNS, Map.of("a", new float[] {1, 0, 0}));
    assertThatThrownBy(() -> index.upsert("ns", VectorIndex.TURNS, Map.of("b", new float[] {1, 0})))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("dimension");
    assertThatThrownBy(() -> index.search("ns", VectorIndex.TURNS, new float[] {1, 0}, 3, null))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("dimension");
    assertThatThrownBy(() -> index.search("ns", VectorIndex.TURNS, new float[] {1, 0, 0}, 0, null))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> index.search("ns", VectorIndex.TURNS, new float[] {1, 0, 0}, -3, null))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> index.upsert("", VectorIndex.TURNS, Map.of("c", new float[] {1, 0, 0})))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> index.upsert("ns", " ", Map.of("c", new float[] {1, 0, 0})))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> index.search(" ", VectorIndex.TURNS, new float[] {1, 0, 0}, 1, null))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> index.forget(""))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> index.upsert("ns", VectorIndex.TURNS, Map.of("n", new float[] {Float.NaN, 0, 0})))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> index.upsert("ns", VectorIndex.TURNS, Map.of(" ", new float[] {1, 0, 0})))
        .isInstanceOf(IllegalArgumentException.class);
    // a rejected batch leaves nothing behind, not even its valid vectors
    Map<String, float[]> mixed = new LinkedHashMap<>();
    mixed.put("ok", new float[] {0, 1, 0});
    mixed.put("bad", new float[] {0, 1});
    assertThatThrownBy(() -> index.upsert("ns", VectorIndex.TURNS, mixed)).isInstanceOf(IllegalArgumentException.class);
    assertThat(index.size("ns", VectorIndex.TURNS)).isEqualTo(1);
    index.upsert("ns", VectorIndex.TURNS, Map.of());
    assertThat(index.size("ns", VectorIndex.TURNS)).isEqualTo(1);
  }

  @Test
  void closedIndexRefusesCalls() {
    VectorIndex v = newIndex();
    v.close();
    assertThatThrownBy(() -> v.size("ns", VectorIndex.TURNS)).isInstanceOf(IllegalStateException.class);
  }
}
