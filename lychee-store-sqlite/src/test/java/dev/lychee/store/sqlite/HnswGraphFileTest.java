package dev.lychee.store.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.jelmerk.hnswlib.core.hnsw.HnswIndex;
import java.io.BufferedOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.OutputStream;
import java.io.Serializable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Saved HNSW graphs are read back, and a crafted file can never run code: it is refused and rebuilt. */
class HnswGraphFileTest {
  @TempDir Path dir;

  /** A class whose deserialization has a visible effect, standing in for a gadget on the class path. */
  static final class Canary implements Serializable {
    private static final long serialVersionUID = 1L;
    static final AtomicBoolean RAN = new AtomicBoolean();

    private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
      in.defaultReadObject();
      RAN.set(true);
    }
  }

  /** 50 distinct unit vectors, so each is its own nearest neighbour. */
  private static Map<String, float[]> vectors() {
    java.util.Random random = new java.util.Random(42);
    Map<String, float[]> v = new LinkedHashMap<>();
    for (int i = 0; i < 50; i++) {
      float[] x = new float[8];
      double norm = 0;
      for (int d = 0; d < 8; d++) {
        x[d] = (float) random.nextGaussian();
        norm += x[d] * x[d];
      }
      for (int d = 0; d < 8; d++) {
        x[d] /= (float) Math.sqrt(norm);
      }
      v.put("id" + i, x);
    }
    return v;
  }

  @Test
  void aSavedGraphIsReadBackUnderTheFilter() throws Exception {
    HnswGraph g = HnswGraph.build(vectors(), 8, SqliteStoreConfig.defaults());
    Path file = dir.resolve("g.hnsw");
    g.save(file, 7);
    HnswGraph back = HnswGraph.loadIfFresh(file, 7, 50);
    assertThat(back).isNotNull();
    assertThat(back.search(vectors().get("id3"), 1, id -> true)).extracting(s -> s.id()).containsExactly("id3");
    assertThat(HnswGraph.loadIfFresh(file, 8, 50)).as("a stale version is not loaded").isNull();
  }

  @Test
  void aFileHoldingAnotherClassIsRefusedBeforeItsCodeRuns() throws Exception {
    Path file = dir.resolve("crafted.hnsw");
    try (OutputStream raw = Files.newOutputStream(file);
        DataOutputStream header = new DataOutputStream(new BufferedOutputStream(raw))) {
      header.writeInt(HnswGraph.MAGIC);
      header.writeLong(7);
      header.writeInt(50);
      header.writeInt(8);
      header.writeInt(16);
      header.flush();
      ObjectOutputStream body = new ObjectOutputStream(header);
      body.writeObject(new Canary());
      body.flush();
    }
    // what the store did before: hnswlib's own loader deserializes whatever the file names
    try (InputStream in = Files.newInputStream(file)) {
      in.skipNBytes(4 + 8 + 4 + 4 + 4);
      try {
        HnswIndex.load(in, getClass().getClassLoader());
      } catch (RuntimeException | IOException expected) {
        // the cast to an index fails, but only after the canary's code ran
      }
    }
    assertThat(Canary.RAN.getAndSet(false)).as("the unfiltered loader runs the file's code").isTrue();

    assertThat(HnswGraph.loadIfFresh(file, 7, 50)).as("refused: the caller rebuilds from the rows").isNull();
    assertThat(Canary.RAN.get()).as("the filtered loader never ran it").isFalse();
  }
}
