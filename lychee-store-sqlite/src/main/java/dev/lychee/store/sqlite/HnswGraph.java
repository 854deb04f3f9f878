package dev.lychee.store.sqlite;

import com.github.jelmerk.hnswlib.core.DistanceFunctions;
import com.github.jelmerk.hnswlib.core.hnsw.HnswIndex;
import dev.lychee.api.ScoredId;
import dev.lychee.core.vector.HnswSearch;
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
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * An immutable HNSW graph (hnswlib, inner-product distance) over one (namespace, kind), built from
 * the stored vectors and never updated in place: writes to its (namespace, kind) drop it and the
 * next search rebuilds it. Scores are recomputed as exact dot products of the hits.
 */
final class HnswGraph {
  static final int MAGIC = 0x4C594857; // "LYHW"
  private final HnswIndex<String, float[], HnswSearch.Item, Float> index;
  private final int dim;
  private final int m;

  private HnswGraph(HnswIndex<String, float[], HnswSearch.Item, Float> index, int dim, int m) {
    this.index = index;
    this.dim = dim;
    this.m = m;
  }

  /** Builds a graph over {@code vectors} (all of dimension {@code dim}). */
  static HnswGraph build(Map<String, float[]> vectors, int dim, SqliteStoreConfig config) {
    HnswIndex<String, float[], HnswSearch.Item, Float> index = HnswIndex
        .newBuilder(dim, DistanceFunctions.FLOAT_INNER_PRODUCT, Math.max(1, vectors.size()))
        .withM(config.hnswM()).withEfConstruction(config.hnswEfConstruction()).withEf(config.hnswEf())
        .build();
    List<HnswSearch.Item> items = new ArrayList<>(vectors.size());
    vectors.forEach((id, v) -> items.add(new HnswSearch.Item(id, v)));
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

  /** The best {@code k} accepted ids ({@link HnswSearch#search}). */
  List<ScoredId> search(float[] query, int k, Predicate<String> filter) {
    return HnswSearch.search(index, dim, query, k, filter);
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
   * core's item record, and the JDK types they hold. A file is a cache anyone with write access to the
   * directory could replace, and Java deserialization of an arbitrary class can run that class's
   * code, so anything else is refused before it is instantiated (and the graph is rebuilt).
   */
  static final ObjectInputFilter GRAPH_CLASSES = ObjectInputFilter.Config.createFilter(
      "maxdepth=20;maxrefs=50000000;maxarray=200000000;"
          + "com.github.jelmerk.hnswlib.core.hnsw.HnswIndex;"
          + "com.github.jelmerk.hnswlib.core.hnsw.HnswIndex$*;"
          + "com.github.jelmerk.hnswlib.core.JavaObjectSerializer;"
          + "com.github.jelmerk.hnswlib.core.DistanceFunctions$*;"
          + "dev.lychee.core.vector.HnswSearch$Item;"
          + "java.lang.Enum;java.lang.String;java.lang.Integer;java.lang.Float;java.lang.Number;"
          + "java.util.Comparators$NaturalOrderComparator;"
          + "!*");

  /** Reads the serialized index under {@link #GRAPH_CLASSES}; null when the stream holds something else. */
  @SuppressWarnings("unchecked")
  private static HnswIndex<String, float[], HnswSearch.Item, Float> readIndex(InputStream in) throws IOException {
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
      return o instanceof HnswIndex<?, ?, ?, ?> index ? (HnswIndex<String, float[], HnswSearch.Item, Float>) index : null;
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
      HnswIndex<String, float[], HnswSearch.Item, Float> index = readIndex(in);
      return index != null && index.size() == count ? new HnswGraph(index, dim, m) : null;
    } catch (IOException | RuntimeException e) {
      // a torn or foreign file is only a cache: rebuild from the rows
      return null;
    }
  }
}
