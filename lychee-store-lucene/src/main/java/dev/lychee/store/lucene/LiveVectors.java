package dev.lychee.store.lucene;

import java.io.IOException;
import org.apache.lucene.index.DocValues;
import org.apache.lucene.index.FloatVectorValues;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.SortedDocValues;
import org.apache.lucene.search.ScoreMode;
import org.apache.lucene.search.SimpleCollector;

/**
 * Walks the live documents a query matches and hands each one's id and vector to {@link #accept}:
 * the vector of the first of the given fields the document has a value in (the vector index writes
 * each vector into one field only, {@link VectorFields}); documents without a vector in any of them
 * or without an id are skipped. The vector array is reused by Lucene between documents: copy it to
 * keep it.
 */
abstract class LiveVectors extends SimpleCollector {
  private final String[] fields;
  private final FloatVectorValues[] vectors;
  private SortedDocValues ids;

  LiveVectors(String... fields) {
    this.fields = fields.clone();
    this.vectors = new FloatVectorValues[fields.length];
  }

  /** One matching document's id and (reused) vector. */
  abstract void accept(String id, float[] vector) throws IOException;

  @Override
  protected void doSetNextReader(LeafReaderContext context) throws IOException {
    for (int i = 0; i < fields.length; i++) {
      vectors[i] = context.reader().getFloatVectorValues(fields[i]);
    }
    ids = DocValues.getSorted(context.reader(), VectorFields.ID);
  }

  @Override
  public void collect(int doc) throws IOException {
    for (FloatVectorValues values : vectors) {
      if (values == null) {
        continue;
      }
      if (values.docID() < doc) {
        values.advance(doc);
      }
      if (values.docID() == doc) {
        if (ids.advanceExact(doc)) {
          accept(ids.lookupOrd(ids.ordValue()).utf8ToString(), values.vectorValue());
        }
        return;
      }
    }
  }

  @Override
  public ScoreMode scoreMode() {
    return ScoreMode.COMPLETE_NO_SCORES;
  }
}
