package dev.lychee.store.lucene;

import java.io.IOException;
import org.apache.lucene.index.DocValues;
import org.apache.lucene.index.FloatVectorValues;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.SortedDocValues;
import org.apache.lucene.search.ScoreMode;
import org.apache.lucene.search.SimpleCollector;

/**
 * Walks the live documents a query matches and hands each one's id and vector of {@code field}
 * to {@link #accept}; documents without a vector or an id are skipped. The vector array is reused
 * by Lucene between documents: copy it to keep it.
 */
abstract class LiveVectors extends SimpleCollector {
  private final String field;
  private FloatVectorValues vectors;
  private SortedDocValues ids;

  LiveVectors(String field) {
    this.field = field;
  }

  /** One matching document's id and (reused) vector. */
  abstract void accept(String id, float[] vector) throws IOException;

  @Override
  protected void doSetNextReader(LeafReaderContext context) throws IOException {
    vectors = context.reader().getFloatVectorValues(field);
    ids = DocValues.getSorted(context.reader(), VectorFields.ID);
  }

  @Override
  public void collect(int doc) throws IOException {
    if (vectors == null) {
      return;
    }
    if (vectors.docID() < doc) {
      vectors.advance(doc);
    }
    if (vectors.docID() == doc && ids.advanceExact(doc)) {
      accept(ids.lookupOrd(ids.ordValue()).utf8ToString(), vectors.vectorValue());
    }
  }

  @Override
  public ScoreMode scoreMode() {
    return ScoreMode.COMPLETE_NO_SCORES;
  }
}
