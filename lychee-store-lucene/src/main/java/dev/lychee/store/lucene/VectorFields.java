package dev.lychee.store.lucene;

import dev.lychee.api.spi.CompositeKey;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.KnnFloatVectorField;
import org.apache.lucene.document.SortedDocValuesField;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.index.Term;
import org.apache.lucene.index.VectorSimilarityFunction;
import org.apache.lucene.util.BytesRef;

/**
 * Fields of the vector index: one document per (namespace, kind, id). The vector lives in a field
 * named after its dimension, because Lucene fixes one dimension per field for the whole index
 * while different logical indexes (namespaces, kinds) may use different embedders; and there are
 * two such fields per dimension, one per layout: {@link #graphField} ({@link
 * LycheeHnswVectorsFormat}, each segment builds an HNSW graph of it) and {@link #flatField}
 * ({@link LycheeFlatVectorsFormat}, no graph). A document holds its vector in exactly one of them
 * (which one, {@code LuceneVectorIndex} decides); indexes written before the flat field existed
 * hold every vector in the graph field.
 */
final class VectorFields {
  private VectorFields() {}

  /** Unique key: namespace, kind and id joined by NUL. */
  static final String UID = "uid";
  /** Namespace (keyword). */
  static final String NS = "ns";
  /** The logical index: namespace and kind as one unambiguous key (keyword). */
  static final String SCOPE = "scope";
  /** The caller's id (sorted doc values, for cheap per-document reads, and stored). */
  static final String ID = "id";
  /** The vector's dimension (stored). */
  static final String DIM = "dim";

  private static final String FLAT_PREFIX = "vecflat_";

  /** The field of vectors that go into HNSW graphs (the only vector field of earlier indexes). */
  static String graphField(int dimension) {
    return "vec_" + dimension;
  }

  /** The field of vectors stored with no graph. */
  static String flatField(int dimension) {
    return FLAT_PREFIX + dimension;
  }

  /** Whether {@code field} is a {@link #flatField} (for the codec's choice of format per field). */
  static boolean isFlat(String field) {
    return field.startsWith(FLAT_PREFIX);
  }

  static Term uid(String namespace, String kind, String id) {
    return new Term(UID, CompositeKey.of(namespace, kind, id));
  }

  static Term scope(String namespace, String kind) {
    return new Term(SCOPE, CompositeKey.of(namespace, kind));
  }

  /** A vector's document, its vector in the {@link #graphField} if {@code graph}, else in the {@link #flatField}. */
  static Document vector(String namespace, String kind, String id, float[] unit, boolean graph) {
    Document d = new Document();
    d.add(new StringField(UID, uid(namespace, kind, id).text(), Field.Store.NO));
    d.add(new StringField(NS, namespace, Field.Store.NO));
    d.add(new StringField(SCOPE, scope(namespace, kind).text(), Field.Store.NO));
    d.add(new SortedDocValuesField(ID, new BytesRef(id)));
    d.add(new StoredField(ID, id));
    d.add(new StoredField(DIM, unit.length));
    d.add(new KnnFloatVectorField(
        graph ? graphField(unit.length) : flatField(unit.length), unit, VectorSimilarityFunction.DOT_PRODUCT));
    return d;
  }
}
