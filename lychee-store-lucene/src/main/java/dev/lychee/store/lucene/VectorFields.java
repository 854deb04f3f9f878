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
 * while different logical indexes (namespaces, kinds) may use different embedders.
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

  static String vectorField(int dimension) {
    return "vec_" + dimension;
  }

  static Term uid(String namespace, String kind, String id) {
    return new Term(UID, CompositeKey.of(namespace, kind, id));
  }

  static Term scope(String namespace, String kind) {
    return new Term(SCOPE, CompositeKey.of(namespace, kind));
  }

  static Document vector(String namespace, String kind, String id, float[] unit) {
    Document d = new Document();
    d.add(new StringField(UID, uid(namespace, kind, id).text(), Field.Store.NO));
    d.add(new StringField(NS, namespace, Field.Store.NO));
    d.add(new StringField(SCOPE, scope(namespace, kind).text(), Field.Store.NO));
    d.add(new SortedDocValuesField(ID, new BytesRef(id)));
    d.add(new StoredField(ID, id));
    d.add(new StoredField(DIM, unit.length));
    d.add(new KnnFloatVectorField(vectorField(unit.length), unit, VectorSimilarityFunction.DOT_PRODUCT));
    return d;
  }
}
