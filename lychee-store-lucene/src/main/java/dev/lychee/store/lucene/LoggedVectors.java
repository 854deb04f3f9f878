package dev.lychee.store.lucene;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.apache.lucene.index.IndexWriter;

/**
 * The write-ahead log entry of a vector write ({@code upsert}, {@code upsertAll}): the namespace,
 * then per kind its unit-length vectors by id, in binary (a JSON array of floats would be several
 * times larger). Replaying it replaces each vector's document by its unique key, which changes
 * nothing when a commit holds it already, so it is idempotent as the log requires.
 *
 * @param namespace the logical indexes' namespace
 * @param kinds each kind's vectors, in the order they were written
 */
record LoggedVectors(String namespace, List<Kind> kinds) {
  /**
   * One kind's vectors.
   *
   * @param kind the logical index within the namespace
   * @param unit the unit-length vectors by id, as written
   */
  record Kind(String kind, List<Map.Entry<String, float[]>> unit) {}

  /**
   * The entry's bytes. Each vector's floats go in as one block of big-endian bits, the same bytes
   * as {@link DataOutputStream#writeFloat} per float, into a buffer sized for all of them up front.
   * Why (round twenty-four, measurements.md §6): a call per float, each one a synchronized write of
   * four single bytes into a buffer that grew by copying, was most of this method's samples.
   */
  byte[] toBytes() {
    int floats = 0;
    int ids = 0;
    for (Kind k : kinds) {
      for (Map.Entry<String, float[]> e : k.unit()) {
        floats += e.getValue().length;
        ids += e.getKey().length() + 8;
      }
    }
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(64 + namespace.length() + 16 * kinds.size() + ids + 4 * floats);
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      out.writeUTF(namespace);
      out.writeInt(kinds.size());
      ByteBuffer block = ByteBuffer.allocate(0);
      for (Kind k : kinds) {
        out.writeUTF(k.kind());
        out.writeInt(k.unit().size());
        for (Map.Entry<String, float[]> e : k.unit()) {
          out.writeUTF(e.getKey());
          float[] v = e.getValue();
          out.writeInt(v.length);
          if (block.capacity() < 4 * v.length) {
            block = ByteBuffer.allocate(4 * v.length);
          }
          block.clear();
          for (float f : v) {
            block.putInt(Float.floatToIntBits(f));
          }
          out.write(block.array(), 0, block.position());
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e); // a byte array does not fail
    }
    return bytes.toByteArray();
  }

  static LoggedVectors parse(byte[] entry) throws IOException {
    try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(entry))) {
      String namespace = in.readUTF();
      int kindCount = in.readInt();
      List<Kind> kinds = new ArrayList<>(kindCount);
      for (int k = 0; k < kindCount; k++) {
        String kind = in.readUTF();
        int n = in.readInt();
        List<Map.Entry<String, float[]>> unit = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
          String id = in.readUTF();
          float[] v = new float[in.readInt()];
          for (int d = 0; d < v.length; d++) {
            v[d] = in.readFloat();
          }
          unit.add(Map.entry(id, v));
        }
        kinds.add(new Kind(kind, List.copyOf(unit)));
      }
      return new LoggedVectors(namespace, List.copyOf(kinds));
    }
  }

  /**
   * Writes every vector's document, each replacing the one of its key, in one writer call ({@link
   * DocumentBlock}): a commit running meanwhile holds all of them or none. The same call as the
   * write that logged it; {@code graph} says per kind whether its vectors go into the HNSW graph
   * field or the flat one ({@link VectorFields}), which the live write and a replay decide by the
   * same rule from the index as it is before the write ({@code LuceneVectorIndex}).
   */
  void apply(IndexWriter writer, Predicate<Kind> graph) throws IOException {
    DocumentBlock.Builder block = DocumentBlock.builder();
    for (Kind k : kinds) {
      boolean toGraph = graph.test(k);
      for (Map.Entry<String, float[]> e : k.unit()) {
        block.add(VectorFields.uid(namespace, k.kind(), e.getKey()),
            VectorFields.vector(namespace, k.kind(), e.getKey(), e.getValue(), toGraph));
      }
    }
    block.build().write(writer, () -> {});
  }
}
