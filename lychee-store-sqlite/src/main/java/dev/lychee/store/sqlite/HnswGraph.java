package dev.lychee.store.sqlite;

import com.github.jelmerk.hnswlib.core.DistanceFunctions;
import com.github.jelmerk.hnswlib.core.Item;
import com.github.jelmerk.hnswlib.core.SearchResult;
import com.github.jelmerk.hnswlib.core.hnsw.HnswIndex;
import dev.lychee.api.ScoredId;
import dev.lychee.core.vector.Vectors;
import dev.lychee.core.store.PrivateFiles;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.ObjectInputFilter;
import java.io.ObjectInputStream;
import java.io.ObjectStreamClass;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.function.Predicate;

/**
 * An immutable HNSW graph (hnswlib, inner-product distance) over one (namespace, kind), built from
 * the stored vectors and never updated in place: writes to its (namespace, kind) drop it and the
 * next search rebuilds it. Scores are recomputed as exact dot products of the hits.
 */
final class HnswGraph {
  static final int MAGIC = 0x4C594857; // "LYHW"
  private static final Comparator<ScoredId> BEST_FIRST =
      Comparator.comparingDouble(ScoredId::score).reversed().thenComparing(ScoredId::id);

  /** One stored vector as hnswlib wants it. */
  record VecItem(String id, float[] vector) implements Item<String, float[]> {
    @Override
    public int dimensions() {
      return vector.length;
    }
  }

  private final HnswIndex<String, float[], VecItem, Float> index;
  private final int dim;
  private final int m;

  private HnswGraph(HnswIndex<String, float[], VecItem, Float> index, int dim, int m) {
    this.index = index;
    this.dim = dim;
    this.m = m;
  }

  /** Builds a graph over {@code vectors} (all of dimension {@code dim}). */
  static HnswGraph build(Map<String, float[]> vectors, int dim, SqliteStoreConfig config) {
    HnswIndex<String, float[], VecItem, Float> index = HnswIndex
        .newBuilder(dim, DistanceFunctions.FLOAT_INNER_PRODUCT, Math.max(1, vectors.size()))
        .withM(config.hnswM()).withEfConstruction(config.hnswEfConstruction()).withEf(config.hnswEf())
        .build();
    List<VecItem> items = new ArrayList<>(vectors.size());
    vectors.forEach((id, v) -> items.add(new VecItem(id, v)));
    try {
      index.addAll(items);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while building an HNSW index", e);
    }
    return new HnswGraph(index, dim, config.hnswM());
  }

  int size() {
    return index.size();
  }

  int dimension() {
    return dim;
  }

  /** Approximate heap bytes: vectors, ids, and the level-0 links that dominate the graph. */
  long approximateBytes() {
    return (long) index.size() * (dim * 4L + 2L * m * 4L + 160L);
  }

  /**
   * The best {@code k} accepted ids. With a filter, the fetch widens ({@code max(5k, min(k+80,
   * 200))}, then fourfold twice); if that still leaves fewer than {@code k}, an exact scan over the
   * graph's items finishes the job, so filtering never starves the result.
   */
  List<ScoredId> search(float[] query, int k, Predicate<String> filter) {
    if (query.length != dim) {
      throw new IllegalArgumentException("query has dimension " + query.length + " but the index holds dimension " + dim);
    }
    int n = index.size();
    // without a filter, fetch twice k so that ties at the cut-off are settled by id, not by graph order
    long fetch = filter == null ? 2L * k : Math.max(5L * k, Math.min(k + 80L, 200L));
    for (int round = 0; round < 3; round++) {
      int want = (int) Math.min(fetch, n);
      List<ScoredId> hits = new ArrayList<>();
      Set<String> seen = new HashSet<>();
      for (SearchResult<VecItem, Float> r : index.findNearest(query, want)) {
        VecItem item = r.item();
        if ((filter == null || filter.test(item.id())) && seen.add(item.id())) {
          hits.add(new ScoredId(item.id(), Vectors.dot(query, item.vector())));
        }
      }
      if (hits.size() >= k || filter == null || want >= n && hits.size() == countAccepted(filter)) {
        hits.sort(BEST_FIRST);
        return hits.size() > k ? List.copyOf(hits.subList(0, k)) : hits;
      }
      fetch *= 4;
    }
    return exactScan(query, k, filter);
  }

  private int countAccepted(Predicate<String> filter) {
    int c = 0;
    for (VecItem item : index.items()) {
      if (filter.test(item.id())) {
        c++;
      }
    }
    return c;
  }

  private List<ScoredId> exactScan(float[] query, int k, Predicate<String> filter) {
    PriorityQueue<ScoredId> heap = new PriorityQueue<>(BEST_FIRST.reversed());
    for (VecItem item : index.items()) {
      if (filter != null && !filter.test(item.id())) {
        continue;
      }
      ScoredId hit = new ScoredId(item.id(), Vectors.dot(query, item.vector()));
      if (heap.size() < k) {
        heap.add(hit);
      } else if (BEST_FIRST.compare(hit, heap.peek()) < 0) {
        heap.poll();
        heap.add(hit);
      }
    }
    List<ScoredId> out = new ArrayList<>(heap);
    out.sort(BEST_FIRST);
    return out;
  }

  /**
   * Saves the graph with a header naming the data version it was built from; written to a temporary
   * file first and moved into place, so a crash never leaves a torn file under the real name.
   */
  void save(Path file, long version) throws IOException {
    PrivateFiles.createDirectories(file.getParent());
    Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
    try (OutputStream raw = Files.newOutputStream(tmp);
        DataOutputStream out = new DataOutputStream(new BufferedOutputStream(raw))) {
      out.writeInt(MAGIC);
      out.writeLong(version);
      out.writeInt(index.size());
      out.writeInt(dim);
      out.writeInt(m);
      out.flush();
      index.save(out);
      out.flush();
    }
    Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }

  /**
   * The only classes a saved graph may name: hnswlib's index, its serializer and distance function,
   * our item record, and the JDK types they hold. A file is a cache anyone with write access to the
   * directory could replace, and Java deserialization of an arbitrary class can run that class's
   * code, so anything else is refused before it is instantiated (and the graph is rebuilt).
   */
  static final ObjectInputFilter GRAPH_CLASSES = ObjectInputFilter.Config.createFilter(
      "maxdepth=20;maxrefs=50000000;maxarray=200000000;"
          + "com.github.jelmerk.hnswlib.core.hnsw.HnswIndex;"
          + "com.github.jelmerk.hnswlib.core.hnsw.HnswIndex$*;"
          + "com.github.jelmerk.hnswlib.core.JavaObjectSerializer;"
          + "com.github.jelmerk.hnswlib.core.DistanceFunctions$*;"
          + "dev.lychee.store.sqlite.HnswGraph$VecItem;"
          + "java.lang.Enum;java.lang.String;java.lang.Integer;java.lang.Float;java.lang.Number;"
          + "java.util.Comparators$NaturalOrderComparator;"
          + "!*");

  /** Reads the serialized index under {@link #GRAPH_CLASSES}; null when the stream holds something else. */
  @SuppressWarnings("unchecked")
  private static HnswIndex<String, float[], VecItem, Float> readIndex(InputStream in) throws IOException {
    ClassLoader loader = HnswGraph.class.getClassLoader();
    ObjectInputStream objects = new ObjectInputStream(in) {
      @Override
      protected Class<?> resolveClass(ObjectStreamClass desc) throws IOException, ClassNotFoundException {
        return Class.forName(desc.getName(), false, loader);
      }
    };
    objects.setObjectInputFilter(GRAPH_CLASSES);
    try {
      Object o = objects.readObject();
      return o instanceof HnswIndex<?, ?, ?, ?> index ? (HnswIndex<String, float[], VecItem, Float>) index : null;
    } catch (ClassNotFoundException e) {
      return null;
    }
  }

  /**
   * Loads a saved graph if it was built from data {@code version} with {@code count} vectors;
   * returns null when the file is missing, stale or unreadable (the caller rebuilds).
   */
  static HnswGraph loadIfFresh(Path file, long version, int count) {
    if (!Files.isRegularFile(file)) {
      return null;
    }
    try (InputStream raw = Files.newInputStream(file);
        DataInputStream in = new DataInputStream(new BufferedInputStream(raw))) {
      if (in.readInt() != MAGIC || in.readLong() != version || in.readInt() != count) {
        return null;
      }
      int dim = in.readInt();
      int m = in.readInt();
      HnswIndex<String, float[], VecItem, Float> index = readIndex(in);
      return index != null && index.size() == count ? new HnswGraph(index, dim, m) : null;
    } catch (IOException | RuntimeException e) {
      // a torn or foreign file is only a cache: rebuild from the rows
      return null;
    }
  }
}
